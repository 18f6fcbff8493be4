"""What counts as an alias the text writes, for the cast ceiling."""

from bench.cast_ceiling import _plain, written

TEXT = _plain("Mr Knightley came in with the Station-Master; Miss Taylor's wedding was over.")


def test_titles_articles_and_hyphens_are_forgiven() -> None:
    assert written("Mr. Knightley", TEXT)
    assert written("The Station Master", TEXT)
    assert written("Miss Taylor", TEXT)


def test_a_name_the_text_never_writes_is_not_written() -> None:
    assert not written("George Knightley", TEXT)
    assert not written("Mr. Knight", TEXT)  # whole words only
