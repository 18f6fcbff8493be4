"""CSV files for ``neo4j-admin database import full``: a first load of an empty store, written as it streams.

Nodes and relationships arrive as plain records (labels or type, properties); they are written in chunks, each
chunk a file with its own header file (``--nodes=header,data`` per chunk), so the columns and their types are
those of the chunk's rows and nothing of the graph is held beyond one chunk. What the importer cannot write is
recorded for a Cypher pass after it: an empty list (the importer reads an empty array field as no property,
where the Cypher path stores ``[]``). Vectors are ``float[]`` (what ``db.create.setNodeVectorProperty`` stores).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

# Between array elements and labels: a control character no text of the store holds (checked per value).
ARRAY_DELIMITER = "\x1f"
CHUNK_ROWS = 20_000
# Properties stored as 32-bit vectors by the Cypher path (setNodeVectorProperty / setRelationshipVectorProperty).
VECTOR_PROPERTIES = frozenset({"name_embedding", "fact_embedding", "embedding", "context_embedding"})


class EmptyList(BaseModel):
    """A property the Cypher path writes as ``[]``: set after the import on the nodes (label) or relationships
    (type) that lack it."""

    entity: str  # "node" or "relationship"
    token: str
    key: str


class ImportManifest(BaseModel):
    """What ``neo4j-admin`` is given (file groups, relative to the folder) and what is left for Cypher."""

    nodes: list[list[str]] = []
    relationships: list[list[str]] = []
    multiline: list[str] = []
    empty_lists: list[EmptyList] = []
    counts: dict[str, int] = {}

    @classmethod
    def read(cls, folder: Path) -> ImportManifest:
        return cls.model_validate_json((folder / "manifest.json").read_text())


@dataclass
class _Chunk:
    """Rows of one label (or relationship type), already formatted: the columns are known only at the end."""

    kind: str  # "nodes" or "relationships"
    columns: dict[str, str] = field(default_factory=dict)
    rows: list[tuple[tuple[str, ...], dict[str, str]]] = field(default_factory=list)
    multiline: bool = False


class CsvStoreWriter:
    """``node(id, labels, props)`` and ``relationship(type, start, end, props)``; ``close()`` writes the last
    chunks and ``manifest.json``. Ids are only for the import (relationship ends), never stored. Rows are kept
    per first label or type, so a file's columns are that kind's, and only files with line breaks in a value
    are parsed as multiline (the importer parses those on one thread)."""

    def __init__(self, folder: Path, chunk_rows: int = CHUNK_ROWS) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.chunk_rows = chunk_rows
        self.manifest = ImportManifest()
        self._chunks: dict[tuple[str, str], _Chunk] = {}
        self._files = 0
        self._empty: set[tuple[str, str, str]] = set()

    def node(self, node_id: str, labels: Iterable[str], props: dict[str, Any]) -> None:
        labels = tuple(labels)
        self._add("nodes", labels[0] if labels else "", (_quote(node_id), _quote(_join(labels))), props)

    def relationship(self, rel_type: str, start: str, end: str, props: dict[str, Any]) -> None:
        self._add("relationships", rel_type, (_quote(start), _quote(end), _quote(rel_type)), props)

    def _add(self, kind: str, token: str, fixed: tuple[str, ...], props: dict[str, Any]) -> None:
        chunk = self._chunks.setdefault((kind, token), _Chunk(kind))
        row: dict[str, str] = {}
        for key, value in props.items():
            if value is None:
                continue
            if isinstance(value, list) and not value:
                self._empty.add(("node" if kind == "nodes" else "relationship", token, key))
                continue
            typed = _type_of(key, value)
            if chunk.columns.setdefault(key, typed) != typed:
                raise ValueError(f"{token}.{key} is {chunk.columns[key]} and {typed} in one file")
            row[key] = text = _field(value, typed)
            chunk.multiline = chunk.multiline or "\n" in text or "\r" in text
        chunk.rows.append((fixed, row))
        self.manifest.counts[kind] = self.manifest.counts.get(kind, 0) + 1
        if len(chunk.rows) >= self.chunk_rows:
            self._flush(chunk)

    def _flush(self, chunk: _Chunk) -> None:
        if not chunk.rows:
            return
        fixed = (":ID", ":LABEL") if chunk.kind == "nodes" else (":START_ID", ":END_ID", ":TYPE")
        self._files += 1
        stem = f"{chunk.kind}-{self._files:05d}"
        header, data = self.folder / f"{stem}.header.csv", self.folder / f"{stem}.csv"
        header.write_text(",".join([*fixed, *(f"{k}:{t}" for k, t in chunk.columns.items())]) + "\n",
                          encoding="utf-8")
        with data.open("w", encoding="utf-8") as out:
            for ids, row in chunk.rows:
                out.write(",".join([*ids, *(row.get(k, "") for k in chunk.columns)]) + "\n")
        getattr(self.manifest, chunk.kind).append([header.name, data.name])
        if chunk.multiline:
            self.manifest.multiline.append(data.name)
        chunk.rows, chunk.columns, chunk.multiline = [], {}, False

    def close(self) -> ImportManifest:
        for chunk in self._chunks.values():
            self._flush(chunk)
        self.manifest.empty_lists = [EmptyList(entity=e, token=t, key=k) for e, t, k in sorted(self._empty)]
        (self.folder / "manifest.json").write_text(self.manifest.model_dump_json(indent=2))
        return self.manifest


def _type_of(key: str, value: Any) -> str:
    if isinstance(value, list):
        first = value[0]
        if isinstance(first, float) or (key in VECTOR_PROPERTIES and isinstance(first, int)):
            return "float[]" if key in VECTOR_PROPERTIES else "double[]"
        return _scalar(first) + "[]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    # Python's datetime / date, or the driver's neo4j.time types (read from a store), which are not subclasses
    if isinstance(value, datetime) or (hasattr(value, "hour") and hasattr(value, "year")):
        return "datetime" if value.tzinfo is not None else "localdatetime"
    if isinstance(value, date) or hasattr(value, "year"):
        return "date"
    raise ValueError(f"no CSV import type for {type(value).__name__}")


def _field(value: Any, kind: str) -> str:
    if value is None:
        return ""
    if kind == "float[]":  # rounded to 32 bits here, as the Cypher path stores them; the importer reads each back
        return _quote(ARRAY_DELIMITER.join(map(repr, np.asarray(value, dtype=np.float32).tolist())))
    if kind.endswith("[]"):
        return _quote(_join(_text(v) for v in value))
    if kind == "string":
        return _quote(value)
    return _quote(_text(value))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return value
    if hasattr(value, "iso_format"):  # neo4j.time types, read from a store
        return str(value.iso_format())
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)


def _join(values: Iterable[str]) -> str:
    parts = list(values)
    if any(ARRAY_DELIMITER in p for p in parts):
        raise ValueError("a value holds the array delimiter (U+001F)")
    return ARRAY_DELIMITER.join(parts)


def _quote(value: str) -> str:
    # Every string quoted (an empty quoted field is "", an empty unquoted one is no property); quotes doubled.
    return '"' + value.replace('"', '""') + '"'

