"""sessions-json: the generic shape and the MemoryBank / MSC adapters (real corpora read in place)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from strata.ingest.sources import load_source, parse_source_text
from strata.schema.errors import InputError, UnsupportedFormatError
from tests.support.shared_data import SHARED_DATA, needs_shared

CHATLOGS = SHARED_DATA / "chatlogs"
NOW = datetime(2025, 1, 2, tzinfo=UTC)
needs_data = needs_shared("chatlogs")


def _sessions(doc: object):
    return parse_source_text(json.dumps(doc), "sessions-json", name="s.json", group_id="g", now=NOW)


def test_generic_sessions_with_dates_and_time_only_messages() -> None:
    doc = _sessions(
        {
            "sessions": [
                {
                    "date": "2024-03-01",
                    "session_id": "a",
                    "topic": "x",
                    "messages": [{"speaker": "A", "text": "hi", "timestamp": "10:02"}, {"speaker": "B", "text": "yo"}],
                },
                {"timestamp": "2024-03-05T08:00:00Z", "messages": [{"role": "user", "content": "again"}]},
            ],
            "owner": "team",
        }
    )
    first, second = doc.episodes
    assert first.metadata["session"] == "a" and first.metadata["topic"] == "x"
    assert first.messages[0].timestamp == datetime(2024, 3, 1, 10, 2, tzinfo=UTC)
    assert first.messages[1].timestamp_inferred
    assert first.reference_time == datetime(2024, 3, 1, 10, 2, tzinfo=UTC)
    assert second.reference_time == datetime(2024, 3, 5, 8, tzinfo=UTC) and not second.reference_time_inferred
    assert second.speakers == ["user"]
    assert doc.source.metadata["adapter"] == "generic" and doc.source.metadata["document"] == {"owner": "team"}


def test_generic_list_problems_are_collected() -> None:
    with pytest.raises(InputError) as info:
        _sessions([{"date": "2024-01-01", "messages": [{"text": "x"}]}, {"date": "2024-01-02"}, 3])
    where = [p["where"] for p in info.value.details["problems"]]
    assert where == ["sessions[0].messages[0]", "sessions[1]", "sessions[2]"]


def test_unrecognized_shape_is_unsupported() -> None:
    with pytest.raises(UnsupportedFormatError, match="unrecognized sessions-json shape"):
        _sessions({"foo": 1})


def test_invalid_json_names_line() -> None:
    with pytest.raises(InputError, match="invalid JSON at line 2"):
        parse_source_text('{"sessions":\n [,]}', "sessions-json", name="s.json", group_id="g")


@needs_data
def test_memorybank_adapter() -> None:
    doc = load_source(CHATLOGS / "memorybank" / "memory_bank_en.json", "sessions-json", group_id="g", now=NOW)
    assert doc.source.metadata["adapter"] == "memorybank"
    first = doc.episodes[0]
    assert first.metadata["session"] == "Emily/2023-04-27" and first.speakers == ["Emily", "Assistant"]
    assert first.reference_time == datetime(2023, 4, 27, tzinfo=UTC) and not first.reference_time_inferred
    assert all(m.timestamp_inferred for m in first.messages)
    assert len({e.metadata["user"] for e in doc.episodes}) == 15
    assert len(doc.episodes) == sum(
        len(days) > 0 for user in json.loads(doc.text).values() for days in user["history"].values()
    )


@needs_data
def test_msc_adapter_orders_sessions_and_qualifies_speakers() -> None:
    doc = load_source(CHATLOGS / "msc" / "msc_session3_test.jsonl", "sessions-json", group_id="g", now=NOW)
    assert doc.source.metadata["adapter"] == "msc" and doc.source.metadata["sessions"] == 501 * 3
    s1, s2, s3 = doc.episodes[:3]
    assert s1.metadata["time_back"] == "5 days 1 hour ago"
    assert s1.reference_time == NOW - timedelta(days=5, hours=1) and s1.reference_time_inferred
    assert s3.reference_time == NOW
    assert s1.speakers == ["Speaker 1 (test_0)", "Speaker 2 (test_0)"]
    assert s1.metadata["personas"]["Speaker 1"][0] == "I own a Jeep."
    assert s1.span_end > s1.span_start == 0 and s1.metadata["location"] == "line 1 session 1"
    assert doc.warnings == []


def test_msc_single_chain_keeps_plain_speaker_labels() -> None:
    chain = {
        "dialog": [{"id": "Speaker 1", "text": "hi"}, {"id": "Speaker 2", "text": "yo"}],
        "previous_dialogs": [{"dialog": [{"text": "a"}, {"text": "b"}], "time_back": "2 hours ago"}],
        "metadata": {"initial_data_id": "c1"},
    }
    doc = _sessions([chain])
    assert [e.speakers for e in doc.episodes] == [["Speaker 1", "Speaker 2"]] * 2
    assert doc.episodes[0].reference_time == NOW - timedelta(hours=2)
