"""Books and plain text: Gutenberg framing, chapter detection, token-sized windows at paragraph boundaries.

Every offset is into the normalized source text, and ``text[span_start:span_end] == content`` holds for
every episode. Windows never cross a chapter (or part) boundary; a paragraph larger than the window is
split at sentence ends, and a sentence larger than the window at whitespace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from strata.schema.errors import InputError

from .common import Context
from .headings import Heading, detect_headings

_START = re.compile(
    r"^[ \t]*\*{3}[ \t]*START OF (?:THE|THIS) PROJECT GUTENBERG[^\n]*$|^\*END\*THE SMALL PRINT[^\n]*$", re.M | re.I
)
_END = re.compile(r"^[ \t]*\*{3}[ \t]*END OF (?:THE|THIS) PROJECT GUTENBERG[^\n]*$", re.M | re.I)
_END_LINE = re.compile(r"^[ \t]*End of (?:the )?Project Gutenberg[^\n]*$", re.M | re.I)
_PARAGRAPH = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)")
_WORD = re.compile(r"\S+")
FRONT_MATTER = "Front matter"
# Characters of the preceding paragraphs a window carries as context (metadata "preceding"): enough for the
# last turns of a conversation that runs on across the window's start.
PRECEDING_CHARS = 1200


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    tokens: int


def count_tokens(text: str) -> int:
    """Approximate LLM tokens: words and punctuation marks (about 1.2-1.3 per English word)."""
    return len(_TOKEN.findall(text))


def gutenberg_body(text: str) -> tuple[int, int, bool]:
    """(start, end) of the story inside the Project Gutenberg header and licence, or the whole text."""
    start_match = _START.search(text)
    end_match = _END.search(text, start_match.end() if start_match else 0)
    if not start_match and not end_match:
        return 0, len(text), False
    start = start_match.end() if start_match else 0
    end = end_match.start() if end_match else len(text)
    # Older files put "End of the Project Gutenberg EBook of ..." just before the END marker.
    tail = _END_LINE.search(text, max(start, end - 3000), end)
    if tail:
        end = tail.start()
    return start, end, True


def _pack(units: list[Unit], max_tokens: int, max_chars: int) -> list[Unit]:
    """Greedy packing of consecutive units into windows within both budgets.

    A small last window (under a quarter of the budget) takes units from the one before it, so a
    chapter does not end in a scrap that costs an extraction call for a sentence.
    """
    groups: list[list[Unit]] = []
    tokens = 0
    for unit in units:
        if groups and (tokens + unit.tokens > max_tokens or unit.end - groups[-1][0].start > max_chars):
            groups.append([])
            tokens = 0
        if not groups:
            groups.append([])
        groups[-1].append(unit)
        tokens += unit.tokens
    if len(groups) >= 2 and tokens < max_tokens // 4:
        before, last = groups[-2], groups[-1]
        while len(before) > 1:
            moved = before[-1]
            last_tokens = sum(u.tokens for u in last)
            if last_tokens + moved.tokens > sum(u.tokens for u in before) - moved.tokens:
                break
            if last[-1].end - moved.start > max_chars:
                break
            last.insert(0, before.pop())
    return [Unit(g[0].start, g[-1].end, sum(u.tokens for u in g)) for g in groups]


def _fits(unit: Unit, max_tokens: int, max_chars: int) -> bool:
    return unit.tokens <= max_tokens and unit.end - unit.start <= max_chars


def _split_words(text: str, unit: Unit, max_tokens: int, max_chars: int) -> list[Unit]:
    words = []
    for match in _WORD.finditer(text, unit.start, unit.end):
        start, end = match.span()
        while end - start > max_chars:  # a "word" longer than the limit: cut it
            words.append(Unit(start, start + max_chars, count_tokens(text[start : start + max_chars])))
            start += max_chars
        words.append(Unit(start, end, count_tokens(text[start:end])))
    return _pack(words, max_tokens, max_chars)


def _split_sentences(text: str, unit: Unit, max_tokens: int, max_chars: int) -> list[Unit]:
    pieces: list[Unit] = []
    start = unit.start
    for match in _SENTENCE_END.finditer(text, unit.start, unit.end):
        pieces.append(Unit(start, match.end(), count_tokens(text[start : match.end()])))
        start = match.end()
        while start < unit.end and text[start].isspace():
            start += 1
    if start < unit.end:
        pieces.append(Unit(start, unit.end, count_tokens(text[start : unit.end])))
    units: list[Unit] = []
    for piece in pieces:
        if _fits(piece, max_tokens, max_chars):
            units.append(piece)
        else:
            units.extend(_split_words(text, piece, max_tokens, max_chars))
    return _pack(units, max_tokens, max_chars)


def window(text: str, start: int, end: int, max_tokens: int, max_chars: int) -> list[Unit]:
    """Windows over text[start:end] at paragraph boundaries (sentences, then words, when too large)."""
    units: list[Unit] = []
    for match in _PARAGRAPH.finditer(text, start, end):
        paragraph = Unit(match.start(), match.end(), count_tokens(match.group(0)))
        if _fits(paragraph, max_tokens, max_chars):
            units.append(paragraph)
        else:
            units.extend(_split_sentences(text, paragraph, max_tokens, max_chars))
    return _pack(units, max_tokens, max_chars)


def preceding(text: str, start: int, at: int, max_chars: int = PRECEDING_CHARS) -> str:
    """The whole paragraphs of text[start:at] that end it, within ``max_chars``: read-only context for the
    window starting at ``at`` (who was speaking when it opens), never extracted from."""
    lo = max(start, at - max_chars)
    cut = text.find("\n\n", lo, at)
    if lo > start and cut == -1:
        return ""
    return text[cut if lo > start else lo : at].strip()


@dataclass
class Segment:
    start: int
    end: int
    label: str | None
    part: str | None
    heading_ends: tuple[int, ...]  # ends of heading lines inside, to tell a heading-only segment


def _segments(start: int, end: int, headings: list[Heading]) -> list[Segment]:
    segments: list[Segment] = []
    part: str | None = None
    chapter: str | None = None
    bounds = [h for h in headings if h.level in ("part", "chapter")]
    first_label = FRONT_MATTER if bounds else None
    heading_ends: tuple[int, ...] = ()
    cursor, label = start, first_label
    for heading in bounds:
        segments.append(Segment(cursor, heading.start, label, part, heading_ends))
        if heading.level == "part":
            part, chapter = heading.label, None
        else:
            chapter = heading.label
        label = " / ".join(x for x in (part, chapter) if x)
        cursor, heading_ends = heading.start, (heading.end,)
    segments.append(Segment(cursor, end, label, part, heading_ends))
    return segments


def _has_body(text: str, segment: Segment) -> bool:
    body_start = max([segment.start, *segment.heading_ends])
    return bool(text[body_start : segment.end].strip())


def parse_book(ctx: Context) -> dict[str, Any]:
    text = ctx.text
    start, end, gutenberg = gutenberg_body(text)
    if not text[start:end].strip():
        raise InputError(f"{ctx.name}: no text between the Project Gutenberg START and END lines", {"file": ctx.name})
    headings = detect_headings(text, start, end)
    chapters = sum(1 for h in headings if h.level == "chapter")
    parts = sum(1 for h in headings if h.level == "part")
    max_chars = ctx.max_episode_chars
    index = 0
    for segment in _segments(start, end, headings):
        if not _has_body(text, segment):
            continue
        if segment.label != FRONT_MATTER and segment.label is not None:
            index += 1
        for number, unit in enumerate(window(text, segment.start, segment.end, ctx.book_window_tokens, max_chars)):
            metadata: dict[str, Any] = {
                "chapter": segment.label,
                "chapter_index": index,
                "window_index": number,
                "tokens": unit.tokens,
            }
            if segment.part:
                metadata["part"] = segment.part
            if number and (before := preceding(text, max([segment.start, *segment.heading_ends]), unit.start)):
                metadata["preceding"] = before  # a scene runs on across a window's start, never a chapter's
            ctx.add_episode(
                kind="text",
                content=text[unit.start : unit.end],
                # A book has no world time: the ingestion time stands in, flagged as inferred.
                reference_time=ctx.now,
                reference_time_inferred=True,
                span_start=unit.start,
                span_end=unit.end,
                # The story clock: where the window stands in the book orders what it states.
                story_position=unit.start,
                chapter=segment.label,
                metadata=metadata,
            )
    return {
        "gutenberg": gutenberg,
        "body_start": start,
        "body_end": end,
        "chapters": chapters,
        "parts": parts,
        "headings": [h.label for h in headings],
    }
