"""Who said what to whom: the one quote listing REST, MCP and the CLI share."""

from __future__ import annotations

from strata.graph import Graph
from strata.graph.read import list_quotes
from strata.schema.models import QuotePage, QuoteQuery


def quotes_said(graph: Graph, group_id: str, *, speaker: str | None = None, addressee: str | None = None,
                episode_uuid: str | None = None, offset: int = 0, limit: int = 100) -> QuotePage:
    """Quotes of a group in reading order, filtered by speaker and addressee (uuid or name: "what did Darcy
    say to Elizabeth" is ``speaker="Darcy", addressee="Elizabeth"``)."""
    query = QuoteQuery(group_id=group_id, speaker=speaker or None, addressee=addressee or None,
                       episode_uuid=episode_uuid, offset=max(0, offset), limit=max(1, min(limit, 1000)))
    return list_quotes(graph, query)
