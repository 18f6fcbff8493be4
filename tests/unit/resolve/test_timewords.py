"""The time a question names, as a window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.resolve.timewords import time_window

REF = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("Who did Maria have dinner with on May 3, 2023?", datetime(2023, 5, 3), datetime(2023, 5, 4)),
    ("What happened on 8 May, 2023?", datetime(2023, 5, 8), datetime(2023, 5, 9)),
    ("what did she paint on the 21st of December 2022", datetime(2022, 12, 21), datetime(2022, 12, 22)),
    ("Where was John in July 2023?", datetime(2023, 7, 1), datetime(2023, 8, 1)),
    ("Which races did he run in 2022?", datetime(2022, 1, 1), datetime(2023, 1, 1)),
    ("notes from 2023-02-28", datetime(2023, 2, 28), datetime(2023, 3, 1)),
    ("What did I do last year?", datetime(2023, 1, 1), datetime(2024, 1, 1)),
    ("anything last month", datetime(2024, 5, 1), datetime(2024, 6, 1)),
    ("what did we say yesterday", datetime(2024, 6, 14), datetime(2024, 6, 15)),
])
def test_dates_and_relative_phrases_become_windows(question: str, start: datetime, end: datetime) -> None:
    window = time_window(question, REF)
    assert window is not None
    assert (window.start, window.end) == (start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))


@pytest.mark.parametrize("question", [
    "When did Maria donate her car?", "What did she do in May?", "recently, what changed?",
    "How many of the 2000 runners finished?", "on February 30, 2023",
])
def test_no_window_without_a_confident_time(question: str) -> None:
    assert time_window(question, REF) is None
