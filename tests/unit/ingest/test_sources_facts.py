"""facts-jsonl: statements grouped into facts episodes; every invalid line reported at once."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from strata.ingest.sources import parse_source_text
from strata.ingest.sources.facts import FACTS_PER_EPISODE
from strata.schema.errors import InputError
from strata.schema.ids import content_hash

NOW = datetime(2025, 1, 2, tzinfo=UTC)


def _facts(lines: list[object]):
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    return parse_source_text(text, "facts-jsonl", name="f.jsonl", group_id="g", now=NOW)


def _statement(i: int, **extra: object) -> dict[str, object]:
    return {
        "subject": f"Country{i}",
        "subject_type": "Country",
        "predicate": "head_of_state",
        "object": f"Person{i}",
        "object_type": "Person",
        "valid_at": "2020-01-05",
        **extra,
    }


def test_statements_become_readable_sentences_in_batches() -> None:
    rows = [_statement(i) for i in range(FACTS_PER_EPISODE + 5)]
    rows[0] = _statement(0, invalid_at="2022-06-01T12:00:00Z", functional="subject")
    rows[1] = _statement(1, fact="Person1 leads Country1.", valid_at=None)
    doc = _facts(rows)
    first, second = doc.episodes
    assert first.kind == "facts" and len(first.facts) == FACTS_PER_EPISODE and len(second.facts) == 5
    lines = first.content.split("\n")
    assert lines[0] == "Country0 head of state Person0 (from 2020-01-05) (until 2022-06-01T12:00:00+00:00)"
    assert lines[1] == "Person1 leads Country1."
    assert first.facts[0].functional == "subject" and first.facts[0].valid_at == datetime(2020, 1, 5, tzinfo=UTC)
    canonical = json.dumps(
        [f.model_dump(mode="json") for f in second.facts], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert second.content_hash == content_hash(canonical)
    assert second.metadata["location"] == f"line {FACTS_PER_EPISODE + 1} .. line {FACTS_PER_EPISODE + 5}"


def test_all_invalid_lines_reported() -> None:
    with pytest.raises(InputError) as info:
        _facts(
            [
                _statement(1),
                {"subject": "A", "predicate": "p"},
                _statement(3, valid_at="the day after"),
                "not json",
                _statement(5, valid_from="2020"),
                _statement(6, color="red"),
                _statement(7, valid_at="2021-01-01", invalid_at="2020-01-01"),
            ]
        )
    problems = info.value.details["problems"]
    assert [p["where"] for p in problems] == ["line 2", "line 3", "line 4", "line 6", "line 7"]
    assert problems[0]["problem"].startswith("object:")
    assert "unparsable date 'the day after'" in problems[1]["problem"]
    assert "unknown keys ['color']" in problems[3]["problem"]
    assert "f.jsonl: 5 problems" in str(info.value)


def test_valid_from_alias_and_year_only_dates() -> None:
    doc = _facts([_statement(1, valid_at=None, valid_from="1997", valid_to="2001")])
    fact = doc.episodes[0].facts[0]
    assert fact.valid_at == datetime(1997, 1, 1, tzinfo=UTC) and fact.invalid_at == datetime(2001, 1, 1, tzinfo=UTC)
