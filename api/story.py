"""The story-cut query parameters every read endpoint shares (graph/story.py resolves them)."""

from __future__ import annotations

from fastapi import Query

from strata.api.memory import StoryAsk


def story_ask(
    as_of_position: int | None = Query(None, ge=0, description="Story time: the book as read up to this character "
                                                                 "offset (exclusive). Replaces as_of."),
    as_of_chapter: int | None = Query(None, ge=0, description="Story time: the book as read to the end of this "
                                                                "chapter (its number, 1 = the first)."),
    source: str | None = Query(None, max_length=300, description="The book (source uuid or file name) when the "
                                                                 "group holds several."),
) -> StoryAsk:
    return StoryAsk(as_of_position=as_of_position, as_of_chapter=as_of_chapter, source=source)
