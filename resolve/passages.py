"""Passages: the small, individually searchable pieces of an episode (a chat message, a few sentences).

Search hits on passages point at the exact message or sentences that matched, not a whole chapter window.
Each chat passage also carries its context: the message before it and itself (a prose window is its own
context). A reply ("Yes, a sunset over the lake") means little alone; with the turn it answers it matches the
question that asks for it. Context has its own full-text and vector index, searched beside the passage's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from strata.schema import ids
from strata.schema.models import Episode, ExtractedNote
from strata.schema.plan import PassageWrite

TARGET_CHARS = 600
# How much of the previous passage a passage's context keeps (the tail: what leads into it).
CONTEXT_CHARS = 300
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+|\n{2,}")


def passages_for(episode: Episode, notes: Sequence[ExtractedNote] = ()) -> list[PassageWrite]:
    """The episode's passages; each one's context also holds the memory notes that rewrite it, so a question in
    other words ("When did Tom go to the gym?") finds "I went to the gym yesterday" through "Tom went to the
    climbing gym on 7 May 2023"."""
    if episode.kind == "chat" and episode.messages:
        passages = [_passage(episode, k, m.start, m.end, m.speaker) for k, m in enumerate(episode.messages)
                    if episode.content[m.start:m.end].strip()]
    else:
        # A prose window (a few sentences, ~600 characters) stands alone, unlike a chat reply: it is its own
        # context, so it is embedded once. Embedding every window twice, the second time with the tail before
        # it, was most of a book's ingestion time (docs/benchmarks.md, "Ingestion at scale").
        passages = [_passage(episode, k, start, end, None)
                    for k, (start, end) in enumerate(sentence_windows(episode.content))]
        return [p.model_copy(update={"context": _with_notes(p.text, notes_in(p, notes))}) for p in passages]
    return [p.model_copy(update={"context": _with_notes(context_of(passages[k - 1] if k else None, p),
                                                        notes_in(p, notes))})
            for k, p in enumerate(passages)]


def notes_in(passage: PassageWrite, notes: Sequence[ExtractedNote]) -> list[ExtractedNote]:
    """Notes whose evidence starts inside the passage."""
    return [n for n in notes if n.spans and passage.start <= n.spans[0].start < passage.end]


def _with_notes(context: str, notes: list[ExtractedNote]) -> str:
    return "\n".join([context, *(n.text for n in notes)]) if notes else context


def context_of(previous: PassageWrite | None, passage: PassageWrite) -> str:
    """The passage with the tail of the one before it (speaker-prefixed for chat), one per line."""
    if previous is None:
        return _with_speaker(passage)
    before = _with_speaker(previous)
    if len(before) > CONTEXT_CHARS:
        cut = before.find(" ", len(before) - CONTEXT_CHARS)
        before = before[cut + 1 if cut >= 0 else len(before) - CONTEXT_CHARS:]
    return f"{before}\n{_with_speaker(passage)}"


def _with_speaker(passage: PassageWrite) -> str:
    text = passage.text.strip()
    if passage.speaker and not text.startswith(f"{passage.speaker}:"):
        return f"{passage.speaker}: {text}"
    return text


def sentence_windows(text: str, target: int = TARGET_CHARS) -> list[tuple[int, int]]:
    """Consecutive sentences grouped up to about ``target`` characters; offsets into ``text``."""
    bounds, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    windows: list[tuple[int, int]] = []
    for s, e in bounds:
        if not text[s:e].strip():
            continue
        if windows and e - windows[-1][0] <= target and "\n\n" not in text[windows[-1][1]:s]:
            windows[-1] = (windows[-1][0], e)
        else:
            windows.append((s, e))
    return windows


def _passage(episode: Episode, k: int, start: int, end: int, speaker: str | None) -> PassageWrite:
    return PassageWrite(uuid=ids.stable_uuid("passage", episode.uuid, k), start=start, end=end,
                        text=episode.content[start:end], speaker=speaker)
