"""Predicate filters as clients write them: every read filter (REST, MCP, CLI) maps them here, once.

Facts are stored under the name the write path gives a predicate (``plays_for`` is stored as ``play_for``,
``works_at`` as ``employed_by``), and that name depends on the group's registry; a filter must take the same
steps or it finds nothing (issue 14).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from strata.graph.driver import Graph
from strata.graph.read import predicates
from strata.resolve.predicates import stored_predicate
from strata.schema.errors import InputError, UpstreamUnavailableError

log = logging.getLogger(__name__)
Embed = Callable[[list[str]], list[list[float]]]


def stored_predicates(graph: Graph, group_id: str, written: Sequence[str] | None,
                      embed: Embed | None = None) -> list[str] | None:
    """The stored names of the predicates a client named (None or empty: no filter); one registry read. With the
    service's embedder, a name nothing else places is compared by vector with the registry, as on ingest."""
    if not written:
        return None
    registered = [p.name for p in predicates(graph, group_id, with_counts=False)]
    out = []
    for w in written:
        try:
            out.append(stored_predicate(w, registered, embed=embed))
        except UpstreamUnavailableError as exc:  # the filter still works by name; only the vector step is lost
            log.warning("predicate filter %r without the vector step: %s", w, exc)
            out.append(stored_predicate(w, registered))
        except InputError:
            # No relation can be named so (":", "the", a sentence): a filter by it matches nothing, as a filter
            # by a predicate the group never stated does. Kept as written, which no stored name ever is.
            out.append(w)
    return list(dict.fromkeys(out))


def stored_predicate_filter(graph: Graph, group_id: str, written: str | None,
                            embed: Embed | None = None) -> str | None:
    names = stored_predicates(graph, group_id, [written] if written else None, embed)
    return names[0] if names else None
