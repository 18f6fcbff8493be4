"""A group's text version, which tells a small group's full-text table (graph/local_text.py) current.

The table of a group's documents kept in process is valid while the group's searchable texts (facts' text and
predicate, entities' name, aliases and summary, passages' context) are unchanged. Their statistics (documents,
total length) miss a text replaced by another of the same length, so every writer of those texts sets the
group's version anew (a random token on a ``TextVersion`` record, migration 0024) as the last statement of its
own transaction: a search reading the new texts reads the new version too, and one reading the old version
reads the old texts (a version read with the new texts before the bump only costs one more build).
"""

from __future__ import annotations

from collections.abc import Iterable

from neo4j import ManagedTransaction

from strata.graph.driver import Graph
from strata.graph.queries import text_version as q


def bump(tx: ManagedTransaction, group_id: str) -> None:
    """Inside a writer's transaction, as its last statement (it takes the record's lock last)."""
    tx.run(q.BUMP, group_id=group_id).consume()


def bump_groups(graph: Graph, group_ids: Iterable[str]) -> None:
    """After writes done in several transactions (batched loops, bulk loads, an import): once they are all
    committed, so no search can keep the old texts under the new version."""
    ids = sorted(set(group_ids))
    if ids:
        graph.write(lambda tx: tx.run(q.BUMP_MANY, group_ids=ids).consume())


def bump_all(graph: Graph) -> None:
    """Every group's version set anew (after a first load through the importer, which writes none)."""
    graph.query(q.BUMP_ALL)
