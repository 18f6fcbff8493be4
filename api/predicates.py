"""Predicate filters as clients write them: every read filter (REST, MCP, CLI) maps them here, once.

Facts are stored under the name the write path gives a predicate (``plays_for`` is stored as ``play_for``,
``works_at`` as ``employed_by``), and that name depends on the group's registry; a filter must take the same
steps or it finds nothing (issue 14).
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.graph.driver import Graph
from strata.graph.read import predicates
from strata.resolve.predicates import stored_predicate


def stored_predicates(graph: Graph, group_id: str, written: Sequence[str] | None) -> list[str] | None:
    """The stored names of the predicates a client named (None or empty: no filter); one registry read."""
    if not written:
        return None
    registered = [p.name for p in predicates(graph, group_id, with_counts=False)]
    return list(dict.fromkeys(stored_predicate(w, registered) for w in written))


def stored_predicate_filter(graph: Graph, group_id: str, written: str | None) -> str | None:
    names = stored_predicates(graph, group_id, [written] if written else None)
    return names[0] if names else None
