"""A group read out of a running store into import files (``admin_csv``): the way to move a real group into a
new store through ``neo4j-admin`` (a first load), property for property."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from strata.graph.admin_csv import CsvStoreWriter, EmptyList, ImportManifest
from strata.graph.driver import Graph, mapped_errors
from strata.graph.queries import admin_import as q


def export_group(graph: Graph, group_id: str, folder: Path) -> ImportManifest:
    """Every node of the group and every relationship between two of them, streamed into ``folder``."""
    writer = CsvStoreWriter(folder)
    for row in _stream(graph, q.EXPORT_NODES, group_id=group_id):
        writer.node(row["id"], row["labels"], row["props"])
    for row in _stream(graph, q.EXPORT_RELATIONSHIPS, group_id=group_id):
        writer.relationship(row["type"], row["start"], row["end"], row["props"])
    return writer.close()


def _stream(graph: Graph, cypher: str, **params: Any) -> Iterator[dict[str, Any]]:
    with mapped_errors(), graph.driver.session(database=graph.database, default_access_mode="READ") as session:
        for record in session.run(cypher, params):
            yield dict(record)


def user_nodes(graph: Graph) -> int:
    """Nodes other than the migrations' records: a store that holds any is not empty."""
    return int(graph.query(q.USER_NODES)[0]["n"])


def set_empty_lists(graph: Graph, fixes: list[EmptyList]) -> None:
    """Write the ``[]`` properties the importer left out (where the property is absent)."""
    for fix in fixes:
        cypher = q.SET_EMPTY_LIST_NODES if fix.entity == "node" else q.SET_EMPTY_LIST_RELATIONSHIPS
        with mapped_errors(), graph.driver.session(database=graph.database) as session:
            session.run(cypher, token=fix.token, key=fix.key, value={fix.key: []}).consume()
