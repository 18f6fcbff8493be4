"""The use cases and where each front-end shows them: the REST route, the MCP tool, the CLI command.

Each row names the request model its parameters come from (schema/requests.py, schema/requests_write.py for
the writes, whose rows are in api/usecases_write.py) and the answer model; the MCP tools are registered from
these rows (api/mcp_reads.py, api/mcp_writes.py), the CLI commands and REST routes take the same model, and
tests/e2e/test_parity_fields.py checks that every field reaches all three, save the declared ``exceptions``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from strata.schema.requests import (
    ClockRequest,
    CommunitiesRequest,
    ContextRequest,
    FactsRequest,
    MergesRequest,
    NeighborhoodRequest,
    NetworkRequest,
    NotesRequest,
    PathsRequest,
    QuotesRequest,
    ResolveRequest,
    RetentionRequest,
    SearchRequest,
    SuggestionsRequest,
    TimelineRequest,
)

NO_MCP = "mcp:*"  # the exception a row declares when it has no MCP tool on purpose


@dataclass(frozen=True)
class UseCase:
    name: str
    request: type[BaseModel]  # a Request of schema/requests*.py (or a schema model a write takes whole)
    answer: str  # the answer model, by its name in strata.memory ("list[X]": a list of them)
    rest: str  # "METHOD /path" as the OpenAPI document names it
    mcp: str
    cli: str  # the command, with its group ("suggestions list")
    # what the caller addresses: a group, or an entity by uuid (writes: also a fact, an episode, a source, a
    # merge record, a pair of entities; api/usecases_write.py)
    on: Literal["group", "entity", "fact", "episode", "source", "record", "pair"]
    run: str  # the Memory method: (group, [uuid,] request) -> answer; by name, so the CLI starts light
    doc: str  # the MCP tool's description
    mcp_legacy: dict[str, str] = field(default_factory=dict)  # older MCP argument names -> fields
    cli_arguments: tuple[str, ...] = ()  # fields the CLI takes as positional arguments, in order
    cli_flags: dict[str, tuple[str, ...]] = field(default_factory=dict)  # older CLI flags, kept as aliases
    cli_skip: dict[str, str] = field(default_factory=dict)  # fields the CLI does not take, and why
    # a parameter one front-end has and the others cannot ("rest:file", "cli:wait"), and why; ``"mcp:*"``: no
    # MCP tool at all (``mcp`` is then empty), and why; the parity test (tests/e2e/test_parity_fields.py) and
    # bench/floor_metrics.py pass only these
    exceptions: dict[str, str] = field(default_factory=dict)
    mcp_request: type[BaseModel] | None = None  # the MCP tool's model when it carries more (a file's text)

    @property
    def has_mcp(self) -> bool:
        return NO_MCP not in self.exceptions



READS: tuple[UseCase, ...] = (
    UseCase("search", SearchRequest, "SearchResult", "GET /v1/groups/{group}/search", "search", "search", "group",
            "search",
            "Hybrid search over facts, entities and episode passages, with provenance. ``as_of`` (valid time) and "
            "``known_at`` (what the graph believed then); ``as_of_chapter`` or ``as_of_position`` read a book's "
            "story up to that point instead of ``as_of`` (``source``: which book).",
            mcp_legacy={"query": "q"}, cli_arguments=("q",)),
    UseCase("context", ContextRequest, "ContextBlock", "GET /v1/groups/{group}/context", "get_context", "context",
            "group", "context",
            "One ready-to-paste memory block about the query within budget_tokens (facts with when they were "
            "true, quotes with speaker and date), and the hits behind it.",
            mcp_legacy={"query": "q"}, cli_arguments=("q",), cli_flags={"budget_tokens": ("--budget",)}),
    UseCase("resolve", ResolveRequest, "Resolution", "GET /v1/groups/{group}/entities", "resolve_entity", "entity",
            "group", "resolve",
            "Which entities a name may mean: exact key, full-text and name-vector matches, best first.",
            cli_arguments=("name",)),
    UseCase("facts", FactsRequest, "FactPage", "GET /v1/groups/{group}/facts", "list_facts", "facts", "group",
            "facts",
            "A complete, paginated listing of facts (``count``, ``items``, ``next_cursor``). ``subject`` and "
            "``object``: an entity uuid or exact name (an office as written, \"CEO of Walmart\", is its "
            "organization's slot; ``role`` names an office's role: \"CEO\", \"prime minister\"); ``predicate`` as "
            "a statement writes it (\"plays_for\", \"works at\"), normalized as on ingest; ``as_of`` valid time, "
            "``known_at`` transaction time; ``agent``: only what that agent asserted. ``as_of_chapter`` or "
            "``as_of_position`` read a book's story up to that point instead of ``as_of`` (``source``: which "
            "book).",
            cli_flags={"include_history": ("--history",)}),
    UseCase("neighborhood", NeighborhoodRequest, "Neighborhood", "GET /v1/entities/{uuid}/neighborhood",
            "neighborhood", "neighborhood", "entity", "neighborhood",
            "Entities and facts within ``depth`` (1-3) hops of an entity, over the facts true at ``as_of`` (or at "
            "a point of a book's story). A merged-away uuid answers for the entity it was merged into."),
    UseCase("timeline", TimelineRequest, "Timeline", "GET /v1/entities/{uuid}/timeline", "entity_timeline",
            "timeline", "entity", "timeline",
            "The entity and every fact about it in valid-time order (a book's facts in story order), with "
            "invalidations; with ``as_of_chapter``/``as_of_position``, what the story stated before that point. A "
            "merged-away uuid answers for the entity it was merged into."),
    UseCase("notes", NotesRequest, "Notes", "GET /v1/entities/{uuid}/notes", "entity_notes", "notes", "entity",
            "notes",
            "The memory notes about an entity (its statements rewritten to stand alone), latest said first."),
    UseCase("paths", PathsRequest, "PathsResult", "GET /v1/groups/{group}/paths", "paths", "paths", "group",
            "paths",
            "Shortest paths between two entities (uuid or exact name) over the facts true at ``as_of``.",
            mcp_legacy={"source_entity": "from", "target_entity": "to"}, cli_arguments=("from_", "to")),
    UseCase("quotes", QuotesRequest, "QuotePage", "GET /v1/groups/{group}/quotes", "list_quotes", "quotes", "group",
            "quotes",
            "What characters said to whom (``count``, ``items``, ``next_offset``); speaker and addressee by uuid "
            "or name (\"what did Darcy say to Elizabeth\": speaker=\"Darcy\", addressee=\"Elizabeth\").",
            cli_flags={"addressee": ("--to",)}),
    UseCase("network", NetworkRequest, "Network", "GET /v1/groups/{group}/network", "network", "network", "group",
            "network",
            "Who appears with whom and who speaks to whom (scenes, quotes either way, first and last place seen), "
            "strongest first; ``as_of_chapter``/``as_of_position`` read one book's network up to there."),
    UseCase("clock", ClockRequest, "GroupClock", "GET /v1/groups/{group}/clock", "group_clock", "clock", "group",
            "clock",
            "The group's clocks: the days on which a current fact starts or ends (valid time, earliest first) and "
            "each book's chapters and length (story time)."),
    UseCase("communities", CommunitiesRequest, "CommunityList", "GET /v1/groups/{group}/communities", "communities",
            "communities list", "group", "communities",
            "Groups of closely related entities, each with a title (its top members), a summary and its members; "
            "``q`` searches titles and summaries, ``entity`` (a uuid) gives the community it belongs to.",
            mcp_legacy={"query": "q"}),
    UseCase("merges", MergesRequest, "list[MergeRecord]", "GET /v1/entities/{uuid}/merges", "list_merges", "merges",
            "entity", "merges",
            "Why each name joined this entity (rule, score, forms, who and when); each record can be undone."),
    UseCase("suggestions", SuggestionsRequest, "list[Suggestion]", "GET /v1/groups/{group}/suggestions",
            "list_suggestions", "suggestions list", "group", "suggestions",
            "Pairs of entities that may be the same (not merged automatically), strongest first; review each "
            "with review_suggestion."),
    UseCase("retention", RetentionRequest, "RetentionStatus", "GET /v1/groups/{group}/retention", "get_retention",
            "retention show", "group", "retention_status",
            "The group's retention policy (null fields: kept forever) and when it last ran; ``size``: also the "
            "bytes the group holds, visible and hidden, in what retention can hide (reads the whole group)."),
)

BY_NAME = {case.name: case for case in READS}
