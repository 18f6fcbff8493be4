"""LLM extractor: ONE structured-output call per episode, one repair retry, content-hash cache.

Model offsets are never trusted: evidence quotes and entity names are located in the content here. A reply
cut at max_tokens is not repaired (a model that ran out of room runs out again): the episode is split in
two and each half extracted, down to MAX_SPLIT_DEPTH, then one repair turn, then a visible ExtractionError.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from strata.ingest.extractors.cache import cache_key
from strata.ingest.extractors.common import (
    SpeakerIndex,
    facts_extraction,
    find_mentions,
    locate_quote,
    normalize_space,
    snake_case,
)
from strata.ingest.extractors.dates import parse_iso
from strata.ingest.extractors.split import Piece, merge_pieces, split_episode
from strata.ingest.prompts import (
    PROMPT_VERSION,
    LLMExtractionResponse,
    build_messages,
    repair_messages,
    response_schema,
)
from strata.ingest.prompts.extraction import DEFAULT_LIMITS, SUMMARY_MAX_WORDS, SchemaLimits
from strata.ingest.protocols import (
    EMPTY_CONTEXT,
    LLM,
    MAX_ROSTER,
    Cache,
    ChatMessage,
    ExtractionContext,
    MalformedOutputError,
    RosterEntry,
    add_usage,
)
from strata.schema.errors import ExtractionError, StrataError
from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    ExtractedNote,
    ExtractedQuote,
    Extraction,
    ExtractorInfo,
    Span,
    TokenUsage,
)

# A reply cut at max_tokens splits the episode in two, at most this deep (8 pieces): each level doubles the calls.
MAX_SPLIT_DEPTH = 3


class _Cut(Exception):
    """The reply was cut at max_tokens (finish_reason=length): split the episode rather than repair."""

    def __init__(self, raw: str) -> None:
        super().__init__("reply cut at max_tokens")
        self.raw = raw


class _Spent:
    """Calls and tokens spent on one episode, across repairs and pieces; attached to an ExtractionError."""

    def __init__(self) -> None:
        self.usage = TokenUsage()

    def add(self, usage: TokenUsage) -> None:
        self.usage = add_usage(self.usage, usage)

    def details(self) -> dict[str, int]:
        u = self.usage
        return {"calls": u.calls, "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens}


class LLMExtractor:
    """Implements the Extractor protocol over any LLM (the openai adapter in production, doubles in tests)."""

    def __init__(self, llm: LLM, cache: Cache | None = None, prompt_version: str = PROMPT_VERSION,
                 max_split_depth: int = MAX_SPLIT_DEPTH, limits: SchemaLimits = DEFAULT_LIMITS) -> None:
        self.llm = llm
        self.cache = cache
        self.prompt_version = prompt_version
        self.max_split_depth = max_split_depth
        self.limits = limits
        self.info = ExtractorInfo(name="llm", model=llm.model, prompt_version=prompt_version)
        self._schema = response_schema(limits)

    def cache_key(self, episode: Episode) -> str:
        return cache_key(episode, self.llm.model, self.prompt_version, self.limits)

    def cached(self, episode: Episode) -> Extraction | None:
        """The cached extraction of this episode's content, if any (read-only: ``strata ingest --estimate``)."""
        if self.cache is None or episode.kind == "facts":
            return None
        hit = self.cache.get(self.cache_key(episode))
        if hit is None:
            return None
        try:
            cached = Extraction.model_validate(hit)
        except ValidationError:
            return None  # an entry from an older model layout: recompute
        return cached.model_copy(update={"episode_uuid": episode.uuid, "usage": TokenUsage(cached=True)})

    def extract(self, episode: Episode, context: ExtractionContext = EMPTY_CONTEXT) -> Extraction:
        if episode.kind == "facts":
            return facts_extraction(episode, self.info)
        if (hit := self.cached(episode)) is not None:
            return hit
        spent = _Spent()
        try:
            extraction = self._extract(episode, context, 0, spent)
        except StrataError as exc:  # unusable output, or the endpoint gone mid-way through the pieces
            exc.details.update(spent.details())  # what a failed attempt cost is still counted
            raise
        extraction = extraction.model_copy(update={"usage": spent.usage})
        if self.cache is not None:
            self.cache.set(self.cache_key(episode), extraction.model_dump(mode="json", exclude={"usage"}))
        return extraction

    def _extract(self, episode: Episode, context: ExtractionContext, depth: int, spent: _Spent) -> Extraction:
        messages = build_messages(episode, context, self.limits)
        try:
            response = self._ask(messages, spent, repair_cut=False)
        except _Cut as cut:
            halves = split_episode(episode) if depth < self.max_split_depth else None
            if halves is None:  # nothing left to split: the one repair turn is the last try
                response = self._ask(repair_messages(messages, cut.raw, "cut off", True), spent, repair_cut=True,
                                     why=_unsplittable(episode, depth))
            else:
                return self._extract_pieces(episode, context, halves, depth, spent)
        return to_extraction(response, episode, self.info, TokenUsage())

    def _extract_pieces(self, episode: Episode, context: ExtractionContext, halves: tuple[Piece, Piece],
                        depth: int, spent: _Spent) -> Extraction:
        parts: list[tuple[int, Extraction]] = []
        for piece in halves:
            part = self._extract(piece.episode, context, depth + 1, spent)
            parts.append((piece.offset, part))
            # the next piece reads on from this one, as the next episode would: its names and summary
            context = _carry(context, part)
        merged = merge_pieces(episode, parts, self.info)
        return merged.model_copy(update={"warnings": [*merged.warnings, f"reply cut at max_tokens: episode split "
                                                      f"at offset {halves[1].offset} (depth {depth + 1})"]})

    def _ask(self, messages: list[ChatMessage], spent: _Spent, repair_cut: bool,
             why: str = "") -> LLMExtractionResponse:
        """The call, then one repair turn for invalid output. A cut reply raises _Cut unless this is a repair."""
        error = ""
        for attempt in range(1 if repair_cut else 2):
            try:
                data, call_usage = self.llm.complete(messages, self._schema)
            except MalformedOutputError as exc:
                spent.add(exc.usage)
                if exc.truncated and not repair_cut:
                    raise _Cut(exc.raw) from exc
                raw, error, truncated = exc.raw, exc.message, exc.truncated
            else:
                spent.add(call_usage)
                try:
                    return LLMExtractionResponse.model_validate(data)
                except ValidationError as exc:
                    raw, error, truncated = json.dumps(data)[:4000], _short_error(exc), False
            if attempt == 0 and not repair_cut:
                messages = repair_messages(messages, raw, error, truncated)
        prefix = f"{why}; " if why else ""
        raise ExtractionError(f"LLM output unusable after one repair: {prefix}{error}", spent.details())


def _unsplittable(episode: Episode, depth: int) -> str:
    what = f"{len(episode.content)} characters, {len(episode.messages)} messages"
    if depth:
        return f"reply cut at max_tokens (finish_reason=length) after splitting the episode {depth} times ({what})"
    return f"reply cut at max_tokens (finish_reason=length) and the episode cannot be split ({what})"


def _carry(context: ExtractionContext, part: Extraction) -> ExtractionContext:
    known = {r.name for r in context.roster}
    added = [RosterEntry(name=e.name, type=e.type or "Entity") for e in part.entities if e.name not in known]
    roster = (*context.roster, *added)[:MAX_ROSTER]
    return ExtractionContext(roster=roster, summary=part.summary or context.summary)


NOTE_MAX_CHARS = 1000  # ExtractedNote.text's bound


def _short_error(exc: ValidationError) -> str:
    parts = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5]]
    return "; ".join(parts)


def _trim_words(text: str, limit: int) -> str:
    words = text.split()
    return " ".join(words[:limit])


def to_extraction(
    response: LLMExtractionResponse, episode: Episode, info: ExtractorInfo, usage: TokenUsage
) -> Extraction:
    """Validated model output -> Extraction, with spans located in the content and speakers checked."""
    content = episode.content
    warnings: list[str] = []
    entities: dict[str, ExtractedEntity] = {}
    for e in response.entities:
        name = normalize_space(e.name)
        if not name:
            continue
        aliases = [a for a in dict.fromkeys(normalize_space(a) for a in e.aliases) if a and a != name]
        spans = find_mentions(content, name)
        for alias in aliases:
            spans += find_mentions(content, alias)
        merged = entities.get(name)
        if merged is not None:  # same entity listed twice: union its forms
            aliases = list(dict.fromkeys([*merged.aliases, *aliases]))
            spans = [*merged.spans, *spans]
        entities[name] = ExtractedEntity(
            name=name, type=e.type.strip() or "Entity", aliases=aliases,
            description=e.description.strip(), spans=sorted(set(spans), key=lambda s: s.start),
        )
    speakers = SpeakerIndex(episode) if episode.messages else None
    facts: list[ExtractedFact] = []
    for f in response.facts:
        subject, obj, predicate = normalize_space(f.subject), normalize_space(f.object), snake_case(f.predicate)
        if not (subject and obj and predicate):
            warnings.append(f"dropped incomplete fact: {f.fact or f.predicate!r}")
            continue
        for name in (subject, obj):
            if name not in entities:
                entities[name] = ExtractedEntity(name=name, spans=find_mentions(content, name))
        span = locate_quote(content, f.evidence)
        if span is None and f.evidence.strip():
            warnings.append(f"evidence not found in episode: {f.evidence[:80]!r}")
        facts.append(
            ExtractedFact(
                subject=subject, predicate=predicate, object=obj,
                fact=f.fact.strip() or f"{subject} {predicate.replace('_', ' ')} {obj}",
                subject_type=entities[subject].type, object_type=entities[obj].type,
                valid_at=parse_iso(f.valid_at), invalid_at=parse_iso(f.invalid_at),
                negated=f.negated, functional=f.functional,
                spans=[span] if span else [],
                asserted_by=_asserted_by(f.asserted_by, span, speakers, episode),
                role=(f.role or "").strip() or None,
            )
        )
    notes = _notes(response, episode, entities, speakers, warnings)
    quotes = _quotes(response, episode, warnings)
    return Extraction(
        episode_uuid=episode.uuid, entities=list(entities.values()), facts=facts, notes=notes, quotes=quotes,
        extractor=info,
        usage=usage, summary=_trim_words(response.summary, SUMMARY_MAX_WORDS) or None, warnings=warnings,
    )


def _notes(response: LLMExtractionResponse, episode: Episode, entities: dict[str, ExtractedEntity],
           speakers: SpeakerIndex | None, warnings: list[str]) -> list[ExtractedNote]:
    """Notes keep the names they are about that are entities (or appear in the text, or speak: then they become
    one); a name the text does not hold is dropped rather than invented as an entity."""
    content = episode.content
    notes: list[ExtractedNote] = []
    seen: set[str] = set()
    speaker_names = {m.speaker for m in episode.messages}
    for n in response.notes:
        text = normalize_space(n.text)[:NOTE_MAX_CHARS]
        if not text or text in seen:  # a weak model repeats itself
            continue
        seen.add(text)
        names = []
        for raw in n.entities:
            name = normalize_space(raw)
            if name and name not in entities and ((spans := find_mentions(content, name)) or name in speaker_names):
                entities[name] = ExtractedEntity(name=name, type="Person" if name in speaker_names else "Entity",
                                                 spans=spans)
            if name in entities and name not in names:
                names.append(name)
        span = locate_quote(content, n.evidence)
        if span is None and n.evidence.strip():
            warnings.append(f"note evidence not found in episode: {n.evidence[:80]!r}")
        notes.append(ExtractedNote(text=text, entities=names, spans=[span] if span else [],
                                   valid_at=parse_iso(n.valid_at),
                                   asserted_by=_asserted_by(None, span, speakers, episode)))
    return notes


def _quotes(response: LLMExtractionResponse, episode: Episode, warnings: list[str]) -> list[ExtractedQuote]:
    """Quotations located in the text (one the text does not hold is dropped), in reading order."""
    out: dict[int, ExtractedQuote] = {}
    for item in response.quotes:
        span = locate_quote(episode.content, item.quote)
        if span is None:
            if item.quote.strip():
                warnings.append(f"quote not found in episode: {item.quote[:80]!r}")
            continue
        speaker = normalize_space(item.speaker or "") or None
        to = [a for a in (normalize_space(x) for x in item.addressees) if a and a != speaker]
        out.setdefault(span.start, ExtractedQuote(
            text=episode.content[span.start:span.end], start=span.start, end=span.end, spans=[span], speaker=speaker,
            addressees=list(dict.fromkeys(to)), method="llm" if speaker else None, confidence=0.8 if speaker else 0.0))
    return [out[k] for k in sorted(out)]


def _asserted_by(claimed: str | None, span: Span | None, speakers: SpeakerIndex | None, episode: Episode) -> str | None:
    """The speaker of the message holding the evidence wins over what the model claims."""
    if speakers is not None and span is not None and (who := speakers.speaker_at(span.start)):
        return who
    if claimed and (not episode.messages or claimed in {m.speaker for m in episode.messages}):
        return claimed
    return None


__all__ = ["LLMExtractor", "to_extraction"]

