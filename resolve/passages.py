"""Passages: the small, individually searchable pieces of an episode (a chat message, a few sentences).

Search hits on passages point at the exact message or sentences that matched, not a whole chapter window.
"""

from __future__ import annotations

import re

from strata.schema import ids
from strata.schema.models import Episode
from strata.schema.plan import PassageWrite

TARGET_CHARS = 600
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+|\n{2,}")


def passages_for(episode: Episode) -> list[PassageWrite]:
    if episode.kind == "chat" and episode.messages:
        return [_passage(episode, k, m.start, m.end, m.speaker) for k, m in enumerate(episode.messages)
                if episode.content[m.start:m.end].strip()]
    return [_passage(episode, k, start, end, None) for k, (start, end) in enumerate(sentence_windows(episode.content))]


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
