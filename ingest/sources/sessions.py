"""sessions-json: many dated sessions in one document, plus adapters for two public corpus shapes.

Recognized shapes (first match wins, see docs/formats.md):
- generic: a list of sessions, or ``{"sessions": [...]}``; a session is
  ``{"date"|"timestamp", "session_id"?, "messages": [{speaker, text, timestamp?}]}``.
- memorybank: ``{user: {"name", "history": {"YYYY-MM-DD": [{"query", "response"}]}}}``.
- msc (Multi-Session Chat): objects with ``dialog`` and ``previous_dialogs`` (one chain per JSON line).
A JSON-lines file is read as a list of its line objects.
"""

from __future__ import annotations

import json
from typing import Any

from strata.schema.errors import InputError, UnsupportedFormatError

from .chat import TIME_KEYS, RawMessage, RawSession, build_chat_episodes, message_from_dict
from .common import Context, Problems, iter_lines
from .times import parse_relative, parse_timestamp

MESSAGE_LIST_KEYS = ("messages", "turns", "dialog", "dialogue", "conversation")
SESSION_ID_KEYS = ("session_id", "id", "session", "name")
ASSISTANT = "Assistant"


Locs = list[tuple[int, int, int]]  # per JSON line: line number, start, end in the source text


def _load(ctx: Context, problems: Problems) -> tuple[Any, Locs | None]:
    """The JSON document, or a list of JSON lines plus each line's location in the source text."""
    try:
        return json.loads(ctx.text), None
    except json.JSONDecodeError as whole_error:
        records: list[Any] = []
        locs: Locs = []
        for number, start, end, line in iter_lines(ctx.text):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
                locs.append((number, start, end))
            except json.JSONDecodeError as exc:
                problems.add(f"line {number}", f"invalid JSON: {exc.msg} (column {exc.colno})")
        if len(records) <= 1 and problems.items:
            raise InputError(
                f"{ctx.name}: invalid JSON at line {whole_error.lineno} column {whole_error.colno}: {whole_error.msg}",
                {"file": ctx.name, "line": whole_error.lineno},
            ) from whole_error
        problems.raise_if_any()
        return records, locs


def _is_memorybank(doc: Any) -> bool:
    users = (
        [doc] if isinstance(doc, dict) and "history" in doc else (list(doc.values()) if isinstance(doc, dict) else [])
    )
    return bool(users) and all(isinstance(u, dict) and isinstance(u.get("history"), dict) for u in users)


def parse_sessions_json(ctx: Context) -> dict[str, Any]:
    problems = Problems(ctx.name)
    doc, locs = _load(ctx, problems)
    meta: dict[str, Any]
    if _is_memorybank(doc):
        sessions, meta = _memorybank(doc), {"adapter": "memorybank"}
    elif isinstance(doc, list) and doc and all(isinstance(d, dict) and "dialog" in d for d in doc):
        sessions, meta = _msc(ctx, doc, locs, problems), {"adapter": "msc"}
    else:
        raw = doc.get("sessions") if isinstance(doc, dict) else doc
        if not isinstance(raw, list):
            raise UnsupportedFormatError(
                f"{ctx.name}: unrecognized sessions-json shape: expected a list of sessions, "
                '{"sessions": [...]}, a MemoryBank or an MSC document (see docs/formats.md)',
                {"file": ctx.name},
            )
        sessions, meta = _generic(ctx, raw, locs, problems), {"adapter": "generic"}
        if isinstance(doc, dict):
            meta["document"] = {k: v for k, v in doc.items() if k != "sessions"}
    problems.raise_if_any()
    build_chat_episodes(ctx, sessions)
    meta.update(sessions=len(sessions), messages=sum(len(s.messages) for s in sessions))
    return meta


def _generic(ctx: Context, raw: list[Any], locs: Locs | None, problems: Problems) -> list[RawSession]:
    sessions = []
    for index, item in enumerate(raw):
        where, span = _where(locs, index, f"sessions[{index}]")
        if not isinstance(item, dict):
            problems.add(where, f"expected a session object, got {type(item).__name__}")
            continue
        list_key = next((k for k in MESSAGE_LIST_KEYS if isinstance(item.get(k), list)), None)
        if list_key is None:
            problems.add(where, f"no message list (expected one of: {', '.join(MESSAGE_LIST_KEYS)})")
            continue
        key = next((str(item[k]) for k in SESSION_ID_KEYS if item.get(k) not in (None, "")), None)
        date_key = next((k for k in TIME_KEYS if item.get(k) not in (None, "")), None)
        date = parse_timestamp(item[date_key]) if date_key else None
        if date_key and date is None:
            ctx.warnings.add("timestamp", f"{where}: unparsable session date {item[date_key]!r}, ignored")
        messages = []
        for position, obj in enumerate(item[list_key]):
            message = message_from_dict(obj, f"{where}.{list_key}[{position}]", problems)
            if message is not None:
                message.span = span
                messages.append(message)
        extra = {k: v for k, v in item.items() if k not in (list_key, date_key) and k not in SESSION_ID_KEYS}
        sessions.append(RawSession(messages=messages, key=key, date=date, metadata=extra))
    return sessions


def _where(locs: Locs | None, index: int, fallback: str) -> tuple[str, tuple[int, int] | None]:
    if not locs:
        return fallback, None
    number, start, end = locs[index]
    return f"line {number}", (start, end)


def _memorybank(doc: dict[str, Any]) -> list[RawSession]:
    """MemoryBank: each user's dated days of query/response pairs; the user's name is the speaker."""
    users = {doc.get("name", "user"): doc} if "history" in doc else doc
    sessions = []
    for user_key, user in users.items():
        name = str(user.get("name") or user_key)
        for day, pairs in user["history"].items():
            date = parse_timestamp(day)
            messages = []
            for position, pair in enumerate(pairs if isinstance(pairs, list) else []):
                where = f"{user_key}.history[{day}][{position}]"
                for speaker, key in ((name, "query"), (ASSISTANT, "response")):
                    text = pair.get(key) if isinstance(pair, dict) else None
                    if isinstance(text, str):
                        messages.append(RawMessage(speaker=speaker, text=text, where=where))
            metadata = {"user": name}
            if isinstance(user.get("meta_information"), dict):
                metadata["profile"] = user["meta_information"]
            sessions.append(RawSession(messages=messages, key=f"{name}/{day}", date=date, metadata=metadata))
    return sessions


def _msc(ctx: Context, chains: list[dict[str, Any]], locs: Locs | None, problems: Problems) -> list[RawSession]:
    """MSC chains: previous sessions then the current one; times are relative ("5 days ago").

    Absolute times do not exist in MSC, so the current session is anchored at ingestion time and earlier
    sessions at ``now - time_back``, all flagged inferred. Speakers are "Speaker 1"/"Speaker 2"; with more
    than one chain in a file they are qualified by the chain id, since every chain is a different pair.
    """
    sessions = []
    for index, chain in enumerate(chains):
        where, span = _where(locs, index, f"[{index}]")
        chain_id = str((chain.get("metadata") or {}).get("initial_data_id") or index)
        qualify = len(chains) > 1
        parts = [*(chain.get("previous_dialogs") or []), {**chain, "time_back": None}]
        for number, part in enumerate(parts, start=1):
            dialog = part.get("dialog")
            if not isinstance(dialog, list):
                problems.add(where, f"session {number}: 'dialog' is not a list")
                continue
            back = parse_relative(part["time_back"]) if part.get("time_back") else None
            date = ctx.now - back if back is not None else ctx.now
            personas = part.get("personas") or []
            messages = []
            for position, turn in enumerate(dialog):
                text = turn.get("text") if isinstance(turn, dict) else None
                if not isinstance(text, str):
                    problems.add(where, f"session {number} turn {position}: no text")
                    continue
                label = str(turn.get("id") or f"Speaker {position % 2 + 1}")
                speaker = f"{label} ({chain_id})" if qualify else label
                meta = {"chain": chain_id, "label": label}
                raw = RawMessage(speaker=speaker, text=text, where=f"{where} session {number}", metadata=meta)
                raw.span = span
                messages.append(raw)
            metadata: dict[str, Any] = {"chain": chain_id, "session_number": number}
            if part.get("time_back"):
                metadata["time_back"] = str(part["time_back"]).strip()
            if personas:
                metadata["personas"] = {f"Speaker {i + 1}": p for i, p in enumerate(personas)}
            if number == 1 and chain.get("init_personas"):
                metadata["init_personas"] = chain["init_personas"]
            sessions.append(
                RawSession(
                    messages=messages, key=f"{chain_id}/{number}", date=date, date_inferred=True, metadata=metadata
                )
            )
    return sessions
