"""Which way a group's index lookups go: an exact scan of its own items (vectors) or a query for its own matches
(full text), or the indexes all groups share as they are.

Each lookup query decides for itself (graph/queries/search.py ``SCANNING_CHANNELS``, graph/queries/read.py
``ENTITY_VECTOR_SCANNING``): it looks at the group's own items of that kind through a group index, at most
``vector_scan_max`` + 1 of them, and scans them when there are no more than ``vector_scan_max``. That look is
always right, and cheap for a small group; for a large one it is a fixed cost (0.8-0.9 ms a search at the
default, three channels, on a 100k-fact group) on top of the index query it used to run alone. So a group a
query found larger than the threshold is remembered here, per process, for ``LARGE_TTL_S``: its next lookups run
the index query alone, exactly as before per-group scans. A group only shrinks by deletion (purge); until its
verdict expires it keeps the index and its deeper second ask.
"""

from __future__ import annotations

import threading
import time

from strata.graph.driver import Graph

LARGE_TTL_S = 300.0
# Verdicts kept at most (one per group and kind seen large); the oldest go first.
MAX_VERDICTS = 100_000

_large: dict[tuple[str, str, str, int], float] = {}
_lock = threading.Lock()


def _key(graph: Graph, group_id: str, kind: str) -> tuple[str, str, str, int]:
    return graph.database, group_id, kind, graph.vector_scan_max


def scans(graph: Graph, group_id: str, kind: str) -> bool:
    """Whether a lookup of this kind ("fact", "entity", "passage") should look at the group's own items first:
    scanning is on and the group was not found larger than the threshold lately."""
    if graph.vector_scan_max <= 0:
        return False
    until = _large.get(_key(graph, group_id, kind))
    return until is None or until < time.monotonic()


def found_large(graph: Graph, group_id: str, kind: str) -> None:
    """A lookup found the group above the threshold for this kind: skip the look for a while."""
    with _lock:
        if len(_large) >= MAX_VERDICTS:
            for key in sorted(_large, key=_large.__getitem__)[: MAX_VERDICTS // 10]:
                del _large[key]
        _large[_key(graph, group_id, kind)] = time.monotonic() + LARGE_TTL_S
