"""LLM extractor: ONE structured-output call per episode, one repair retry, content-hash cache.

Model offsets are never trusted: evidence quotes and entity names are located in the content here.
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
from strata.ingest.prompts import (
    PROMPT_VERSION,
    LLMExtractionResponse,
    build_messages,
    repair_messages,
    response_schema,
)
from strata.ingest.prompts.extraction import SUMMARY_MAX_WORDS
from strata.ingest.protocols import (
    EMPTY_CONTEXT,
    LLM,
    Cache,
    ChatMessage,
    ExtractionContext,
    MalformedOutputError,
    add_usage,
)
from strata.schema.errors import ExtractionError
from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractorInfo,
    Span,
    TokenUsage,
)


class LLMExtractor:
    """Implements the Extractor protocol over any LLM (the openai adapter in production, doubles in tests)."""

    def __init__(self, llm: LLM, cache: Cache | None = None, prompt_version: str = PROMPT_VERSION) -> None:
        self.llm = llm
        self.cache = cache
        self.prompt_version = prompt_version
        self.info = ExtractorInfo(name="llm", model=llm.model, prompt_version=prompt_version)
        self._schema = response_schema()

    def extract(self, episode: Episode, context: ExtractionContext = EMPTY_CONTEXT) -> Extraction:
        if episode.kind == "facts":
            return facts_extraction(episode, self.info)
        key = cache_key(episode, context, self.llm.model, self.prompt_version)
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            try:
                cached = Extraction.model_validate(hit)
                return cached.model_copy(update={"episode_uuid": episode.uuid, "usage": TokenUsage(cached=True)})
            except ValidationError:
                pass  # an entry from an older model layout: recompute
        response, usage = self._ask(build_messages(episode, context))
        extraction = to_extraction(response, episode, self.info, usage)
        if self.cache is not None:
            self.cache.set(key, extraction.model_dump(mode="json"))
        return extraction

    def _ask(self, messages: list[ChatMessage]) -> tuple[LLMExtractionResponse, TokenUsage]:
        usage = TokenUsage()
        error = ""
        for attempt in range(2):  # the call, then one repair turn
            try:
                data, call_usage = self.llm.complete(messages, self._schema)
            except MalformedOutputError as exc:
                usage = add_usage(usage, exc.usage)
                raw, error, truncated = exc.raw, exc.message, exc.truncated
            else:
                usage = add_usage(usage, call_usage)
                try:
                    return LLMExtractionResponse.model_validate(data), usage
                except ValidationError as exc:
                    raw, error, truncated = json.dumps(data)[:4000], _short_error(exc), False
            if attempt == 0:
                messages = repair_messages(messages, raw, error, truncated)
        raise ExtractionError(
            f"LLM output unusable after one repair: {error}",
            {"calls": usage.calls, "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens},
        )


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
            )
        )
    return Extraction(
        episode_uuid=episode.uuid, entities=list(entities.values()), facts=facts, extractor=info,
        usage=usage, summary=_trim_words(response.summary, SUMMARY_MAX_WORDS) or None, warnings=warnings,
    )


def _asserted_by(claimed: str | None, span: Span | None, speakers: SpeakerIndex | None, episode: Episode) -> str | None:
    """The speaker of the message holding the evidence wins over what the model claims."""
    if speakers is not None and span is not None and (who := speakers.speaker_at(span.start)):
        return who
    if claimed and (not episode.messages or claimed in {m.speaker for m in episode.messages}):
        return claimed
    return None


__all__ = ["LLMExtractor", "to_extraction"]

