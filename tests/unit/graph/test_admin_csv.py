"""The import files: one file per label or type with its own typed header, values quoted as the importer reads
them, vectors as 32-bit floats, empty lists left for Cypher."""

from __future__ import annotations

import csv
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from strata.graph.admin_csv import ARRAY_DELIMITER, CsvStoreWriter, ImportManifest


def _rows(folder: Path, header: str, data: str) -> tuple[list[str], list[list[str]]]:
    head = next(csv.reader((folder / header).open()))
    return head, list(csv.reader((folder / data).open(newline="")))


def test_files_per_kind_with_typed_headers(tmp_path: Path) -> None:
    out = CsvStoreWriter(tmp_path)
    when = datetime(2020, 5, 17, 8, 30, tzinfo=UTC)
    out.node("e1", ("Entity", "Person"), {"name": 'Ann "A", B', "aliases": [], "summary": "", "seen": when,
                                          "count": 3, "ok": True, "name_embedding": [0.1, 0.0]})
    out.node("p1", ("Passage",), {"text": "line one\nline two", "end": 17})
    out.relationship("RELATES_TO", "e1", "p1", {"episodes": ["x", "y"], "confidence": 1.0, "gone": None})
    manifest = out.close()
    assert manifest == ImportManifest.read(tmp_path)
    assert manifest.counts == {"nodes": 2, "relationships": 1}
    assert [e.key for e in manifest.empty_lists] == ["aliases"] and manifest.empty_lists[0].token == "Entity"
    assert len(manifest.nodes) == 2 and len(manifest.relationships) == 1
    head, rows = _rows(tmp_path, *manifest.nodes[0])
    assert head == [":ID", ":LABEL", "name:string", "summary:string", "seen:datetime", "count:long", "ok:boolean",
                    "name_embedding:float[]"]
    assert rows[0][:-1] == ["e1", f"Entity{ARRAY_DELIMITER}Person", 'Ann "A", B', "", "2020-05-17T08:30:00+00:00",
                            "3", "true"]
    assert [np.float32(float(x)) for x in rows[0][-1].split(ARRAY_DELIMITER)] == [np.float32(0.1), 0]
    assert manifest.multiline == [manifest.nodes[1][1]]  # only the passages' file has a line break in a value
    head, rows = _rows(tmp_path, *manifest.relationships[0])
    assert head == [":START_ID", ":END_ID", ":TYPE", "episodes:string[]", "confidence:double"]
    assert rows == [["e1", "p1", "RELATES_TO", f"x{ARRAY_DELIMITER}y", "1.0"]]


def test_vectors_are_rounded_to_32_bits_before_printing(tmp_path: Path) -> None:
    value = 0.32025630761  # nearer one 32-bit float, but its 9-digit print is nearer the next one
    out = CsvStoreWriter(tmp_path)
    out.node("n", ("Entity",), {"name_embedding": [value]})
    _, rows = _rows(tmp_path, *out.close().nodes[0])
    assert np.float32(float(rows[0][2])) == np.float32(value)


def test_an_empty_quoted_string_differs_from_no_value(tmp_path: Path) -> None:
    out = CsvStoreWriter(tmp_path)
    out.node("a", ("X",), {"s": ""})
    out.node("b", ("X",), {"t": "z"})
    lines = (tmp_path / out.close().nodes[0][1]).read_text().splitlines()
    assert lines == ['"a","X","",', '"b","X",,"z"']


def test_a_chunk_refuses_a_property_of_two_types(tmp_path: Path) -> None:
    out = CsvStoreWriter(tmp_path)
    out.node("a", ("X",), {"v": 1})
    with pytest.raises(ValueError, match="X.v"):
        out.node("b", ("X",), {"v": "one"})
