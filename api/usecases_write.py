"""The write use cases and where each front-end shows them (the rows of api/usecases.py, for writes).

A write's parameters come from its request model (schema/requests_write.py); what it is written to (a group,
an entity, a fact...) is its address: REST's path, MCP's leading arguments, the CLI's arguments and
``--group``. A parameter only one front-end can take (a file upload, the CLI's ``--wait``) is declared in
``exceptions`` with the reason; the parity test passes nothing else.
"""

from __future__ import annotations

from strata.api.usecases import NO_MCP, UseCase
from strata.schema.requests_write import (
    AcceptRequest,
    ApplyRetentionRequest,
    BatchIn,
    ConsolidateRequest,
    Correction,
    EpisodeIn,
    MergeRequest,
    PurgeGroupRequest,
    PurgeRetentionRequest,
    RefreshCommunitiesRequest,
    RefreshSummariesRequest,
    RejectRequest,
    RetractRequest,
    ReviewRequest,
    SourceRequest,
    SourceText,
    UndoRequest,
)
from strata.schema.retention import RetentionPolicy

# The MCP address arguments of each kind of write (``on``), with their descriptions.
MCP_ADDRESS: dict[str, dict[str, str]] = {
    "group": {"group": "Group id."},
    "entity": {"uuid": "Entity uuid."},
    "fact": {"uuid": "Fact uuid."},
    "episode": {"uuid": "Episode uuid."},
    "source": {"uuid": "Source uuid."},
    "record": {"uuid": "The surviving entity's uuid.", "record": "The merge record's uuid."},
    "pair": {"entity": "One entity of the suggestion.", "candidate": "The other entity."},
}
# The CLI's address parameters of each kind (besides --group).
CLI_ADDRESS: dict[str, set[str]] = {"group": set(), "entity": {"entity"}, "fact": {"uuid"}, "episode": {"uuid"},
                                    "source": {"uuid"}, "record": {"entity", "record"},
                                    "pair": {"entity", "candidate"}}

KIND = "one CLI command retracts either: its KIND argument says episode or source (REST and MCP: two routes)"
ONE_TOOL = "one MCP tool takes both decisions (review_suggestion); the other decision's field"
# Why a maintenance use case has no MCP tool: an agent's tools read and add memory; these rewrite or delete a
# whole group, or run for minutes, and stay with an operator (REST with a `w` key, the CLI).
MAINTENANCE = "a maintenance run over a whole group: an operator's (REST, CLI), not an agent's tool"
DESTRUCTIVE = "deletes a whole group's data for good: an operator's (REST, CLI), not an agent's tool"
SOURCE_FILE = {
    "rest:file": "REST uploads the file (multipart)",
    "mcp:text": "an MCP client sends the file's text (it cannot upload)",
    "cli:path": "the CLI reads a file, or a folder of files in one format",
    "cli:wait": "the CLI's own display: progress until the job ends",
    "cli:inline": "the CLI's own way to run: in its process, without a broker",
    "cli:estimate": "the CLI's own dry run: counts before anything is submitted",
}

WRITES: tuple[UseCase, ...] = (
    UseCase("add_episode", EpisodeIn, "EpisodeAccepted", "POST /v1/groups/{group}/episodes", "add_episode",
            "episodes add", "group", "add_episode",
            "Add one episode to a group: ``content`` (text), or chat ``messages``, or structured ``facts``; returns "
            "its uuid and job. ``agent``: who asserts it (default: the key's name); two agents saying the same "
            "thing are both recorded. Posting a retracted episode again processes it again (un-retract)."),
    UseCase("add_episodes", BatchIn, "BatchAccepted", "POST /v1/groups/{group}/episodes:batch", "add_episodes",
            "episodes add-batch", "group", "add_episodes",
            "Add several episodes as one job (processed in order), each as add_episode takes it (``content``, or "
            "chat ``messages``, or structured ``facts``)."),
    UseCase("add_source", SourceRequest, "JobInfo", "POST /v1/groups/{group}/sources", "add_source", "ingest",
            "group", "add_source",
            "Ingest a whole file's text (a book, a chat log, a transcript, facts) as one job, segmented into "
            "episodes as an upload to POST /groups/{group}/sources is; ``format``: book, chat-jsonl, transcript, "
            "sessions-json or facts-jsonl. The same text again answers the first job (``duplicate_of``).",
            mcp_request=SourceText, exceptions=SOURCE_FILE),
    UseCase("correct", Correction, "CorrectionResult", "POST /v1/facts/{uuid}:correct", "correct_fact", "correct",
            "fact", "correct",
            "Correct a fact: text (``fact``) or end (``invalid_at``) in place; a new predicate, object or start "
            "makes a new version and keeps the old one as history.",
            cli_flags={"fact": ("--text",), "object_uuid": ("--object",)}),
    UseCase("retract_episode", RetractRequest, "Removal", "DELETE /v1/episodes/{uuid}", "retract_episode",
            "retract", "episode", "retract",
            "Retract an episode; facts it alone supported expire and facts it had closed reopen. ``purge``: also "
            "delete it and everything derived only from it (data removal).",
            exceptions={"cli:kind": KIND}),
    UseCase("retract_source", RetractRequest, "Removal", "DELETE /v1/sources/{uuid}", "retract_source", "retract",
            "source", "retract",
            "Retract every episode of a source (a book, a chat log) with the same restore rules; ``purge``: also "
            "delete the source, its episodes and job, and everything derived only from them.",
            exceptions={"cli:kind": KIND}),
    UseCase("merge", MergeRequest, "MergeResult", "POST /v1/entities/{uuid}:merge", "merge_entities", "merge",
            "entity", "merge",
            "Merge entity ``uuid`` into ``into`` (the same person or thing under two names): facts, mentions and "
            "aliases move, ``uuid`` redirects to ``into`` from then on; undo it with undo_merge."),
    UseCase("unmerge", UndoRequest, "UndoResult", "POST /v1/entities/{uuid}/merges/{record}/undo", "undo_merge",
            "unmerge", "record", "unmerge",
            "Take back a merge into entity ``uuid``, named by its merge record (merge_entities returns it)."),
    UseCase("accept_suggestion", AcceptRequest, "MergeResult",
            "POST /v1/entities/{uuid}/suggestions/{candidate}:accept", "review_suggestion", "suggestions accept",
            "pair", "accept_suggestion",
            "``decision`` \"accept\" merges the pair (into ``into``, default the candidate; undoable) or \"reject\" "
            "marks them different for good (never suggested again; ``reason``).",
            mcp_request=ReviewRequest, exceptions={"mcp:decision": ONE_TOOL, "mcp:reason": ONE_TOOL}),
    UseCase("reject_suggestion", RejectRequest, "Rejection",
            "POST /v1/entities/{uuid}/suggestions/{candidate}:reject", "review_suggestion", "suggestions reject",
            "pair", "reject_suggestion", "(review_suggestion, registered by accept_suggestion's row)",
            mcp_request=ReviewRequest, exceptions={"mcp:decision": ONE_TOOL, "mcp:into": ONE_TOOL}),
    UseCase("set_retention", RetentionPolicy, "StoredPolicy", "PUT /v1/groups/{group}/retention", "set_retention",
            "retention set", "group", "set_retention",
            "Replace the group's retention policy (a field left out keeps that kind of memory forever); it runs on "
            "the schedule or with apply_retention."),
    UseCase("apply_retention", ApplyRetentionRequest, "RetentionRun", "POST /v1/groups/{group}/retention:apply",
            "apply_retention", "retention apply", "group", "apply_retention",
            "Run the group's retention policy now (``dry_run``: only count what it would hide and restore)."),
    UseCase("purge_retention", PurgeRetentionRequest, "RetentionPurge", "POST /v1/groups/{group}/retention:purge",
            "", "retention purge", "group", "purge_retention",
            "Remove for good what retention hid in the group (``confirm`` must be true): no longer restorable.",
            cli_flags={"confirm": ("--yes",)}, exceptions={NO_MCP: DESTRUCTIVE}),
    UseCase("purge_group", PurgeGroupRequest, "PurgeRecord", "DELETE /v1/groups/{group}", "", "purge group",
            "group", "purge_group",
            "Purge a whole group: every node and relationship of it goes; the audit record stays.",
            cli_flags={"purge": ("--yes",)}, exceptions={NO_MCP: DESTRUCTIVE}),
    UseCase("consolidate", ConsolidateRequest, "list[ConsolidationResult]", "POST /v1/groups/{group}/consolidate",
            "", "consolidate", "group", "consolidate",
            "Run the cast consolidation pass over the group's books: merges with a record each, and suggestions.",
            exceptions={NO_MCP: MAINTENANCE,
                        "cli:undo": "the CLI's own: takes the whole pass back; REST undoes each merge by its record "
                                    "(POST /v1/entities/{uuid}/merges/{record}/undo, MCP undo_merge)"}),
    UseCase("refresh_summaries", RefreshSummariesRequest, "SummaryRefresh", "POST /v1/groups/{group}/summaries:refresh",
            "", "summaries refresh", "group", "refresh_summaries",
            "Summarise every entity of the group again, a batch at a time; a run past ``budget_s`` answers "
            "``next_cursor`` to go on from with ``after`` (the CLI goes on by itself until the group is done).",
            exceptions={NO_MCP: MAINTENANCE}),
    UseCase("refresh_communities", RefreshCommunitiesRequest, "CommunityRun",
            "POST /v1/groups/{group}/communities:refresh", "", "communities refresh", "group", "refresh_communities",
            "Recompute the group's communities and their summaries; a run past its budget stops without writing.",
            cli_flags={"budget_s": ("--budget",)}, exceptions={NO_MCP: MAINTENANCE}),
)

WRITE_BY_NAME = {case.name: case for case in WRITES}
