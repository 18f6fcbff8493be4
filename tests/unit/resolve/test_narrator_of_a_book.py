"""The book's narrator from the windows that named the narrator (strata.resolve.narrator)."""

from __future__ import annotations

from strata.resolve.narrator import book_narrator


def test_the_name_most_windows_gave_is_the_narrator() -> None:
    named = [("1", "watson"), ("1", "watson"), ("2", "watson"), ("3", "watson"), ("4", "wiggins")]
    assert book_narrator(named) == "watson"  # one window counts once, however many quotes it named


def test_too_few_windows_or_no_clear_leader_names_nobody() -> None:
    assert book_narrator([]) is None
    assert book_narrator([("1", "watson")]) is None
    assert book_narrator([("1", "watson"), ("2", "watson"), ("3", "hastings"), ("4", "hastings")]) is None
