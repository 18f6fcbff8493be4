"""Plain transcripts: ``Name: text`` lines, optional leading timestamps, date headers between sessions.

Sessions break at date-header lines, decorated lines (``## Session 2``, ``-----``) and blank lines. When a
file puts a blank line between most turns, one blank line is just spacing and it takes two to break a
session; otherwise every blank line breaks one. Lines without a speaker continue the previous message; one
before any speaker in its session is kept under the speaker ``unknown`` with a warning, never dropped.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from .chat import RawMessage, RawSession, build_chat_episodes
from .common import Context, iter_lines
from .times import parse_timestamp

UNKNOWN_SPEAKER = "unknown"

_STAMP = re.compile(
    r"""^\s*(?:
        [\[(](?P<br>[^\])\n]{1,40})[\])]
      | (?P<iso>\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?)
      | (?P<clock>\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?)
    )\s*(?:[-–—|>]\s*)?""",
    re.X,
)
# A speaker is a short name: up to 40 characters, starting with a letter, no sentence punctuation.
_SPEAKER = re.compile(r"^(?P<speaker>[^\W\d_][\w .'’\-]{0,39}?)\s*:(?:\s+(?P<text>.*)|(?P<empty>\s*))$")
_DECORATED = re.compile(r"^\s*(?:#{1,6}\s+|[-=*_~]{3,})")
_DECOR_CHARS = " \t#=*-_~[]()"
_HEADER_LABEL = re.compile(r"^(?:date|day|session)\b[^:]{0,20}:\s*", re.I)
_DATE_IN_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}/\d{1,2}/\d{2,4}\b|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}")
_MAX_SPEAKER_WORDS = 4


def _speaker(rest: str) -> tuple[str, str] | None:
    match = _SPEAKER.match(rest)
    if not match:
        return None
    speaker = match["speaker"].strip()
    text = match["text"] or ""
    if len(speaker.split()) > _MAX_SPEAKER_WORDS or text.startswith("//"):
        return None
    return speaker, text


def _header_date(line: str) -> datetime | None:
    """The date of a header line such as ``2024-03-01``, ``=== March 1, 2024 ===``, ``Date: 2024-03-01``."""
    core = line.strip(_DECOR_CHARS)
    if not core or len(core) > 60 or re.fullmatch(r"\d{1,4}", core):
        return None
    core = _HEADER_LABEL.sub("", core)
    found = parse_timestamp(core)
    if found is None:
        match = _DATE_IN_TEXT.search(core)
        found = parse_timestamp(match.group(0)) if match else None
    return found


class _State:
    def __init__(self) -> None:
        self.sessions: list[RawSession] = [RawSession(messages=[])]
        self.date: datetime | None = None
        self.last: RawMessage | None = None

    def new_session(self, date: datetime | None = None, title: str | None = None) -> None:
        if date is not None:
            self.date = date
        metadata: dict[str, Any] = {"title": title} if title else {}
        session = RawSession(messages=[], date=self.date, metadata=metadata, key=title)
        if self.sessions[-1].messages:
            self.sessions.append(session)
        else:
            self.sessions[-1] = session
        self.last = None


def _spaced(lines: list[tuple[int, int, int, str]]) -> bool:
    """True when most consecutive speaker lines have a blank line between them."""
    gaps = turns = 0
    blank = False
    for _, _, _, line in lines:
        if not line.strip():
            blank = True
            continue
        stamp = _STAMP.match(line)
        if _speaker(line[stamp.end() :] if stamp else line):
            turns += 1
            gaps += blank
        blank = False
    return turns > 1 and gaps > (turns - 1) / 2


def _stamp(ctx: Context, line: str, where: str, state: _State) -> tuple[str, RawMessage]:
    """Split a leading timestamp off the line; returns the rest and a message holding the time."""
    message = RawMessage(speaker=UNKNOWN_SPEAKER, text="", where=where)
    match = _STAMP.match(line)
    if not match:
        return line, message
    value = match["br"] or match["iso"] or match["clock"]
    stamp = parse_timestamp(value)
    clock = stamp is None and parse_timestamp(value, anchor=datetime(2000, 1, 1)) is not None
    if match["br"] and stamp is None and not clock and not re.search(r"\d", value):
        # "[laughs] Bob: ..." is an annotation, not a timestamp.
        if _speaker(line[match.end() :]) is None:
            return line, message
        message.metadata["annotation"] = value
        return line[match.end() :], message
    if clock:
        message.metadata["time"] = value
        if state.date is None:
            ctx.warnings.add("timestamp", f"{where}: time-only timestamp {value!r} and no date header")
        else:
            stamp = parse_timestamp(value, anchor=state.date)
            previous = state.last.timestamp if state.last else None
            if stamp and previous and stamp < previous - timedelta(hours=1):
                stamp += timedelta(days=1)  # the clock passed midnight
    if stamp is None and not clock:
        message.raw_time = value  # resolved with a fallback and a warning by the chat builder
    message.timestamp = stamp
    return line[match.end() :], message


def parse_transcript(ctx: Context) -> dict[str, Any]:
    lines = iter_lines(ctx.text)
    spaced = _spaced(lines)
    breaking_blanks = 2 if spaced else 1
    state = _State()
    blanks = 0
    unknown = 0
    for number, start, end, line in lines:
        if not line.strip():
            blanks += 1
            continue
        where = f"line {number}"
        rest, message = _stamp(ctx, line, where, state)
        said = _speaker(rest)
        if said is None:
            date = _header_date(line)
            if date is not None or _DECORATED.match(line):
                state.new_session(date=date, title=line.strip(_DECOR_CHARS) or None)
                blanks = 0
                continue
        if blanks >= breaking_blanks and state.sessions[-1].messages:
            state.new_session()
        if said is None and state.last is not None and message.timestamp is None and not message.raw_time:
            joiner = "\n\n" if blanks else "\n"
            state.last.text += joiner + line.strip()
            state.last.span = (state.last.span[0] if state.last.span else start, end)
            blanks = 0
            continue
        if said is None:
            unknown += 1
            ctx.warnings.add("speaker", f"{where}: no speaker; attributed to {UNKNOWN_SPEAKER!r}")
            said = (UNKNOWN_SPEAKER, rest.strip())
        message.speaker, message.text = said
        message.span = (start, end)
        state.sessions[-1].messages.append(message)
        state.last = message
        blanks = 0
    sessions = [s for s in state.sessions if s.messages]
    build_chat_episodes(ctx, sessions)
    return {
        "messages": sum(len(s.messages) for s in sessions),
        "sessions": len(sessions),
        "unknown_speaker_lines": unknown,
    }
