"""facts-jsonl: one FactStatement per line, grouped into ``facts`` episodes that need no extraction.

Every invalid line is reported at once (line number and problem); unknown keys are errors rather than
metadata, because a typo such as ``valid_from`` would otherwise silently lose the fact's time.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from strata.schema.errors import SizeLimitError
from strata.schema.ids import content_hash
from strata.schema.models import FactStatement

from .common import Context, Problems, iter_json_lines
from .times import parse_timestamp

FACTS_PER_EPISODE = 100
_FIELDS = set(FactStatement.model_fields)
_ALIASES = {"valid_from": "valid_at", "valid_to": "invalid_at", "valid_until": "invalid_at"}


def _when(value: datetime) -> str:
    if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
        return value.date().isoformat()
    return value.isoformat()


def render_fact(statement: FactStatement) -> str:
    """One readable sentence: the given ``fact`` or ``subject predicate object``, with its valid time."""
    sentence = statement.fact or f"{statement.subject} {statement.predicate.replace('_', ' ')} {statement.object}"
    sentence = sentence.strip().replace("\n", " ")
    if statement.valid_at is not None:
        sentence += f" (from {_when(statement.valid_at)})"
    if statement.invalid_at is not None:
        sentence += f" (until {_when(statement.invalid_at)})"
    return sentence


def _statement(obj: Any, where: str, problems: Problems) -> FactStatement | None:
    if not isinstance(obj, dict):
        problems.add(where, f"expected a JSON object, got {type(obj).__name__}")
        return None
    data: dict[str, Any] = {_ALIASES.get(str(k), str(k)): v for k, v in obj.items()}
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        problems.add(where, f"unknown keys {unknown} (allowed: {', '.join(sorted(_FIELDS))})")
        return None
    for key in ("valid_at", "invalid_at"):
        if data.get(key) not in (None, ""):
            parsed = parse_timestamp(data[key])
            if parsed is None:
                problems.add(where, f"{key}: unparsable date {data[key]!r}")
                return None
            data[key] = parsed
        else:
            data[key] = None
    try:
        statement = FactStatement.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            field = ".".join(str(p) for p in error["loc"]) or "record"
            problems.add(where, f"{field}: {error['msg']}")
        return None
    if statement.valid_at and statement.invalid_at and statement.invalid_at < statement.valid_at:
        problems.add(where, "invalid_at is before valid_at")
        return None
    return statement


def parse_facts_jsonl(ctx: Context) -> dict[str, Any]:
    problems = Problems(ctx.name)
    rows: list[tuple[int, int, int, FactStatement]] = []
    for number, start, end, where, obj in iter_json_lines(ctx.text, problems):
        statement = _statement(obj, where, problems)
        if statement is not None:
            rows.append((number, start, end, statement))
    problems.raise_if_any()
    for chunk in _chunks(ctx, rows):
        _add_facts_episode(ctx, chunk)
    return {"statements": len(rows)}


def _chunks(
    ctx: Context, rows: list[tuple[int, int, int, FactStatement]]
) -> list[list[tuple[int, int, int, FactStatement, str]]]:
    """Up to FACTS_PER_EPISODE statements per episode, fewer when the content would be too long."""
    chunks: list[list[tuple[int, int, int, FactStatement, str]]] = [[]]
    size = 0
    for number, start, end, statement in rows:
        sentence = render_fact(statement)
        if len(sentence) > ctx.max_episode_chars:
            raise SizeLimitError(
                f"{ctx.name}: line {number}: fact of {len(sentence)} characters exceeds "
                f"max_episode_chars={ctx.max_episode_chars}",
                {"file": ctx.name, "line": number},
            )
        full = len(chunks[-1]) >= FACTS_PER_EPISODE or size + 1 + len(sentence) > ctx.max_episode_chars
        if chunks[-1] and full:
            chunks.append([])
            size = 0
        size += len(sentence) + (1 if size else 0)
        chunks[-1].append((number, start, end, statement, sentence))
    return [c for c in chunks if c]


def _add_facts_episode(ctx: Context, chunk: list[tuple[int, int, int, FactStatement, str]]) -> None:
    statements = [row[3] for row in chunk]
    canonical = json.dumps(
        [s.model_dump(mode="json") for s in statements], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    first, last = chunk[0][0], chunk[-1][0]
    ctx.add_episode(
        kind="facts",
        content="\n".join(row[4] for row in chunk),
        content_hash=content_hash(canonical),
        # Statements carry their own valid times; the episode itself is asserted at ingestion.
        reference_time=ctx.now,
        reference_time_inferred=True,
        span_start=chunk[0][1],
        span_end=chunk[-1][2],
        facts=statements,
        metadata={"location": f"line {first}" if first == last else f"line {first} .. line {last}"},
    )
