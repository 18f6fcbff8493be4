"""The bulk rows of ``strata.graph.bulk`` as import records: the same nodes, relationships and properties the
UNWIND queries of ``graph/queries/bulk.py`` create, for a first load through ``neo4j-admin`` (``admin_csv``).
Kept beside those queries on purpose: a property added there is added here (tests/integration/test_admin_import.py
compares the two stores property by property)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from strata.graph import lucene
from strata.graph.admin_csv import CsvStoreWriter
from strata.graph.bulk import check_group


class BulkCsv:
    """``entities``, ``episodes``, ``facts`` and ``predicates`` take the rows ``bulk_*`` take."""

    def __init__(self, writer: CsvStoreWriter, group_id: str, now: datetime) -> None:
        check_group(group_id)
        self.out, self.group_id, self.now = writer, group_id, now
        self.tag = lucene.group_tag(group_id)
        self._names: dict[str, str] = {}  # entity uuid -> name, for MENTIONS' surface forms

    def entities(self, rows: Sequence[dict[str, Any]]) -> None:
        for row in rows:
            self._names[row["uuid"]] = row["name"]
            self.out.node(row["uuid"], ("Entity", row["type"]), {
                "uuid": row["uuid"], "group_id": self.group_id, "group_tag": self.tag, "key": row["key"],
                "name": row["name"], "type": row["type"], "aliases": [], "summary": row["summary"],
                "created_at": self.now, "updated_at": self.now, "name_embedding": row["embedding"]})

    def episodes(self, rows: Sequence[dict[str, Any]]) -> None:
        for row in rows:
            size = len(row["content"])
            self.out.node(row["uuid"], ("Episode",), {
                "uuid": row["uuid"], "group_id": self.group_id, "kind": "facts", "content": row["content"],
                "content_hash": row["content_hash"], "source_name": row["source_name"],
                "reference_time": row["reference_time"], "reference_time_inferred": False, "status": "done",
                "created_at": self.now, "committed_at": self.now, "metadata_json": "{}", "messages_json": "[]",
                "speakers": [], "seq": row["seq"], "span_start": 0, "span_end": size, "extractor": "bench"})
            self.out.node(row["passage_uuid"], ("Passage",), {
                "uuid": row["passage_uuid"], "group_id": self.group_id, "group_tag": self.tag,
                "episode_uuid": row["uuid"], "start": 0, "end": size, "text": row["content"],
                "context": row["content"], "embedding": row["embedding"], "context_embedding": row["embedding"]})
            self.out.relationship("HAS_PASSAGE", row["uuid"], row["passage_uuid"], {})
            for m in row["mentions"]:
                self.out.relationship("MENTIONS", row["uuid"], m["entity_uuid"], {
                    "spans": m["spans"], "surface_forms": [self._names[m["entity_uuid"]]]})

    def facts(self, rows: Sequence[dict[str, Any]]) -> None:
        for f in rows:
            self.out.relationship("RELATES_TO", f["subject_uuid"], f["object_uuid"], {
                "uuid": f["uuid"], "group_id": self.group_id, "group_tag": self.tag, "predicate": f["predicate"],
                "fact": f["fact"], "valid_at": f["valid_at"], "stated_invalid_at": None,
                "invalid_at": f["invalid_at"], "invalidated_by": f["invalidated_by"],
                "invalidated_at": f["invalidated_at"], "negated": False, "confidence": 1.0, "created_at": self.now,
                "extractor": "bench", "episodes": [f["episode_uuid"]], "evidence": [f["evidence"]],
                "asserted_by": [], "agents": ["bench"], "fact_embedding": f["embedding"]})

    def predicates(self, rows: Sequence[dict[str, Any]]) -> None:
        for p in rows:
            self.out.node(f"predicate:{self.group_id}:{p['name']}", ("Predicate",), {
                "group_id": self.group_id, "name": p["name"], "description": p["description"],
                "functional": p["functional"], "count": p["count"], "created_at": self.now})

    def write(self, kind: str, rows: Sequence[dict[str, Any]]) -> None:
        getattr(self, kind)(rows)
