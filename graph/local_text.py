"""A small group's full-text channels, scored in process over the group's own documents (graph/bm25.py).

The channel query (graph/queries/search.py) asks no index for a small group: it returns the group's text
version (graph/text_version.py: a token every writer of the group's texts sets anew in its transaction) and
statistics per field (how many documents hold it, their total length), which together say whether the table of
the group's documents kept here is current. A table is built (one query: every document of the kind with its
texts) the first time and whenever either changes, i.e. after a write to the group's texts (the statistics
alone miss a text replaced by another of the same length). The documents
holding any of the question's terms are ranked by BM25 there, then read in that order, filtered until the
channel's limit pass (``OWN_TEXT_HITS``: one query for every such channel of the search).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from strata.graph import bm25
from strata.graph.driver import Graph
from strata.graph.queries import search as q

# Tables kept, one per group and kind seen small (a 663-passage conversation: about 2 MB); the least recently used
# go first.
MAX_TABLES = 128

_tables: OrderedDict[tuple[str, str, str], tuple[dict[str, Any], bm25.Table]] = OrderedDict()
_lock = threading.Lock()


def _table(graph: Graph, group_id: str, kind: str, state: dict[str, Any]) -> bm25.Table:
    """The kept table while ``state`` (the channel's text version and statistics) is the one it was built at."""
    key = (graph.database, group_id, kind)
    with _lock:
        kept = _tables.get(key)
        if kept is not None and kept[0] == state:
            _tables.move_to_end(key)
            return kept[1]
    rows = graph.fetch(q.OWN_TEXTS[kind], group_id=group_id)
    table = bm25.Table(kind, [(r["uuid"], r["texts"]) for r in rows])
    with _lock:
        _tables[key] = (state, table)
        _tables.move_to_end(key)
        while len(_tables) > MAX_TABLES:
            _tables.popitem(last=False)
    return table


def answer(graph: Graph, args: dict[str, Any], rows: dict[str, dict[str, Any]], expand: bool = False) -> None:
    """Fill the hits of the small group's full-text rows (``exact``, with ``detail``) in place; with ``expand``
    and a small entity full-text channel, the expansion from the best entities comes too (``fact_expansion``)."""
    small = {name.split("_")[0]: row for name, row in rows.items()
             if name.endswith("_fulltext") and row["exact"] and row.get("detail")}
    if not small:
        return
    ordered: dict[str, Any] = {}
    for kind, row in small.items():
        found = bm25.ranked(_table(graph, args["group_id"], kind, row["detail"]), args.get("question", ""))
        ordered[f"{kind}_ordered"] = [uuid for uuid, _ in found]
        ordered[f"{kind}_scores"] = [score for _, score in found]
    expand = expand and "entity" in small
    others = [{"channel": name, "hits": [{"uuid": h["uuid"]} for h in row["hits"]]}
              for name, row in rows.items() if name.startswith("entity_") and name != "entity_fulltext"]
    for row in graph.fetch(q.own_text_hits(tuple(small), expand), **{**args, **ordered, "entity_found": others}):
        if row["channel"] == "fact_expansion":
            rows["fact_expansion"] = {"channel": "fact_expansion", "raw": 0, "exact": True, "hits": row["hits"],
                                      "detail": row["detail"]}
        else:
            rows[row["channel"]]["hits"] = sorted(row["hits"], key=lambda h: (-h["score"], h["uuid"]))
