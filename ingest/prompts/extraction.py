"""The one extraction prompt and, beside it, the pydantic models of the JSON the model must return.

Bump PROMPT_VERSION whenever INSTRUCTIONS, the message layout or the response models change: it is part
of the cache key and of every fact's provenance.
"""

from __future__ import annotations

import json
import textwrap
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from strata.ingest.protocols import ChatMessage, ExtractionContext, JsonSchema
from strata.resolve.ontology import load_ontology
from strata.schema.ids import content_hash
from strata.schema.models import Episode
from strata.schema.settings import Settings

PROMPT_VERSION = "extract-2024.5"
SUMMARY_MAX_WORDS = 60
# Hard caps of the response models: a reply over them (json_object mode, a lax server) is clipped, not rejected.
# What the model is asked for is SchemaLimits, sent as maxItems/maxLength.
HARD_MAX_ITEMS = 200
HARD_MAX_SMALL = 20


class SchemaLimits(BaseModel):
    """How much one reply may hold. Every array is bounded (maxItems): a weak model under a grammar otherwise
    repeats items until max_tokens cuts the reply. ``string_chars`` > 0 bounds every string too (maxLength;
    off by default since OpenAI's strict mode does not list the keyword; llama.cpp and vLLM enforce it). The
    defaults suit hosted models; a small local one needs tighter limits to finish within max_tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entities: int = Field(default=40, ge=1, le=HARD_MAX_ITEMS)
    facts: int = Field(default=30, ge=1, le=HARD_MAX_ITEMS)
    notes: int = Field(default=20, ge=1, le=HARD_MAX_ITEMS)
    quotes: int = Field(default=40, ge=1, le=HARD_MAX_ITEMS)
    aliases: int = Field(default=5, ge=1, le=HARD_MAX_SMALL)
    note_entities: int = Field(default=6, ge=1, le=HARD_MAX_SMALL)
    string_chars: int = Field(default=0, ge=0)

    @classmethod
    def from_settings(cls, settings: Settings) -> SchemaLimits:
        return cls(entities=settings.llm_max_entities, facts=settings.llm_max_facts, notes=settings.llm_max_notes,
                   string_chars=settings.llm_max_string_chars)


DEFAULT_LIMITS = SchemaLimits()
MAX_ENTITIES = DEFAULT_LIMITS.entities
# Cap on how much of a bad reply is echoed back in the repair turn: enough to show the error, not a second bill.
REPAIR_ECHO_CHARS = 2000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _clip_arrays(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for name, field in cls.model_fields.items():
            cap = _max_items(field)
            if cap is not None and isinstance(out.get(name), list):
                out[name] = out[name][:cap]
        return out


def _max_items(field: Any) -> int | None:
    return next((m.max_length for m in field.metadata if getattr(m, "max_length", None) is not None), None)


class LLMEntity(_Strict):
    name: str = Field(description="Canonical name; a roster name when the entity is on the roster")
    type: str = Field(description="Person, Organization, Place, Event, Work, Object or Concept")
    aliases: list[str] = Field(max_length=HARD_MAX_SMALL, description="Other surface forms used for it in this episode")
    description: str = Field(description="At most 15 words")


class LLMFact(_Strict):
    subject: str
    predicate: str = Field(description="A canonical predicate (lives_in, spouse_of, ...) or a snake_case verb phrase")
    object: str
    fact: str = Field(description="One readable sentence stating the fact with full names")
    valid_at: str | None = Field(description="ISO 8601 date when it became true, if stated or implied")
    invalid_at: str | None = Field(description="ISO 8601 date when it stopped being true, if stated")
    negated: bool = Field(description="True when the text says it does not or no longer holds")
    functional: Literal["subject", "object", "symmetric"] | None = Field(
        description="subject: the subject has one such object at a time (lives_in); "
        "object: the object has one such subject at a time (holds_office of one role); "
        "symmetric: one partner at a time, the same read either way (spouse_of)"
    )
    evidence: str = Field(description="Exact quote from the episode supporting the fact")
    asserted_by: str | None = Field(description="Speaker or author who states it, if known")
    role: str | None = Field(default=None, description="For holds_office: the office's role (CEO, prime minister, "
                             "mayor, chair); the object is then the organization or place, not the office")


class LLMNote(_Strict):
    text: str = Field(description="The statement rewritten to stand alone: names instead of pronouns and I/you, "
                      "absolute dates instead of relative ones")
    entities: list[str] = Field(max_length=HARD_MAX_SMALL, description="Names (from entities) it is about")
    evidence: str = Field(description="Exact quote from the episode the note rewrites")
    valid_at: str | None = Field(description="ISO 8601 date of what it says, if stated or implied")


class LLMQuote(_Strict):
    quote: str = Field(description="The quoted words exactly as in the text, without quotation marks "
                       "(the first part when narration interrupts them)")
    speaker: str | None = Field(description="Who says it, by the name the text uses; null if unknown")
    addressees: list[str] = Field(max_length=HARD_MAX_SMALL, description="Whom it is said to, by name")


class LLMExtractionResponse(_Strict):
    entities: list[LLMEntity] = Field(max_length=HARD_MAX_ITEMS)
    facts: list[LLMFact] = Field(max_length=HARD_MAX_ITEMS)
    # required by the schema sent; a reply without it (json_object mode, older servers) still reads as no notes
    notes: list[LLMNote] = Field(default_factory=list, max_length=HARD_MAX_ITEMS)
    # prose only: who says each quotation to whom (empty for chat, whose lines already have speakers)
    quotes: list[LLMQuote] = Field(default_factory=list, max_length=HARD_MAX_ITEMS)
    summary: str = Field(description=f"Updated running summary of the source, at most {SUMMARY_MAX_WORDS} words")


# Predicates the offline extractor writes only as evidence for the book's consolidation pass (a description the
# text ties to a name: ingest/extractors/appositions.py), not relations for a model to name: not in the prompt,
# whose text (and so the LLM cache's fingerprint) stays as it was.
EVIDENCE_ONLY_PREDICATES = frozenset({"described_as", "known_as"})
# The ontology's canonical predicates, so the model names relations the way the offline path does.
CANONICAL_PREDICATES = textwrap.fill(", ".join(sorted(set(load_ontology().predicates) - EVIDENCE_ONLY_PREDICATES)),
                                     100, initial_indent="  ", subsequent_indent="  ")

def instructions(limits: SchemaLimits = DEFAULT_LIMITS) -> str:
    return f"""You extract a temporal knowledge graph from one episode of a longer source.
Return one JSON object: {{"entities": [...], "facts": [...], "notes": [...], "quotes": [...], "summary": "..."}}.
entities: {{"name", "type", "aliases", "description"}} for every person, organization, place, event, work or
notable object the episode mentions.
facts: {{"subject", "object", "predicate", "fact", "valid_at", "invalid_at", "negated", "functional",
"evidence", "asserted_by", "role"}} for each relation between two entities that the episode states.
notes: {{"text", "entities", "evidence", "valid_at"}} for each memory-worthy statement (what people did, plan,
like, own, feel or say about themselves and each other), rewritten to stand alone: names instead of
pronouns and "I"/"you", absolute dates instead of relative ones ("I went to the gym yesterday" said by Tom
on 2023-05-08 -> "On 7 May 2023 Tom went to the gym"). entities: the names it is about.
quotes: {{"quote", "speaker", "addressees"}} for each quotation in prose (a novel's dialogue): the quoted
words copied exactly, who says them (the name the text uses there; resolve "said she" and untagged turns of a
dialogue) and to whom. Empty for chat.
At most {limits.entities} entities, {limits.facts} facts and {limits.notes} notes; never repeat an item.
Rules:
- Use roster names for entities on the roster; resolve pronouns and descriptions ("the king", "her sister")
  to names. In chat, "I"/"me"/"my" is the speaker of that line.
- subject and object must be entity names from your entities list.
- predicate: one of these canonical names when one fits:
{CANONICAL_PREDICATES}
  otherwise a lowercase snake_case verb phrase in the present tense (work_for, study_at, plan_to_visit).
- An office or position is holds_office from the person to the organization or place, with its role:
  "Walmart named Doug McMillon as its CEO" -> subject "Doug McMillon", predicate "holds_office", object
  "Walmart", role "CEO"; "X stepped down as CEO of Y" -> the same with negated=true. A change of residence,
  employer, team or partner is lives_in, employed_by, plays_for, spouse_of or partner_of from the person.
  Someone who only reacts ("Wow!", "Good for him") states nothing.
- Resolve relative dates ("yesterday", "last May") against the reference time; ISO 8601 dates; null if unknown.
- negated=true when the text says the relation does not or no longer holds.
- evidence: an exact, short quote copied from the episode text (not paraphrased), for facts and notes.
- asserted_by: the speaker of the quoted line in chat; null otherwise.
- summary: the running summary updated with this episode, at most {SUMMARY_MAX_WORDS} words.
Return only the JSON object."""


INSTRUCTIONS = instructions()


def _roster_block(context: ExtractionContext) -> str:
    if not context.roster:
        return "(none)"
    return "\n".join(f"{r.name} | {r.type} | {', '.join(r.aliases)}".rstrip(" |,") for r in context.roster)


def _episode_block(episode: Episode) -> str:
    if episode.kind != "chat" or not episode.messages:
        return episode.content
    lines = []
    for m in episode.messages:
        stamp = f"[{m.timestamp:%Y-%m-%d %H:%M}] " if m.timestamp and not m.timestamp_inferred else ""
        lines.append(f"{stamp}{m.speaker}: {m.text}")
    return "\n".join(lines)


def build_messages(episode: Episode, context: ExtractionContext,
                   limits: SchemaLimits = DEFAULT_LIMITS) -> list[ChatMessage]:
    """System = the fixed instruction block (cacheable upstream); user = roster, summary, time, episode."""
    user = (
        f"Reference time: {episode.reference_time.isoformat()}\n"
        f"Known entities (name | type | aliases):\n{_roster_block(context)}\n"
        f"Summary so far: {context.summary or '(start of source)'}\n"
        f"Episode ({episode.kind}):\n{_episode_block(episode)}"
    )
    system = INSTRUCTIONS if limits == DEFAULT_LIMITS else instructions(limits)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def repair_messages(messages: list[ChatMessage], raw: str, error: str, truncated: bool) -> list[ChatMessage]:
    """One repair turn: say what was wrong; echo the bad reply only when it was not merely cut off."""
    if truncated:
        note = ("Your reply was cut off before the JSON object was complete. Reply again with the complete JSON "
                "object; keep descriptions and facts short so it fits.")
        return [*messages, {"role": "user", "content": note}]
    note = f"Your reply was not valid: {error[:500]}. Reply again with only the corrected JSON object."
    return [*messages, {"role": "assistant", "content": raw[:REPAIR_ECHO_CHARS]}, {"role": "user", "content": note}]


def _strictify(node: Any) -> Any:
    """OpenAI strict mode: every property required, no extra keys, no defaults or titles."""
    if isinstance(node, dict):
        out = {k: _strictify(v) for k, v in node.items() if k not in ("title", "default")}
        if out.get("type") == "object" and "properties" in out:
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_strictify(v) for v in node]
    return node


def _bound_strings(node: Any, chars: int) -> None:
    if isinstance(node, dict):
        if node.get("type") == "string" and "enum" not in node:
            node["maxLength"] = chars
        for value in node.values():
            _bound_strings(value, chars)
    elif isinstance(node, list):
        for value in node:
            _bound_strings(value, chars)


def response_schema(limits: SchemaLimits = DEFAULT_LIMITS) -> JsonSchema:
    schema = _strictify(LLMExtractionResponse.model_json_schema())
    top, defs = schema["properties"], schema["$defs"]
    top["entities"]["maxItems"], top["facts"]["maxItems"] = limits.entities, limits.facts
    top["notes"]["maxItems"] = limits.notes
    top["quotes"]["maxItems"] = limits.quotes
    defs["LLMEntity"]["properties"]["aliases"]["maxItems"] = limits.aliases
    defs["LLMNote"]["properties"]["entities"]["maxItems"] = limits.note_entities
    if limits.string_chars:
        _bound_strings(schema, limits.string_chars)
        top["summary"]["maxLength"] = max(2 * limits.string_chars, 8 * SUMMARY_MAX_WORDS)
    return JsonSchema(name="strata_extraction", schema=schema)


@cache
def prompt_fingerprint(limits: SchemaLimits = DEFAULT_LIMITS) -> str:
    """A hash of what the model is told (instructions and schema), part of the extraction cache key."""
    return content_hash(instructions(limits) + json.dumps(response_schema(limits).schema_, sort_keys=True))[:16]
