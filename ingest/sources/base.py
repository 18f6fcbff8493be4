"""Entry points: load a file (or parse in-memory content) in a named format into a SourceDocument."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from strata.schema.errors import InputError, UnsupportedFormatError
from strata.schema.ids import content_hash, source_uuid
from strata.schema.models import Episode, Source, SourceKind, utcnow
from strata.schema.requests_write import FORMATS

from .book import parse_book
from .chat import parse_chat_jsonl
from .common import Context
from .facts import parse_facts_jsonl
from .readers import Decoded, check_text, decode_bytes, normalize_newlines, read_bytes
from .sessions import parse_sessions_json
from .times import to_utc
from .transcript import parse_transcript

_PARSERS: dict[str, tuple[SourceKind, Callable[[Context], dict[str, Any]]]] = {
    "book": ("book", parse_book),
    "chat-jsonl": ("chat", parse_chat_jsonl),
    "transcript": ("chat", parse_transcript),
    "sessions-json": ("chat", parse_sessions_json),
    "facts-jsonl": ("facts", parse_facts_jsonl),
}


class SourceDocument(BaseModel):
    """A parsed source: the Source record, its episodes in order, warnings, and the text offsets refer to."""

    model_config = ConfigDict(frozen=True)

    source: Source
    episodes: list[Episode]
    warnings: list[str] = Field(default_factory=list)
    text: str


class SourceOptions(BaseModel):
    """How a source is cut into episodes (from Settings); the same for a file, uploaded bytes or text. Checked
    by the parse (an InputError naming every option), not by the model."""

    model_config = ConfigDict(frozen=True)

    book_window_tokens: int = 1500
    chat_window_messages: int = 0
    max_episode_chars: int = 200_000


def _check_options(fmt: str, options: SourceOptions) -> None:
    if fmt not in _PARSERS:
        raise UnsupportedFormatError(
            f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}", {"format": fmt, "formats": FORMATS}
        )
    if options.book_window_tokens < 1 or options.chat_window_messages < 0 or options.max_episode_chars < 1:
        raise InputError(
            "book_window_tokens and max_episode_chars must be positive, chat_window_messages >= 0",
            options.model_dump(),
        )


def load_source(
    path: Path,
    fmt: str,
    *,
    group_id: str,
    agent: str | None = None,
    book_window_tokens: int = 1500,
    chat_window_messages: int = 0,
    max_episode_chars: int = 200_000,
    now: datetime | None = None,
) -> SourceDocument:
    """Read ``path`` and segment it into episodes; every bad input is an InputError naming the file."""
    path = Path(path)
    options = SourceOptions(book_window_tokens=book_window_tokens, chat_window_messages=chat_window_messages,
                            max_episode_chars=max_episode_chars)
    _check_options(fmt, options)
    decoded = decode_bytes(read_bytes(path), str(path))
    return _parse(
        decoded,
        fmt,
        name=path.name,
        uri=path.resolve().as_uri(),
        group_id=group_id,
        agent=agent,
        options=options,
        now=now,
    )


def parse_source_bytes(
    data: bytes,
    fmt: str,
    *,
    name: str,
    group_id: str,
    uri: str | None = None,
    agent: str | None = None,
    options: SourceOptions = SourceOptions(),
    now: datetime | None = None,
) -> SourceDocument:
    """An uploaded file's bytes: decoded exactly as ``load_source`` decodes a file."""
    _check_options(fmt, options)
    return _parse(
        decode_bytes(data, name),
        fmt,
        name=name,
        uri=uri,
        group_id=group_id,
        agent=agent,
        options=options,
        now=now,
    )


def parse_source_text(
    text: str,
    fmt: str,
    *,
    name: str,
    group_id: str,
    uri: str | None = None,
    agent: str | None = None,
    options: SourceOptions = SourceOptions(),
    now: datetime | None = None,
) -> SourceDocument:
    """In-memory content; BOM and CRLF are normalized like a file's, so offsets and ids agree."""
    _check_options(fmt, options)
    normalized = normalize_newlines(text)
    check_text(normalized, name)
    return _parse(
        Decoded(normalized, "utf-8"),
        fmt,
        name=name,
        uri=uri,
        group_id=group_id,
        agent=agent,
        options=options,
        now=now,
    )


def _parse(
    decoded: Decoded,
    fmt: str,
    *,
    name: str,
    uri: str | None,
    group_id: str,
    agent: str | None,
    options: SourceOptions,
    now: datetime | None,
) -> SourceDocument:
    if not group_id:
        raise InputError("group_id is required", {"group_id": group_id})
    kind, parser = _PARSERS[fmt]
    now = to_utc(now) if now is not None else utcnow()
    # The hash is of the normalized text, so a CRLF and an LF copy of a file are the same source.
    source_hash = content_hash(decoded.text)
    ctx = Context(
        name=name,
        group_id=group_id,
        text=decoded.text,
        source_hash=source_hash,
        now=now,
        agent=agent,
        book_window_tokens=options.book_window_tokens,
        chat_window_messages=options.chat_window_messages,
        max_episode_chars=options.max_episode_chars,
        source_uuid=source_uuid(group_id, source_hash),
    )
    ctx.warnings.extend(decoded.warnings, kind="encoding")
    details = parser(ctx)
    if not ctx.episodes:
        raise InputError(f"{name}: no content found for format {fmt!r}", {"file": name, "format": fmt})
    metadata: dict[str, Any] = {
        "format": fmt,
        "encoding": decoded.encoding,
        "encoding_fallback": decoded.fallback,
        "episodes": len(ctx.episodes),
        # Episode ids depend on seq, so re-ingesting with other settings reuses ids for other spans.
        "segmentation": options.model_dump(),
        **details,
    }
    source = Source(
        uuid=ctx.source_uuid,
        group_id=group_id,
        name=name,
        kind=kind,
        uri=uri,
        content_hash=source_hash,
        created_at=now,
        metadata=metadata,
    )
    return SourceDocument(source=source, episodes=ctx.episodes, warnings=ctx.warnings.as_list(), text=decoded.text)
