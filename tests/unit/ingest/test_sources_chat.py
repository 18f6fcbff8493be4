"""chat-jsonl and transcript formats: speakers, sessions, windows, offsets, timestamps, bad lines."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from strata.ingest.sources import SourceOptions, load_source, parse_source_text
from strata.schema.errors import InputError, SizeLimitError

NOW = datetime(2025, 1, 2, tzinfo=UTC)


def _jsonl(*records: dict[str, object]) -> str:
    return "\n".join(json.dumps(r) for r in records) + "\n"


def _chat(text: str, **options: int):
    return parse_source_text(text, "chat-jsonl", name="c.jsonl", group_id="g", now=NOW,
                             options=SourceOptions(**options))


def test_messages_render_with_exact_line_offsets_and_aliases() -> None:
    text = _jsonl(
        {"speaker": "Alice", "text": "Hi Bob", "timestamp": "2024-03-01T10:00:00Z", "mood": "happy"},
        {"role": "assistant", "name": "Bob", "content": "Hello\nthere", "time": "2024-03-01 10:01"},
        {"user": "Alice", "message": "Bye", "created_at": 1709287320, "metadata": {"k": 1}},
    )
    doc = _chat(text)
    (episode,) = doc.episodes
    assert episode.kind == "chat" and episode.speakers == ["Alice", "Bob"]
    assert episode.content == "Alice: Hi Bob\nBob: Hello\nthere\nAlice: Bye"
    for message in episode.messages:
        assert episode.content[message.start : message.end] == f"{message.speaker}: {message.text}"
    alice, bob, bye = episode.messages
    assert alice.metadata == {"mood": "happy"}
    assert bob.metadata == {"role": "assistant"}  # name wins as speaker, role is kept
    assert bye.metadata == {"k": 1}
    assert bob.timestamp == datetime(2024, 3, 1, 10, 1, tzinfo=UTC)
    assert bye.timestamp == datetime(2024, 3, 1, 10, 2, tzinfo=UTC)
    assert episode.reference_time == datetime(2024, 3, 1, 10, tzinfo=UTC) and not episode.reference_time_inferred
    assert (episode.span_start, episode.span_end) == (0, len(doc.text) - 1)


def test_sessions_by_key_then_by_time_gap() -> None:
    keyed = _chat(
        _jsonl(
            {"speaker": "A", "text": "1", "session": "s1"},
            {"speaker": "B", "text": "2", "session": "s2"},
            {"speaker": "A", "text": "3", "session": "s1"},
        )
    )
    assert [e.metadata["session"] for e in keyed.episodes] == ["s1", "s2"]
    assert keyed.episodes[0].content == "A: 1\nA: 3"
    gapped = _chat(
        _jsonl(
            {"speaker": "A", "text": "1", "timestamp": "2024-03-01T10:00:00"},
            {"speaker": "B", "text": "2", "timestamp": "2024-03-01T15:00:00"},
            {"speaker": "A", "text": "3", "timestamp": "2024-03-01T21:01:00"},
        )
    )
    assert [e.content for e in gapped.episodes] == ["A: 1\nB: 2", "A: 3"]
    assert gapped.episodes[1].reference_time == datetime(2024, 3, 1, 21, 1, tzinfo=UTC)


def test_windows_of_n_messages_never_split_a_message() -> None:
    records = [{"speaker": f"S{i % 3}", "text": f"message {i}\nsecond line"} for i in range(7)]
    doc = _chat(_jsonl(*records), chat_window_messages=3)
    assert [len(e.messages) for e in doc.episodes] == [3, 3, 1]
    assert [e.metadata["window_index"] for e in doc.episodes] == [0, 1, 2]
    assert all(m.text.endswith("second line") for e in doc.episodes for m in e.messages)


def test_no_timestamps_uses_ingestion_time_flagged() -> None:
    doc = _chat(_jsonl({"speaker": "A", "text": "hi"}))
    assert doc.episodes[0].reference_time == NOW and doc.episodes[0].reference_time_inferred
    assert any("no timestamps" in w for w in doc.warnings)


def test_unparsable_timestamp_falls_back_with_warning() -> None:
    doc = _chat(
        _jsonl(
            {"speaker": "A", "text": "1", "timestamp": "2024-03-01T10:00:00"},
            {"speaker": "B", "text": "2", "timestamp": "not a time"},
            {"speaker": "C", "text": "3", "timestamp": "yesterday-ish"},
        )
    )
    message = doc.episodes[0].messages[1]
    assert message.timestamp_inferred and message.timestamp == datetime(2024, 3, 1, 10, tzinfo=UTC)
    assert "line 2: unparsable timestamp 'not a time', used previous message time" in doc.warnings
    only_bad = _chat(_jsonl({"speaker": "A", "text": "1", "timestamp": "garbage"}))
    assert only_bad.episodes[0].messages[0].timestamp == NOW
    assert only_bad.warnings[0] == "line 1: unparsable timestamp 'garbage', used ingestion time"


def test_every_bad_line_is_reported_with_its_number() -> None:
    text = _jsonl({"speaker": "A", "text": "ok"}, {"text": "no speaker"}) + "{broken\n" + _jsonl({"speaker": "B"})
    with pytest.raises(InputError) as info:
        _chat(text)
    message = str(info.value)
    assert "c.jsonl: 3 problems" in message
    assert "line 2: no speaker" in message and "line 3: invalid JSON" in message and "line 4: no text" in message
    assert [p["where"] for p in info.value.details["problems"]] == ["line 2", "line 3", "line 4"]


def test_single_message_over_limit_is_size_error_and_sessions_split_below_it() -> None:
    with pytest.raises(SizeLimitError, match="line 2: message of"):
        _chat(_jsonl({"speaker": "A", "text": "short"}, {"speaker": "A", "text": "x" * 500}), max_episode_chars=100)
    doc = _chat(_jsonl(*[{"speaker": "A", "text": "y" * 40} for _ in range(6)]), max_episode_chars=100)
    assert all(len(e.content) <= 100 for e in doc.episodes) and sum(len(e.messages) for e in doc.episodes) == 6


def _transcript(text: str):
    return parse_source_text(text, "transcript", name="t.txt", group_id="g", now=NOW)


def test_transcript_timestamps_headers_and_continuations() -> None:
    text = (
        "2024-03-01\n"
        "[10:02] Alice: Hi Bob\n"
        "Bob: hello\n"
        "  how are you\n"
        "23:59 Alice: late\n"
        "00:10 Bob: after midnight\n"
        "=== March 5, 2024 ===\n"
        "2024-03-05T09:00:00Z - Bob: back\n"
        "[laughs] Alice: ok\n"
    )
    doc = _transcript(text)
    first, second = doc.episodes
    assert first.content == "Alice: Hi Bob\nBob: hello\nhow are you\nAlice: late\nBob: after midnight"
    stamps = [m.timestamp for m in first.messages]
    assert stamps[0] == datetime(2024, 3, 1, 10, 2, tzinfo=UTC)
    assert first.messages[1].timestamp_inferred and stamps[1] == stamps[0]
    assert stamps[3] == datetime(2024, 3, 2, 0, 10, tzinfo=UTC)  # the clock passed midnight
    assert second.reference_time == datetime(2024, 3, 5, 9, tzinfo=UTC)
    assert second.messages[1].speaker == "Alice" and second.messages[1].metadata == {"annotation": "laughs"}
    for episode in doc.episodes:
        for message in episode.messages:
            assert episode.content[message.start : message.end] == f"{message.speaker}: {message.text}"
    assert doc.warnings == []


def test_transcript_line_before_any_speaker_is_unknown_not_dropped() -> None:
    doc = _transcript("Meeting notes follow\nAlice: hi\n")
    assert [m.speaker for m in doc.episodes[0].messages] == ["unknown", "Alice"]
    assert doc.warnings == ["line 1: no speaker; attributed to 'unknown'"]


def test_transcript_blank_lines_break_sessions_unless_used_as_spacing() -> None:
    dense = _transcript("A: one\nB: two\n\nA: three\nB: four\n")
    assert len(dense.episodes) == 2
    spaced = _transcript("A: one\n\nB: two\n\nA: three\n\n\nB: four\n")
    assert [len(e.messages) for e in spaced.episodes] == [3, 1]


def test_transcript_time_only_without_date_is_flagged() -> None:
    doc = _transcript("10:02 Alice: hi\n")
    message = doc.episodes[0].messages[0]
    assert message.timestamp is None and message.metadata == {"time": "10:02"}
    assert doc.episodes[0].reference_time == NOW and doc.episodes[0].reference_time_inferred
    assert "time-only timestamp '10:02' and no date header" in doc.warnings[0]


def test_load_source_reads_a_transcript_file(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes("Alice: caf\xe9\r\nBob: ok\r\n".encode("cp1252"))
    doc = load_source(path, "transcript", group_id="g", now=NOW, agent="agent-7")
    assert doc.episodes[0].content == "Alice: café\nBob: ok"
    assert doc.episodes[0].agent == "agent-7" and doc.source.uri == path.resolve().as_uri()
    assert doc.source.metadata["encoding"] == "cp1252" and "decoded as cp1252" in doc.warnings[0]
