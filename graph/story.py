"""Story time for reads: turn "as of position p / chapter n (of book b)" into one cut every read applies.

A book's facts carry ``story_at`` (where the story states them) and ``story_until`` (where a later statement
closed them). A cut at position p is the story as read up to offset p (exclusive): a fact holds when
``story_at < p`` and no closing statement stands before p (``story_until`` is null or ``>= p``), the same rule
as ``resolve.temporal.holds_in_story``. Front-ends (REST, MCP, CLI) pass what the caller asked as a
``StoryAsk`` and get the ``StoryCut`` (or a clear error) from ``story_cut``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import story as q
from strata.schema.errors import InputError, NotFoundError
from strata.schema.story import StoryAsk, StoryCut


class BookClock(BaseModel):
    source_uuid: str
    name: str
    first_chapter: int | None = None
    last_chapter: int | None = None
    length: int = 0  # characters: story positions run from 0 to here


class GroupClock(BaseModel):
    """Where a group's clocks stand: the days a fact starts or ends on (valid time), and its books."""

    days: list[date]
    truncated: bool = False
    books: list[BookClock]


def group_clock(graph: Graph, group_id: str, limit: int = 2000) -> GroupClock:
    days = [row["day"].to_native() for row in graph.query(q.CLOCK_DAYS, group_id=group_id, limit=limit + 1)]
    books = [BookClock(source_uuid=b["uuid"], name=b["name"], first_chapter=b["first_chapter"],
                       last_chapter=b["last_chapter"], length=b["length"] or 0)
             for b in graph.query(q.CLOCK_BOOKS, group_id=group_id)]
    return GroupClock(days=days[:limit], truncated=len(days) > limit, books=books)


def story_cut(graph: Graph, group_id: str, ask: StoryAsk | None, as_of: datetime | None = None) -> StoryCut | None:
    """The cut ``ask`` names in the group, None when it names none. Errors are the caller's to fix (4xx)."""
    if ask is None or not ask.asked:
        if ask is not None and ask.source:
            raise InputError("source applies only with as_of_position or as_of_chapter", {"source": ask.source})
        return None
    if ask.as_of_position is not None and ask.as_of_chapter is not None:
        raise InputError("give as_of_position or as_of_chapter, not both",
                         {"as_of_position": ask.as_of_position, "as_of_chapter": ask.as_of_chapter})
    if as_of is not None:
        # Undated book facts all share their ingestion instant: valid time cannot be cut inside a story.
        raise InputError("as_of (valid time) and a story cut are two clocks; give one",
                         {"as_of": as_of.isoformat()})
    book = _book(graph, group_id, ask.source)
    if ask.as_of_position is not None:
        return StoryCut(source_uuid=book["uuid"], source_name=book["name"], position=ask.as_of_position)
    return StoryCut(source_uuid=book["uuid"], source_name=book["name"],
                    position=_chapter_end(graph, book, ask.as_of_chapter or 0), chapter=ask.as_of_chapter)


def story_params(cut: StoryCut | None) -> dict[str, Any]:
    """The query parameters of a cut (every query that reads facts takes them; null = no cut)."""
    return {"story_at": cut.position if cut else None, "story_source": cut.source_uuid if cut else None}


def _book(graph: Graph, group_id: str, source: str | None) -> dict[str, Any]:
    books = graph.query(q.BOOKS, group_id=group_id)
    if source is not None:
        books = [b for b in books if source in (b["uuid"], b["name"])]
        if not books:
            raise NotFoundError(f"no book {source!r} with story positions in group {group_id}",
                                {"source": source})
    if not books:
        raise NotFoundError(f"group {group_id} holds no book with story positions (books ingested before the "
                            "story clock need ingesting again)", {"group_id": group_id})
    if len(books) > 1:
        raise InputError("the group holds several books: pass source (a book's uuid or name)",
                         {"books": [{"uuid": b["uuid"], "name": b["name"]} for b in books]})
    return books[0]


def _chapter_end(graph: Graph, book: dict[str, Any], chapter: int) -> int:
    row = graph.query(q.CHAPTER_END, source_uuid=book["uuid"], chapter=chapter)[0]
    if not row["windows"]:
        span = graph.query(q.CHAPTERS, source_uuid=book["uuid"])[0]
        raise NotFoundError(f"{book['name']} has no chapter {chapter}",
                            {"chapter": chapter, "first": span["first"], "last": span["last"]})
    return int(row["end"])
