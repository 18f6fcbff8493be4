"""What every format parser shares: the parse context, capped warnings, problem collection, episodes."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from strata.schema.errors import InputError
from strata.schema.ids import content_hash, episode_uuid
from strata.schema.models import Episode

# Per warning kind, how many are listed before the rest are only counted.
MAX_WARNINGS_PER_KIND = 20
MAX_PROBLEMS_IN_MESSAGE = 20


class WarningLog:
    """Warnings for the user; a repeated kind is capped so a bad file cannot flood the response."""

    def __init__(self) -> None:
        self._items: list[str] = []
        self._counts: Counter[str] = Counter()

    def add(self, kind: str, message: str) -> None:
        self._counts[kind] += 1
        if self._counts[kind] <= MAX_WARNINGS_PER_KIND:
            self._items.append(message)

    def extend(self, messages: list[str], kind: str = "general") -> None:
        for message in messages:
            self.add(kind, message)

    def as_list(self) -> list[str]:
        extra = [
            f"... and {count - MAX_WARNINGS_PER_KIND} more '{kind}' warnings"
            for kind, count in self._counts.items()
            if count > MAX_WARNINGS_PER_KIND
        ]
        return [*self._items, *extra]


class Problems:
    """Collects every invalid line of a file so the user fixes them all in one round."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.items: list[dict[str, Any]] = []

    def add(self, where: str, problem: str) -> None:
        self.items.append({"where": where, "problem": problem})

    def raise_if_any(self, error: type[InputError] = InputError) -> None:
        if not self.items:
            return
        shown = [f"  {item['where']}: {item['problem']}" for item in self.items[:MAX_PROBLEMS_IN_MESSAGE]]
        if len(self.items) > MAX_PROBLEMS_IN_MESSAGE:
            shown.append(f"  ... and {len(self.items) - MAX_PROBLEMS_IN_MESSAGE} more")
        noun = "problem" if len(self.items) == 1 else "problems"
        message = f"{self.name}: {len(self.items)} {noun}:\n" + "\n".join(shown)
        raise error(message, {"file": self.name, "problems": self.items})


@dataclass
class Context:
    """Everything a parser needs besides its own options; builds episodes with deterministic ids."""

    name: str
    group_id: str
    text: str
    source_hash: str
    now: datetime
    agent: str | None = None
    book_window_tokens: int = 1500
    chat_window_messages: int = 0
    max_episode_chars: int = 200_000
    warnings: WarningLog = field(default_factory=WarningLog)
    source_uuid: str = ""
    episodes: list[Episode] = field(default_factory=list)

    def add_episode(self, **fields: Any) -> Episode:
        """Append an episode with the next seq; ids and hashes are derived here, never by parsers."""
        seq = len(self.episodes)
        episode = Episode(
            uuid=episode_uuid(self.group_id, self.source_hash, seq),
            group_id=self.group_id,
            source_uuid=self.source_uuid,
            source_name=self.name,
            seq=seq,
            agent=self.agent,
            created_at=self.now,
            content_hash=fields.pop("content_hash", None) or content_hash(fields["content"]),
            **fields,
        )
        self.episodes.append(episode)
        return episode


def line_starts(text: str) -> list[int]:
    """Offsets where each line starts (index 0 is line 1)."""
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    return starts


def iter_lines(text: str) -> list[tuple[int, int, int, str]]:
    """(line number, start, end, line text without newline) for every line."""
    out = []
    for number, start in enumerate(line_starts(text), start=1):
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        if start == len(text) and number > 1:
            break
        out.append((number, start, end, text[start:end]))
    return out


def iter_json_lines(text: str, problems: Problems) -> Iterator[tuple[int, int, int, str, Any]]:
    """(line number, start, end, "line N", parsed value) for every non-blank line; bad JSON is recorded in
    ``problems`` (every bad line, not just the first) and skipped."""
    for number, start, end, line in iter_lines(text):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.add(where, f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        yield number, start, end, where, obj
