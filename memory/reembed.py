"""``strata reembed``: move a group's vectors to the configured embedder, and fill the rescoring model's cache.

A use case over one runtime: the stored side of the configured embedder (graph/reembed.py) and, with
``rescore``, the rescoring model's vectors of every passage that lacks them (graph/rescore.py), so that the
first searches of a group ingested before the stage was on do not pay for them.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from strata.graph.reembed import ReembedReport, reembed_group
from strata.graph.rescore import fill_group
from strata.ingest.embedders import embedder_record
from strata.memory.runtime import Runtime


class ReembedResult(BaseModel):
    moved: ReembedReport | None = None
    rescore_filled: int = 0


def reembed(rt: Runtime, group_id: str, vectors: bool = True, rescore: bool = False,
            progress: Callable[[str, int], None] | None = None) -> ReembedResult:
    result = ReembedResult()
    if vectors and rt.embedder is not None:
        result.moved = reembed_group(rt.graph, group_id, embedder_record(rt.embedder), rt.embedder.embed,
                                     progress=progress)
        rt.forget_checked(group_id)
    if rescore and rt.rescorer is not None:
        result.rescore_filled = fill_group(rt.graph, group_id, rt.rescorer,
                                           progress=(lambda n: progress("rescore", n)) if progress else None)
    return result
