"""What a read asks of a book's story time (``StoryAsk``) and what graph/story.py resolves it to (``StoryCut``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class StoryAsk(BaseModel):
    """What a caller asked: a position or a chapter, and which book when the group holds several."""

    model_config = ConfigDict(frozen=True)

    as_of_position: int | None = Field(default=None, ge=0)
    as_of_chapter: int | None = Field(default=None, ge=0)
    source: str | None = None  # a book's source uuid or file name

    @property
    def asked(self) -> bool:
        return self.as_of_position is not None or self.as_of_chapter is not None


class StoryCut(BaseModel):
    """A resolved story cut: the story of ``source_uuid`` as read up to ``position`` (exclusive)."""

    model_config = ConfigDict(frozen=True)

    source_uuid: str
    source_name: str | None = None
    position: int = Field(ge=0)
    chapter: int | None = None
