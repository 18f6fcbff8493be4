"""Book segmentation: exact offsets, chapters, windows, Gutenberg framing (real books read in place)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strata.ingest.sources import SourceOptions, count_tokens, load_source, parse_source_text
from strata.ingest.sources.book import gutenberg_body
from strata.ingest.sources.headings import to_number
from tests.support.shared_data import SHARED_DATA, needs_shared

BOOKS = SHARED_DATA / "books"
NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)

needs_books = needs_shared("books")


def _load(name: str, **kwargs: object):
    return load_source(BOOKS / name, "book", group_id="g1", now=NOW, **kwargs)  # type: ignore[arg-type]


@needs_books
@pytest.mark.parametrize(
    ("name", "chapters", "parts"),
    [
        ("pride_and_prejudice_pg1342.txt", 61, 0),
        ("alice_in_wonderland_pg11.txt", 12, 0),
        ("adventures_of_sherlock_holmes_pg1661.txt", 12, 0),
        # 15 books + 2 epilogues; 365 chapters in this (Maude) edition, table of contents excluded.
        ("war_and_peace_pg2600.txt", 365, 17),
    ],
)
def test_real_books_round_trip_and_chapters(name: str, chapters: int, parts: int) -> None:
    doc = _load(name)
    assert doc.source.metadata["chapters"] == chapters
    assert doc.source.metadata["parts"] == parts
    assert doc.warnings == []
    for episode in doc.episodes:
        assert doc.text[episode.span_start : episode.span_end] == episode.content
        assert episode.kind == "text"
        assert episode.metadata["tokens"] <= 1500
        assert episode.reference_time == NOW and episode.reference_time_inferred
        assert episode.chapter == episode.metadata["chapter"]
    # Episodes are in text order and never overlap.
    spans = [(e.span_start, e.span_end) for e in doc.episodes]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    labelled = {e.metadata["chapter_index"] for e in doc.episodes if e.chapter != "Front matter"}
    assert len(labelled) == chapters
    assert [e.seq for e in doc.episodes] == list(range(len(doc.episodes)))


@needs_books
def test_gutenberg_licence_is_outside_every_episode() -> None:
    doc = _load("alice_in_wonderland_pg11.txt")
    start, end, gutenberg = gutenberg_body(doc.text)
    assert gutenberg
    assert doc.episodes[0].span_start >= start and doc.episodes[-1].span_end <= end
    joined = "".join(e.content for e in doc.episodes)
    assert "PROJECT GUTENBERG" not in joined.upper().replace("THE PROJECT GUTENBERG", "")
    assert "End of Project Gutenberg" not in joined
    assert doc.episodes[-1].content.rstrip().endswith("THE END")
    assert not doc.text.startswith("\ufeff") and "\r" not in doc.text


@needs_books
def test_war_and_peace_labels_carry_the_book() -> None:
    doc = _load("war_and_peace_pg2600.txt")
    labels = list(dict.fromkeys(e.chapter for e in doc.episodes))
    assert labels[1] == "BOOK ONE: 1805 / CHAPTER I"
    assert labels[-1] == "SECOND EPILOGUE / CHAPTER XII"
    assert any(label.startswith("FIRST EPILOGUE: 1813 - 20 / ") for label in labels)
    # The table of contents stays front matter instead of becoming 382 empty chapters.
    assert doc.episodes[0].chapter == "Front matter" and "Contents" in doc.episodes[0].content


@needs_books
def test_sherlock_adventures_not_subsections() -> None:
    doc = _load("adventures_of_sherlock_holmes_pg1661.txt")
    labels = list(dict.fromkeys(e.chapter for e in doc.episodes))
    assert labels[1] == "I. A SCANDAL IN BOHEMIA"
    assert labels[-1] == "XII. THE ADVENTURE OF THE COPPER BEECHES"


def _book(chapters: int, paragraphs: int, words: int = 60) -> str:
    parts = ["A Title\n\nContents\n\nCHAPTER I\nCHAPTER II\n"]
    for c in range(1, chapters + 1):
        parts.append(f"\n\nCHAPTER {c}\n\n")
        for p in range(paragraphs):
            parts.append(" ".join(f"word{c}x{p}x{w}." if w % 12 == 11 else f"w{w}" for w in range(words)) + "\n\n")
    return "".join(parts)


def test_windows_respect_budget_and_chapters() -> None:
    doc = parse_source_text(_book(3, 40), "book", name="b.txt", group_id="g",
                            options=SourceOptions(book_window_tokens=300), now=NOW)
    assert doc.source.metadata["chapters"] == 3
    assert doc.episodes[0].chapter == "Front matter" and "CHAPTER II" in doc.episodes[0].content
    for episode in doc.episodes[1:]:
        assert count_tokens(episode.content) <= 300
        assert doc.text[episode.span_start : episode.span_end] == episode.content
        # A window holds text of one chapter only.
        assert episode.content.count("CHAPTER") <= 1
        if "CHAPTER" in episode.content:
            assert episode.content.startswith("CHAPTER")
    # Windows end at paragraph ends (the next char is a newline or end of text).
    for episode in doc.episodes:
        assert episode.span_end == len(doc.text) or doc.text[episode.span_end] == "\n"


def test_crlf_and_bom_offsets_are_into_normalized_text() -> None:
    raw = "\ufeffCHAPTER I\r\n\r\nOne two.\r\n\r\nCHAPTER II\r\n\r\nThree four.\r\n"
    doc = parse_source_text(raw, "book", name="b.txt", group_id="g", now=NOW)
    assert doc.text == "CHAPTER I\n\nOne two.\n\nCHAPTER II\n\nThree four.\n"
    assert [e.content for e in doc.episodes] == ["CHAPTER I\n\nOne two.", "CHAPTER II\n\nThree four."]
    assert [e.metadata["chapter_index"] for e in doc.episodes] == [1, 2]


def test_long_paragraph_split_at_sentences() -> None:
    sentence = "The quick brown fox jumps over the lazy dog again and again. "
    text = "CHAPTER 1\n\n" + sentence * 200 + "\n\nCHAPTER 2\n\nShort.\n"
    doc = parse_source_text(text, "book", name="b.txt", group_id="g", options=SourceOptions(book_window_tokens=100),
                            now=NOW)
    body = [e for e in doc.episodes if e.metadata["chapter_index"] == 1]
    assert len(body) > 10
    for episode in body:
        assert count_tokens(episode.content) <= 100
        assert doc.text[episode.span_start : episode.span_end] == episode.content
    assert all(e.content.endswith(".") for e in body[1:])


def test_max_episode_chars_caps_windows_even_for_one_giant_word() -> None:
    text = "CHAPTER 1\n\n" + "x" * 5000 + " tail words here.\n"
    doc = parse_source_text(text, "book", name="b.txt", group_id="g", options=SourceOptions(max_episode_chars=1000),
                            now=NOW)
    assert all(len(e.content) <= 1000 for e in doc.episodes)
    assert all(doc.text[e.span_start : e.span_end] == e.content for e in doc.episodes)


def test_plain_text_without_headings_is_one_unlabelled_run() -> None:
    doc = parse_source_text("Just a note.\n\nAnother paragraph.\n", "book", name="n.txt", group_id="g", now=NOW)
    assert len(doc.episodes) == 1
    assert doc.episodes[0].chapter is None and doc.episodes[0].metadata["chapter_index"] == 0


def test_numeral_title_headings_must_count_up() -> None:
    text = (
        "I. THE FIRST STORY\n\nText one.\n\n"
        "1. A list item that looks like a heading\n\nMore text.\n\n"
        "II. THE SECOND STORY\n\nText two.\n"
    )
    doc = parse_source_text(text, "book", name="s.txt", group_id="g", now=NOW)
    assert doc.source.metadata["chapters"] == 2
    assert [e.chapter for e in doc.episodes] == ["I. THE FIRST STORY", "II. THE SECOND STORY"]


def test_title_line_below_bare_chapter_joins_label() -> None:
    text = "CHAPTER 1\n\nTHE BOY WHO LIVED\n\nMr. Dursley.\n\nCHAPTER 2\n\nTHE GLASS\n\nNearly ten years.\n"
    doc = parse_source_text(text, "book", name="h.txt", group_id="g", now=NOW)
    assert [e.chapter for e in doc.episodes] == ["CHAPTER 1 THE BOY WHO LIVED", "CHAPTER 2 THE GLASS"]


def test_gutenberg_markers_only_frame() -> None:
    text = "Header\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n"
    from strata.schema.errors import InputError

    with pytest.raises(InputError, match="START and END"):
        parse_source_text(text, "book", name="g.txt", group_id="g", now=NOW)


def test_ids_are_deterministic_and_content_hashed() -> None:
    a = parse_source_text(_book(2, 5), "book", name="a.txt", group_id="g", now=NOW)
    b = parse_source_text(_book(2, 5), "book", name="renamed.txt", group_id="g")
    c = parse_source_text(_book(2, 5), "book", name="a.txt", group_id="other", now=NOW)
    assert a.source.uuid == b.source.uuid != c.source.uuid
    assert [e.uuid for e in a.episodes] == [e.uuid for e in b.episodes]
    assert len({e.uuid for e in a.episodes}) == len(a.episodes)
    assert a.episodes[0].content_hash != a.episodes[1].content_hash


@pytest.mark.parametrize(
    ("token", "value"),
    [("XII", 12), ("iv", 4), ("12", 12), ("twenty-one", 21), ("ONE", 1), ("first", 1), ("MCMXL", 1940), ("Bob", None)],
)
def test_to_number(token: str, value: int | None) -> None:
    assert to_number(token) == value


_LINES = st.one_of(
    st.just(""),
    st.just("CHAPTER IV"),
    st.just("BOOK TWO: 1806"),
    st.just("II. A HEADING"),
    st.text(alphabet=st.sampled_from("ab .!?\u00e9\u201c\r\t"), max_size=80),
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_LINES, max_size=60), window=st.integers(min_value=1, max_value=40))
def test_property_offsets_round_trip(lines: list[str], window: int) -> None:
    text = "\n".join(lines)
    if not text.strip():
        return
    doc = parse_source_text(text, "book", name="p.txt", group_id="g",
                            options=SourceOptions(book_window_tokens=window, max_episode_chars=60), now=NOW)
    for episode in doc.episodes:
        assert doc.text[episode.span_start : episode.span_end] == episode.content
        assert episode.content.strip() and len(episode.content) <= 60
    # Nothing is dropped: text outside every episode is whitespace or a heading-only line (a part title).
    rest = list(doc.text)
    for episode in doc.episodes:
        rest[episode.span_start : episode.span_end] = " " * (episode.span_end - episode.span_start)
    leftover = [line.strip() for line in "".join(rest).split("\n") if line.strip()]
    assert all(line in doc.source.metadata["headings"] for line in leftover)


def test_book_episodes_carry_their_offset_as_story_position_and_chat_has_none() -> None:
    text = "CHAPTER I\n\nAnn lived in Bath.\n\nCHAPTER II\n\nAnn moved to York.\n\nCHAPTER III\n\nAnn married Bob.\n"
    doc = parse_source_text(text, "book", name="b.txt", group_id="g1", now=NOW,
                            options=SourceOptions(book_window_tokens=8))
    chapters = [e for e in doc.episodes if e.metadata.get("chapter_index")]
    assert len(chapters) >= 3
    assert all(e.story_position == e.span_start for e in doc.episodes)
    positions = [e.story_position for e in doc.episodes]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    chat = parse_source_text('{"speaker": "Ann", "text": "hi"}\n', "chat-jsonl", name="c.jsonl", group_id="g1",
                             now=NOW)
    assert [e.story_position for e in chat.episodes] == [None]


def test_a_window_carries_the_paragraphs_before_it_in_its_chapter() -> None:
    paragraphs = [f'"Line {k} of the talk," said {"Anna" if k % 2 else "Tom"}.' for k in range(40)]
    text = "CHAPTER 1\n\n" + "\n\n".join(paragraphs) + "\n\nCHAPTER 2\n\nA new day began.\n"
    doc = parse_source_text(text, "book", name="b.txt", group_id="g", options=SourceOptions(book_window_tokens=100),
                            now=NOW)
    first, second = [e for e in doc.episodes if e.metadata["chapter_index"] == 1][:2]
    assert "preceding" not in first.metadata  # a chapter opens a new scene
    before = second.metadata["preceding"]
    assert doc.text[second.span_start - 2 - len(before):second.span_start - 2] == before  # whole paragraphs
    assert before.startswith('"Line') and len(before) <= 1200
    assert all("preceding" not in e.metadata for e in doc.episodes if e.metadata["chapter_index"] == 2)
    assert all(doc.text[e.span_start:e.span_end] == e.content for e in doc.episodes)
