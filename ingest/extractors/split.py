"""Split an episode in two when a model's reply for it was cut at max_tokens, and merge the halves' results.

A chat splits between messages (halves of its messages); a text, or a chat of one long message, at the
paragraph or sentence boundary nearest the middle. Each piece is a slice of the original content, so a span
found in a piece maps back by adding the piece's offset.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    ExtractedNote,
    ExtractedQuote,
    Extraction,
    ExtractorInfo,
    Message,
    Span,
)

# A piece shorter than this is not split again: a reply cut on so little text will be cut on half of it too.
MIN_SPLIT_CHARS = 200
_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"[.!?…][\"')\]”’]*\s+")
_SPACE = re.compile(r"\s+")


class Piece(BaseModel):
    """A slice of an episode's content, as an episode of its own, and where it starts in the original."""

    model_config = ConfigDict(frozen=True)

    episode: Episode
    offset: int


def split_episode(episode: Episode) -> tuple[Piece, Piece] | None:
    """Two pieces covering the content, or None when the episode cannot be split any further."""
    if len(episode.content) < MIN_SPLIT_CHARS and len(episode.messages) < 2:
        return None
    messages = sorted(episode.messages, key=lambda m: m.start)
    at = messages[len(messages) // 2].start if len(messages) >= 2 else None
    if at is None or not 0 < at < len(episode.content):
        lo, hi = _text_bounds(episode.content, messages[0]) if len(messages) == 1 else (0, len(episode.content))
        at = _boundary(episode.content, lo, hi)
        if at is None:
            return None
    return _piece(episode, 0, at), _piece(episode, at, len(episode.content))


def _text_bounds(content: str, message: Message) -> tuple[int, int]:
    """Where a chat message's own text lies in its line (after the "Speaker: " label)."""
    line = content[message.start:message.end]
    text_start = message.end - len(message.text) if line.endswith(message.text) else message.start
    return text_start, message.end


def _boundary(content: str, lo: int, hi: int) -> int | None:
    """The paragraph, else sentence, else word boundary in content[lo:hi] nearest its middle (None if none)."""
    middle = (lo + hi) // 2
    margin = (hi - lo) // 10  # keep both halves worth a call
    for pattern in (_PARAGRAPH, _SENTENCE, _SPACE):
        cuts = [m.end() for m in pattern.finditer(content, lo, hi) if lo + margin < m.end() < hi - margin]
        if cuts:
            return min(cuts, key=lambda c: abs(c - middle))
    return None


def _piece(episode: Episode, start: int, end: int) -> Piece:
    content = episode.content
    messages = []
    for m in episode.messages:
        if m.end <= start or m.start >= end:
            continue
        if start <= m.start and m.end <= end:
            messages.append(m.model_copy(update={"start": m.start - start, "end": m.end - start}))
            continue
        # a message the cut goes through: each side keeps its part of the text, same speaker
        text_start = max(_text_bounds(content, m)[0], start)
        text = content[text_start:min(m.end, end)].strip()
        messages.append(m.model_copy(update={"text": text, "start": max(m.start, start) - start,
                                             "end": min(m.end, end) - start}))
    part = episode.model_copy(update={
        "content": content[start:end], "messages": messages,
        "speakers": list(dict.fromkeys(m.speaker for m in messages)) or episode.speakers,
    })
    return Piece(episode=part, offset=start)


def _shift(spans: list[Span], offset: int) -> list[Span]:
    return [Span(start=s.start + offset, end=s.end + offset) for s in spans]


def merge_pieces(episode: Episode, parts: list[tuple[int, Extraction]], info: ExtractorInfo) -> Extraction:
    """One extraction for the whole episode: entities unioned by name, every span moved to the original content."""
    entities: dict[str, ExtractedEntity] = {}
    facts: list[ExtractedFact] = []
    notes: list[ExtractedNote] = []
    quotes: list[ExtractedQuote] = []
    warnings: list[str] = []
    summary: str | None = None
    for offset, ext in parts:
        for e in ext.entities:
            spans = _shift(e.spans, offset)
            known = entities.get(e.name)
            if known is None:
                entities[e.name] = e.model_copy(update={"spans": spans})
                continue
            entities[e.name] = known.model_copy(update={
                "type": known.type if known.type != "Entity" else e.type,
                "aliases": list(dict.fromkeys([*known.aliases, *e.aliases])),
                "description": known.description or e.description,
                "spans": sorted(set(known.spans) | set(spans), key=lambda s: s.start),
            })
        facts += [f.model_copy(update={"spans": _shift(f.spans, offset)}) for f in ext.facts]
        notes += [n.model_copy(update={"spans": _shift(n.spans, offset)}) for n in ext.notes]
        quotes += [x.model_copy(update={"spans": _shift(x.spans, offset), "start": x.start + offset,
                                        "end": x.end + offset}) for x in ext.quotes]
        warnings += ext.warnings
        summary = ext.summary or summary  # the pieces run in order: the last summary covers them all
    return Extraction(episode_uuid=episode.uuid, entities=list(entities.values()), facts=facts, notes=notes,
                      quotes=quotes, extractor=info, summary=summary, warnings=warnings)


__all__ = ["MIN_SPLIT_CHARS", "Piece", "merge_pieces", "split_episode"]
