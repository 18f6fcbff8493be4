"""Bad inputs: clear errors naming the file, encoding fallbacks flagged, timestamps parsed strictly."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from strata.ingest.sources import (
    FORMATS,
    SourceOptions,
    load_source,
    parse_source_bytes,
    parse_source_text,
    parse_timestamp,
)
from strata.schema.errors import InputError, UnsupportedFormatError


def test_formats_tuple() -> None:
    assert FORMATS == ("book", "chat-jsonl", "transcript", "sessions-json", "facts-jsonl")


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist") as info:
        load_source(tmp_path / "nope.txt", "book", group_id="g")
    assert info.value.details["file"].endswith("nope.txt")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        load_source(tmp_path, "book", group_id="g")


@pytest.mark.parametrize("content", [b"", b"  \n\r\n\t"])
def test_empty_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"empty\.txt: file is empty"):
        load_source(path, "chat-jsonl", group_id="g")


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match="binary content"):
        load_source(path, "book", group_id="g")
    with pytest.raises(InputError, match="binary content"):
        parse_source_bytes(b"\x01\x02\x03\x04" * 50, "book", name="x.bin", group_id="g")


def test_encodings(tmp_path: Path) -> None:
    utf16 = parse_source_bytes("Alice: héllo\n".encode("utf-16"), "transcript", name="u16.txt", group_id="g")
    assert utf16.episodes[0].content == "Alice: héllo" and utf16.warnings == []
    latin = parse_source_bytes(b"Alice: \x81\xe9\n", "transcript", name="l.txt", group_id="g")
    assert latin.source.metadata["encoding"] == "latin-1" and latin.source.metadata["encoding_fallback"]
    assert "decoded as latin-1" in latin.warnings[0] and "offset 7" in latin.warnings[0]
    bom = parse_source_bytes(b"\xef\xbb\xbfAlice: hi\n", "transcript", name="b.txt", group_id="g")
    assert bom.text == "Alice: hi\n" and bom.source.metadata["encoding"] == "utf-8"


def test_unknown_format(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("hello")
    with pytest.raises(UnsupportedFormatError, match="unknown format 'pdf'"):
        load_source(path, "pdf", group_id="g")


def test_bad_options_and_group() -> None:
    with pytest.raises(InputError):
        parse_source_text("A: b", "transcript", name="t", group_id="g", options=SourceOptions(max_episode_chars=0))
    with pytest.raises(InputError, match="group_id"):
        parse_source_text("A: b", "transcript", name="t", group_id="")


def test_same_content_same_ids_across_file_and_upload(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"Alice: hi\r\nBob: yo\r\n")
    from_file = load_source(path, "transcript", group_id="g")
    uploaded = parse_source_text("Alice: hi\nBob: yo\n", "transcript", name="t.txt", group_id="g")
    assert from_file.source.uuid == uploaded.source.uuid
    assert from_file.episodes[0].uuid == uploaded.episodes[0].uuid


@pytest.mark.parametrize(
    ("value", "anchor", "expected"),
    [
        ("2024-03-01T10:02:00Z", None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("2024-03-01T12:02:00+02:00", None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("2024-03-01 10:02", None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("March 1, 2024 10:02 AM", None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("01/03/2024", None, datetime(2024, 1, 3, tzinfo=UTC)),
        (1709287320, None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        (1709287320000, None, datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("2020", None, datetime(2020, 1, 1, tzinfo=UTC)),
        ("10:02", None, None),  # no date and no anchor: refused, not today's date
        ("10:02", datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 1, 10, 2, tzinfo=UTC)),
        ("not a date", None, None),
        ("", None, None),
        (True, None, None),
        (12, None, None),
    ],
)
def test_parse_timestamp(value: object, anchor: datetime | None, expected: datetime | None) -> None:
    assert parse_timestamp(value, anchor=anchor) == expected
