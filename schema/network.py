"""The character network: who appears with whom and who speaks to whom, with counts and first/last positions.

Interactions are derived data: every figure is recomputed from the evidence (an episode's mentions, its
quotes), never incremented, so re-ingesting or retracting an episode cannot make them drift.
"""

from __future__ import annotations

from pydantic import Field, computed_field

from strata.schema.models import Frozen

# Entity types that take part in a story's network: people and animal characters, not places or things.
CHARACTER_TYPES: tuple[str, ...] = ("Person", "Animal")


class StoryPoint(Frozen):
    """Where in the sources an interaction was seen: an episode, its chapter and its position (offset)."""

    episode_uuid: str
    chapter: str | None = None
    position: int = Field(ge=0)


class Interaction(Frozen):
    """One pair of characters (a before b by uuid): scenes together and quotes either way."""

    a_uuid: str
    a_name: str
    b_uuid: str
    b_name: str
    scenes: int = Field(ge=0, description="Episodes (book windows, chat sessions) that mention both.")
    a_to_b: int = Field(default=0, ge=0, description="Quotes a addressed to b.")
    b_to_a: int = Field(default=0, ge=0, description="Quotes b addressed to a.")
    first: StoryPoint | None = None
    last: StoryPoint | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def quotes(self) -> int:
        return self.a_to_b + self.b_to_a

    @computed_field  # type: ignore[prop-decorator]
    @property
    def weight(self) -> int:
        # A quote addressed to someone is direct evidence of a relation; a shared scene is weaker.
        return self.scenes + 2 * self.quotes


class Network(Frozen):
    group_id: str
    as_of_position: int | None = None
    as_of_chapter: int | None = None
    source_uuid: str | None = None
    interactions: list[Interaction] = Field(default_factory=list)
