"""One frozen request model per read use case: what REST, MCP and the CLI each take, declared once.

The front-ends derive their parameters from these fields (api/derive.py): a FastAPI query-parameter model, an
MCP tool's input schema, Typer options. A bound, a default or a description written here is the same in all
three, and a value that breaks one is refused alike (REST 422, MCP and CLI ``RequestInvalid``). Who is asked
about (the group, an entity's uuid) is the caller's address, not part of the request: REST has it in the path.

Every read takes the parts of ``TimeCut`` it can apply: ``ValidTime`` (``as_of``), ``KnownTime`` (``known_at``,
``include_history``) and ``StoryPoint`` (a book's story read up to a position or chapter).
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError

from strata.schema.errors import RequestInvalid
from strata.schema.models import IsoDatetime
from strata.schema.queries import MAX_FACT_PAGE
from strata.schema.story import StoryAsk

MIN_BUDGET, MAX_BUDGET = 50, 32_000  # a context block's size limit, in tokens
MAX_OFFSET = 1_000_000
MAX_COMMUNITIES = 100  # communities listed per call


def _split(value: Any) -> Any:
    """Repeated values and comma-separated lists alike (``kinds=fact,entity`` is ``kinds=fact&kinds=entity``)."""
    if value is None:
        return None
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list | tuple):
        return value
    out = [v.strip() for item in values for v in (item.split(",") if isinstance(item, str) else [item])
           if not isinstance(v, str) or v.strip()]
    return out or None


Names = Annotated[list[str] | None, BeforeValidator(_split)]
# A hit kind, or several comma-separated (empty parts skipped): declared so the document says what the server
# reads, a list given in one value included; split before the check, each part must be a kind.
KindList = Annotated[str, StringConstraints(pattern=r"^\s*(fact|entity|episode)?\s*(,\s*(fact|entity|episode)?\s*)*$")]
Kinds = Annotated[list[KindList] | None, BeforeValidator(_split)]


class Request(BaseModel):
    """A use case's request: frozen, unknown names ignored (as query strings always were)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)


class ValidTime(Request):
    as_of: IsoDatetime | None = Field(None, description="Valid time: what was true then (ISO 8601).",
                                      examples=["2024-01-01T00:00:00Z"])


class KnownTime(Request):
    known_at: IsoDatetime | None = Field(None, description="Transaction time: what the graph believed then "
                                                           "(ISO 8601).")
    include_history: bool = Field(False, description="Also facts that ended or were superseded.")


class StoryPoint(Request):
    as_of_position: int | None = Field(None, ge=0, description="Story time: the book as read up to this "
                                                               "character offset (exclusive). Replaces as_of.")
    as_of_chapter: int | None = Field(None, ge=0, description="Story time: the book as read to the end of this "
                                                              "chapter (its number, 1 = the first).")
    source: str | None = Field(None, max_length=300, description="The book (source uuid or file name) when the "
                                                                 "group holds several.")

    def story(self) -> StoryAsk:
        return StoryAsk(as_of_position=self.as_of_position, as_of_chapter=self.as_of_chapter, source=self.source)


class TimeCut(StoryPoint, KnownTime, ValidTime):
    """Every time a read can be cut at: valid time, transaction time (and history), a book's story."""


AGENT = Field(None, max_length=200, description="Only what this agent asserted.")
TIME_WORDS = Field(True, description="Rank higher what falls in the time the question names ('in May 2023', "
                                     "'last year'; relative to as_of or now).")


class SearchRequest(TimeCut):
    q: str = Field("", max_length=2000, description="Free text.", examples=["who is the mayor of Avalon"])
    limit: int = Field(10, ge=1, le=100)
    types: Names = Field(None, description="Entity types (repeat or comma-separate).")
    predicates: Names = Field(None, description="Fact predicates (repeat or comma-separate), as written in "
                                                "statements: normalized as on ingest.")
    kinds: Kinds = Field(None, description="Hit kinds: fact, entity, episode (repeat or comma-separate).")
    center: Names = Field(None, description="Entity uuids to expand from.")
    mmr: bool = Field(False, description="Diversify the results with maximal marginal relevance.")
    said_after: IsoDatetime | None = Field(None, description="Only passages said (facts true from) at or after.")
    said_before: IsoDatetime | None = Field(None, description="Only passages said (facts true from) before.")
    time_words: bool = TIME_WORDS
    agent: str | None = Field(None, max_length=200, description="Only what this agent asserted (its facts and "
                                                                "its episodes' passages; no entity hits).")


class ContextRequest(ValidTime):
    q: str = Field(..., min_length=1, max_length=2000, examples=["where does Maya live"])
    budget_tokens: int = Field(1000, ge=MIN_BUDGET, le=MAX_BUDGET,
                               description="The block's size limit in tokens (WordPiece count).")
    time_words: bool = Field(True, description="As in search.")
    agent: str | None = AGENT


class ResolveRequest(Request):
    name: str = Field(..., min_length=1, max_length=300, examples=["Ann Archer"])
    limit: int = Field(10, ge=1, le=50)


class FactsRequest(TimeCut):
    subject: str | None = Field(None, max_length=300, description="Entity uuid or exact name.")
    predicate: str | None = Field(None, max_length=64, examples=["holds_office"],
                                  description="As written in statements (plays_for): normalized as on ingest.")
    object: str | None = Field(None, max_length=300, description=(
        "Entity uuid or exact name; an office as written ('CEO of Walmart') is its organization's slot."))
    role: str | None = Field(None, max_length=100, examples=["CEO"],
                             description="An office's role (holds_office): CEO, prime minister, chair...")
    subject_type: str | None = Field(None, max_length=40)
    object_type: str | None = Field(None, max_length=40)
    cursor: str | None = Field(None, max_length=512,
                               description="next_cursor of the previous page (the listing's snapshot).")
    limit: int = Field(100, ge=1, le=MAX_FACT_PAGE)
    agent: str | None = AGENT


class NeighborhoodRequest(TimeCut):
    depth: int = Field(1, ge=1, le=3, description="Hops from the entity.")
    limit: int = Field(200, ge=1, le=1000)


class TimelineRequest(StoryPoint):
    include_expired: bool = Field(False, description="Also retracted facts.")


class NotesRequest(Request):
    limit: int = Field(100, ge=1, le=1000)


class PathsRequest(ValidTime):
    from_: str = Field(..., alias="from", max_length=300, description="Entity uuid or exact name.")
    to: str = Field(..., max_length=300, description="Entity uuid or exact name.")
    max_depth: int = Field(4, ge=1, le=6)
    limit: int = Field(10, ge=1, le=50)


class QuotesRequest(Request):
    speaker: str | None = Field(None, max_length=300, description="Entity uuid or name (or alias).")
    addressee: str | None = Field(None, max_length=300, description="Entity uuid or name (or alias).")
    offset: int = Field(0, ge=0, le=MAX_OFFSET)
    limit: int = Field(100, ge=1, le=1000)


class NetworkRequest(StoryPoint):
    entity: str | None = Field(None, max_length=64, description="Entity uuid: only its interactions.")
    limit: int = Field(20, ge=1, le=500)


class ClockRequest(Request):
    limit: int = Field(2000, ge=1, le=10000)


class RetentionRequest(Request):
    size: bool = Field(False, description="Also measure what the group holds, visible and hidden (reads the whole "
                                          "group).")


class CommunitiesRequest(Request):
    q: str = Field("", max_length=2000, description="Full text over titles and summaries.")
    entity: str | None = Field(None, max_length=64, description="Only the community of this entity.")
    limit: int = Field(20, ge=1, le=MAX_COMMUNITIES)
    members: int = Field(10, ge=0, le=200, description="Members listed per community, most connected first.")


class MergesRequest(Request):
    limit: int = Field(200, ge=1, le=1000)


class SuggestionsRequest(Request):
    entity: str | None = Field(None, max_length=64, description="Only suggestions naming this entity.")
    offset: int = Field(0, ge=0, le=MAX_OFFSET)
    limit: int = Field(100, ge=1, le=1000)


R = TypeVar("R", bound=BaseModel)


def parse(model: type[R], values: dict[str, Any]) -> R:
    """``values`` as ``model`` takes them, or ``RequestInvalid`` listing each problem as REST's 422 does."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        problems = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                     "type": str(e.get("type", ""))} for e in exc.errors()]
        said = "; ".join(f"{'.'.join(p['loc']) or 'request'}: {p['msg']}" for p in problems)
        raise RequestInvalid(f"the request does not match the API schema ({said})", {"errors": problems}) from None
