"""``Memory``: every use case once. REST routers, MCP tools and CLI commands parse their input, check the
caller's rights, call one method here and render what it returns; none of them reads or writes the graph.

Methods take the group the caller may use (access is the edge's: keys for REST and MCP, none for the CLI) and
parameter objects (``FactQuery``, ``SearchQuery``, ``StoryAsk``) as the client wrote them; here names become
uuids, written predicates the stored ones, story asks story cuts, and every write that moves facts recomputes
the slot timelines it touched.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from strata.graph import retention as retention_store
from strata.graph.bloom import browse_schema
from strata.graph.communities import list_communities
from strata.graph.edit import Correction, CorrectionResult, ManualMerge, MergeResult, correct_fact, merge_entities
from strata.graph.keys import ApiKey, CreatedKey, create_key, list_keys, revoke_key, verify_token
from strata.graph.migrate import MigrationReport, apply_migrations, pending_migrations
from strata.graph.network import interaction_network
from strata.graph.purge import PurgeRecord, purge_episode, purge_group, purge_source
from strata.graph.read import (
    AgentActivity,
    FactPage,
    MergeRecord,
    agents,
    entity_notes,
    entity_timeline,
    follow_merges,
    get_entity,
    group_counts,
    list_facts,
    merge_records,
    predicates,
)
from strata.graph.retention import ContentSize
from strata.graph.retract import retract_episode, retract_source
from strata.graph.search import EmbedFn, fact_with_provenance
from strata.graph.story import GroupClock, group_clock, story_cut
from strata.graph.suggestions import Rejection, Suggestion, accept_suggestion, pending_suggestions, reject_suggestion
from strata.graph.traverse import Neighborhood, ReadCut, entity_types, group_of, neighborhood, shortest_paths
from strata.graph.undo import UndoResult, undo_pass, undo_record
from strata.graph.upgrade import upgrade_offices
from strata.ingest.consolidate import ConsolidationResult, consolidate_group
from strata.ingest.retention import apply_group
from strata.ingest.rules import office_rules, purge_rules, split_rules
from strata.ingest.sources import SourceDocument, SourceOptions, parse_source_bytes
from strata.ingest.submit import episode_info, job_info, retry_failed, submit_document, submit_episodes
from strata.memory.answers import office_filter
from strata.memory.episodes import EpisodeIn, to_episode
from strata.memory.names import NO_ENTITY, UUID, Resolution, entity_ref, resolve_name
from strata.memory.predicates import stored_predicate_filter, stored_predicates
from strata.memory.quotes import quotes_said
from strata.memory.recall import Asking, ContextBlock, context_block, recall_search
from strata.memory.results import (
    BatchAccepted,
    CommunityList,
    EpisodeAccepted,
    GroupCounts,
    GroupSchema,
    Notes,
    PathsResult,
    Removal,
    RetentionStatus,
    Timeline,
)
from strata.memory.runtime import Runtime
from strata.resolve.timeline import recompute_timeline
from strata.schema.bloom import Perspective, build_perspective
from strata.schema.errors import InputError, NotFoundError, SizeLimitError
from strata.schema.jobs import JobInfo
from strata.schema.models import Entity, Fact, QuotePage, utcnow
from strata.schema.network import Network
from strata.schema.queries import FactQuery
from strata.schema.requests import (
    MAX_OFFSET,
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
from strata.schema.requests_write import ConsolidateRequest, RefreshCommunitiesRequest, RefreshSummariesRequest
from strata.schema.retention import RetentionPolicy, RetentionPurge, RetentionRun, StoredPolicy
from strata.schema.search import SearchHit, SearchQuery, SearchResult
from strata.schema.story import StoryAsk, StoryCut
from strata.schema.summaries import CommunityRun, SummaryRefresh

# A verified key is trusted this long before the graph is asked again (revocation takes effect within it).
KEY_CACHE_SECONDS = 10.0


class Memory:
    """The application service over one runtime (driver, embedder, queue or inline pipeline)."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self.graph = runtime.graph
        self.settings = runtime.settings
        self._keys: dict[str, tuple[float, ApiKey]] = {}
        # The temporal rules every write that moves facts recomputes slot timelines with, chosen here once.
        self.slot_rules = recompute_timeline

    @property
    def embed(self) -> EmbedFn | None:
        return self.rt.embed if self.rt.embedder else None

    @property
    def _asking(self) -> Asking:
        """How a search embeds its question and rescores its best candidates (memory/runtime.py)."""
        return Asking(embed=self.rt.embed_query if self.rt.embedder else None, rescorer=self.rt.rescorer)

    # -- access ----------------------------------------------------------------------------------------------

    def verify_key(self, token: str) -> ApiKey | None:
        now = time.monotonic()
        cached = self._keys.get(token)
        if cached and cached[0] > now:
            return cached[1]
        key = verify_token(self.graph, token)
        if key is not None:
            if len(self._keys) > 10_000:
                self._keys.clear()
            self._keys[token] = (now + KEY_CACHE_SECONDS, key)
        return key

    def graph_ready(self) -> tuple[bool, list[str]]:
        """Whether Neo4j answers, and the migrations it still lacks."""
        if not self.graph.ping():
            return False, []
        return True, pending_migrations(self.graph)

    def apply_schema(self) -> MigrationReport:
        report = apply_migrations(self.graph, self.settings.embedding_dim)
        upgrade_offices(self.graph, office_rules())  # what migration 0022 marked; nothing when nothing is
        return report

    def create_key(self, groups: list[str], rights: str, name: str | None = None) -> CreatedKey:
        return create_key(self.graph, groups, rights, name)

    def revoke_key(self, key_id: str) -> None:
        revoke_key(self.graph, key_id)

    def keys(self) -> list[ApiKey]:
        return list_keys(self.graph)

    def group_of(self, kind: str, uuid: str) -> str | None:
        return group_of(self.graph, kind, uuid)

    def story(self, group: str, ask: StoryAsk | None, as_of: datetime | None = None) -> StoryCut | None:
        return story_cut(self.graph, group, ask, as_of)

    # -- writes ----------------------------------------------------------------------------------------------

    def add_episodes(self, group: str, bodies: list[EpisodeIn], agent: str | None) -> BatchAccepted:
        episodes = [to_episode(group, b, self.settings.max_episode_chars, agent=agent) for b in bodies]
        job = submit_episodes(self.graph, self.rt.celery, group, episodes, agent=agent,
                              inline_pipeline=self.rt.pipeline)
        return BatchAccepted(job_id=job.uuid, episode_uuids=[e.uuid for e in episodes], job=job)

    def add_episode(self, group: str, body: EpisodeIn, agent: str | None) -> EpisodeAccepted:
        done = self.add_episodes(group, [body], agent)
        return EpisodeAccepted(episode_uuid=done.episode_uuids[0], job_id=done.job_id, status=done.job.status)

    def add_source(self, group: str, data: bytes, fmt: str, name: str, agent: str | None) -> JobInfo:
        """A whole file (book, chat log, transcript, facts) segmented into episodes and stored as one job; the
        same file again to the same group answers the first job (``duplicate_of``)."""
        limit = self.settings.max_request_bytes
        if len(data) > limit:
            raise SizeLimitError(f"file exceeds {limit} bytes")
        return self.add_document(self.parse_source(group, data, fmt, name, agent), agent)

    def parse_source(self, group: str, data: bytes, fmt: str, name: str, agent: str | None) -> SourceDocument:
        if len(data) == 0:
            raise InputError("the uploaded file is empty")
        cfg = self.settings
        options = SourceOptions(book_window_tokens=cfg.book_window_tokens,
                                chat_window_messages=cfg.chat_window_messages, max_episode_chars=cfg.max_episode_chars)
        doc = parse_source_bytes(data, fmt, name=name, group_id=group, agent=agent, options=options)
        if not doc.episodes:
            raise InputError("the file holds no episodes", {"warnings": doc.warnings[:20]})
        return doc

    def add_document(self, doc: SourceDocument, agent: str | None) -> JobInfo:
        """Store a parsed source and its episodes as one job (the same file again answers the first job)."""
        return submit_document(self.graph, self.rt.celery, doc, agent=agent, inline_pipeline=self.rt.pipeline)

    def job(self, uuid: str) -> JobInfo:
        return job_info(self.graph, uuid)

    def episode(self, uuid: str) -> dict[str, Any]:
        return episode_info(self.graph, uuid)

    def retry_failed(self, group: str | None = None, job: str | None = None) -> list[str]:
        return retry_failed(self.graph, self.rt.celery, group_id=group, job_uuid=job, inline_pipeline=self.rt.pipeline)

    def retract(self, group: str, kind: str, uuid: str, *, purge: bool = False, key_id: str | None = None) -> Removal:
        """Retract an episode or a source (facts only it supported expire, facts it had closed reopen); with
        ``purge`` also delete it with everything derived only from it."""
        if kind not in ("episode", "source"):
            raise InputError("only an episode or a source is retracted", {"kind": kind})
        if purge:
            purger = purge_episode if kind == "episode" else purge_source
            out = purger(self.graph, group, uuid, purge_rules(self.embed), utcnow(), key_id=key_id)
            return Removal(**out.retraction.model_dump(), purged=out.record)
        retracter = retract_episode if kind == "episode" else retract_source
        return Removal(**retracter(self.graph, group, uuid, self.slot_rules, utcnow()).model_dump())

    def purge_group(self, group: str, key_id: str | None = None) -> PurgeRecord:
        return purge_group(self.graph, group, utcnow(), key_id=key_id)

    # -- retention (docs/api.md, "Retention") --------------------------------------------------------------------

    def retention(self, group: str) -> StoredPolicy:
        """The group's policy (null fields: kept forever) and when it last ran."""
        return retention_store.get_policy(self.graph, group)

    def retention_status(self, group: str, ask: RetentionRequest) -> RetentionStatus:
        """The policy and when it last ran; with ``size``, what the group holds, visible and hidden."""
        return RetentionStatus(**self.retention(group).model_dump(),
                               size=self.retention_size(group) if ask.size else None)

    def retention_size(self, group: str) -> ContentSize:
        """What the group holds, visible and hidden, in what retention can hide (reads the whole group)."""
        return retention_store.content_size(self.graph, group)

    def set_retention(self, group: str, policy: RetentionPolicy, *, actor: str) -> StoredPolicy:
        return retention_store.put_policy(self.graph, group, policy, utcnow(), actor=actor)

    def apply_retention(self, group: str, dry_run: bool = False) -> RetentionRun:
        """Restore what the policy no longer makes due, hide what it does (``dry_run``: count only)."""
        return apply_group(self.graph, group, dry_run=dry_run)

    def purge_retention(self, group: str) -> RetentionPurge:
        """Remove for good what retention hid in the group."""
        return retention_store.purge_hidden(self.graph, group, utcnow())

    def correct(self, group: str, uuid: str, fix: Correction) -> CorrectionResult:
        """Text or end in place; a new predicate (as written, stored as ingest names it), object or start makes
        a new version and keeps the old one as history."""
        written = fix.predicate
        if written:
            fix = fix.model_copy(update={"predicate": stored_predicate_filter(self.graph, group, written, self.embed)})
        return correct_fact(self.graph, group, uuid, fix, self.slot_rules, utcnow(), embed=self.embed,
                            predicate_text=written)

    def merge(self, group: str, uuid: str, into: str, *, actor: str, reason: str | None = None) -> MergeResult:
        return merge_entities(self.graph, group, uuid, into, self.slot_rules, utcnow(),
                              ManualMerge(reason=reason, actor=actor))

    def unmerge(self, group: str, uuid: str, record: str) -> UndoResult:
        return undo_record(self.graph, group, uuid, record, split_rules(), utcnow())

    def undo_consolidation(self, group: str, source: str | None) -> list[UndoResult]:
        return undo_pass(self.graph, group, source, split_rules(), utcnow())

    def merges(self, group: str, uuid: str, ask: MergesRequest) -> list[MergeRecord]:
        """Why each name joined the entity (404 when the group has none)."""
        self._entity(group, uuid)
        return merge_records(self.graph, group, uuid, ask.limit)

    def suggestions(self, group: str, ask: SuggestionsRequest) -> list[Suggestion]:
        # an offset past what any group holds reads nothing; one past 64 bits would not reach Neo4j at all
        return pending_suggestions(self.graph, group, ask.entity, max(0, min(ask.offset, MAX_OFFSET)), ask.limit)

    def accept_suggestion(self, group: str, uuid: str, candidate: str, into: str | None, *, actor: str
                          ) -> MergeResult:
        return accept_suggestion(self.graph, group, uuid, candidate, into, self.slot_rules, utcnow(), actor=actor)

    def reject_suggestion(self, group: str, uuid: str, candidate: str, *, actor: str, reason: str | None = None
                          ) -> Rejection:
        return reject_suggestion(self.graph, group, uuid, candidate, utcnow(), actor=actor, reason=reason)

    def consolidate(self, group: str, ask: ConsolidateRequest) -> list[ConsolidationResult]:
        return consolidate_group(self.graph, group, ask.source)

    # -- reads -----------------------------------------------------------------------------------------------

    def search(self, group: str, ask: SearchRequest) -> SearchResult:
        """Hybrid search; predicates as written, the story cut resolved, the time the question names ranked."""
        query = SearchQuery(q=ask.q, limit=ask.limit, as_of=ask.as_of, known_at=ask.known_at,
                            include_history=ask.include_history, types=ask.types, predicates=ask.predicates,
                            kinds=ask.kinds, center=ask.center or [], mmr=ask.mmr, said_after=ask.said_after,
                            said_before=ask.said_before, agent=ask.agent)
        return self.search_query(group, query, ask.story(), ask.time_words)

    def search_query(self, group: str, query: SearchQuery, story: StoryAsk | None = None, time_words: bool = True
                     ) -> SearchResult:
        """``search`` of a query already built (the benches' parameters, ``mmr_lambda``)."""
        if query.said_after and query.said_before and query.said_after >= query.said_before:
            raise InputError("said_after must be before said_before", {"said_after": query.said_after.isoformat(),
                                                                        "said_before": query.said_before.isoformat()})
        query = query.model_copy(update={"predicates": stored_predicates(self.graph, group, query.predicates,
                                                                          self.embed),
                                         "story": self.story(group, story, query.as_of) or query.story})
        self.rt.check_embedder(group)
        return recall_search(self.graph, group, query, self.embed, time_words, self._asking)

    def context(self, group: str, ask: ContextRequest) -> ContextBlock:
        self.rt.check_embedder(group)
        return context_block(self.graph, group, ask, self.embed, asking=self._asking)

    def resolve(self, group: str, ask: ResolveRequest) -> Resolution:
        return resolve_name(self.graph, group, ask.name, ask.limit, self.embed)

    def facts(self, group: str, ask: FactsRequest) -> FactPage:
        """A complete, paginated listing; subject and object by uuid or exact name, predicate as written."""
        query = FactQuery(subject=ask.subject, predicate=ask.predicate, object=ask.object, role=ask.role,
                          subject_type=ask.subject_type, object_type=ask.object_type, as_of=ask.as_of,
                          known_at=ask.known_at, include_history=ask.include_history, agent=ask.agent,
                          cursor=ask.cursor, limit=ask.limit)
        return self.fact_query(group, query, ask.story())

    def fact_query(self, group: str, query: FactQuery, story: StoryAsk | None = None) -> FactPage:
        """``facts`` of a query already built."""
        if query.role or (query.object and not UUID.match(query.object)
                          and entity_ref(self.graph, group, query.object, query.object_type, "object") == NO_ENTITY):
            query = office_filter(query)  # "CEO of Walmart": the organization's CEO slot
        resolved = query.model_copy(update={
            "subject": entity_ref(self.graph, group, query.subject, query.subject_type, "subject"),
            "object": entity_ref(self.graph, group, query.object, query.object_type, "object"),
            "predicate": stored_predicate_filter(self.graph, group, query.predicate, self.embed)})
        return list_facts(self.graph, group, resolved, story=self.story(group, story, query.as_of))

    def all_facts(self, group: str, ask: FactsRequest) -> Iterator[Fact]:
        """Every page of a listing from ``ask``'s cursor on, in order."""
        page = self.facts(group, ask)
        while True:
            yield from page.items
            if not page.next_cursor:
                return
            ask = ask.model_copy(update={"cursor": page.next_cursor})
            page = self.facts(group, ask)

    def entity_id(self, group: str, ref: str) -> str:
        """An entity's uuid from a uuid or an exact name (404 when none, 400 when the name is ambiguous)."""
        found = entity_ref(self.graph, group, ref, None, "entity")
        if found is None or found == NO_ENTITY:
            raise NotFoundError(f"no entity named {ref!r} in group {group}")
        return found

    def survivor(self, group: str, uuid: str) -> str | None:
        """The entity a merged-away uuid was merged into (following chains), None when it was not merged."""
        found = follow_merges(self.graph, group, [uuid]).get(uuid)
        return found if found is not None and found != uuid else None

    def entity(self, group: str, uuid: str) -> Entity:
        """One entity (404 when the group has none); a merged-away uuid answers with its survivor."""
        return self._entity(group, self.survivor(group, uuid) or uuid)

    def _entity(self, group: str, uuid: str) -> Entity:
        found = get_entity(self.graph, uuid, group)
        if found is None:
            raise NotFoundError(f"entity {uuid} not found")
        return found

    def neighborhood(self, group: str, uuid: str, ask: NeighborhoodRequest) -> Neighborhood:
        """Within ``depth`` hops of the entity (a merged-away uuid: of its survivor)."""
        uuid = self.survivor(group, uuid) or uuid
        cut = ReadCut(as_of=ask.as_of, known_at=ask.known_at, include_history=ask.include_history,
                      story=self.story(group, ask.story(), ask.as_of))
        return neighborhood(self.graph, group, uuid, ask.depth, cut=cut, limit=ask.limit)

    def timeline(self, group: str, uuid: str, ask: TimelineRequest) -> Timeline:
        entity = self.entity(group, uuid)
        return Timeline(entity=entity, facts=entity_timeline(self.graph, group, entity.uuid, ask.include_expired,
                                                             story=self.story(group, ask.story())))

    def notes(self, group: str, uuid: str, ask: NotesRequest) -> Notes:
        entity = self.entity(group, uuid)
        return Notes(entity=entity, notes=entity_notes(self.graph, group, entity.uuid, ask.limit))

    def fact(self, group: str, uuid: str) -> SearchHit:
        hit = fact_with_provenance(self.graph, group, uuid)
        if hit is None:
            raise NotFoundError(f"fact {uuid} not found")
        return hit

    def paths(self, group: str, ask: PathsRequest) -> PathsResult:
        """Shortest paths between two entities (uuid or exact name) over the facts true at ``as_of``."""
        a = entity_ref(self.graph, group, ask.from_, None, "from")
        b = entity_ref(self.graph, group, ask.to, None, "to")
        return PathsResult(paths=shortest_paths(self.graph, group, a or "", b or "", ask.max_depth,
                                                cut=ReadCut(as_of=ask.as_of), limit=ask.limit))

    def agents(self, group: str) -> list[AgentActivity]:
        return agents(self.graph, group)

    def quotes(self, group: str, ask: QuotesRequest) -> QuotePage:
        return quotes_said(self.graph, group, speaker=ask.speaker, addressee=ask.addressee,
                           offset=min(ask.offset, MAX_OFFSET), limit=ask.limit)

    def network(self, group: str, ask: NetworkRequest) -> Network:
        return interaction_network(self.graph, group, story=self.story(group, ask.story()), entity_uuid=ask.entity,
                                   limit=ask.limit)

    def counts(self, group: str) -> GroupCounts:
        return GroupCounts(**group_counts(self.graph, group))

    def schema(self, group: str) -> GroupSchema:
        return GroupSchema(entity_types=entity_types(self.graph, group), predicates=predicates(self.graph, group))

    def clock(self, group: str, ask: ClockRequest) -> GroupClock:
        return group_clock(self.graph, group, ask.limit)

    def perspective(self, group: str) -> Perspective:
        return build_perspective(browse_schema(self.graph, group), utcnow())

    # -- summaries and communities ---------------------------------------------------------------------------

    def summarizer(self) -> Any:
        """The configured summarizer (None when summaries are off), built once per runtime."""
        if self.rt.summarizer is None:
            from strata.ingest.summaries import make_summarizer

            self.rt.summarizer = make_summarizer(self.settings)
        return self.rt.summarizer

    def refresh_summaries(self, group: str, ask: RefreshSummariesRequest, progress: Any = None) -> SummaryRefresh:
        from strata.ingest.summaries import refresh_group

        summarizer = self.summarizer()
        if summarizer is None:
            raise InputError("entity summaries are off (STRATA_SUMMARIES=off)")
        return refresh_group(self.graph, group, summarizer, force=ask.force, after=ask.after, budget_s=ask.budget_s,
                             progress=progress, batch=ask.batch)

    def refresh_communities(self, group: str, ask: RefreshCommunitiesRequest | None = None) -> CommunityRun:
        from strata.ingest.communities import refresh_communities

        budget_s = ask.budget_s if ask is not None else None
        return refresh_communities(self.graph, group, self.settings, self.summarizer(), budget_s)

    def communities(self, group: str, ask: CommunitiesRequest) -> CommunityList:
        found = list_communities(self.graph, group, query=ask.q, entity_uuid=ask.entity, limit=ask.limit,
                                 members=ask.members)
        return CommunityList(group_id=group, query=ask.q, communities=found)
