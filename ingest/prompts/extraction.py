"""The one extraction prompt and, beside it, the pydantic models of the JSON the model must return.

Bump PROMPT_VERSION whenever INSTRUCTIONS, the message layout or the response models change: it is part
of the cache key and of every fact's provenance.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from strata.ingest.protocols import ChatMessage, ExtractionContext, JsonSchema
from strata.schema.models import Episode

PROMPT_VERSION = "extract-2024.2"
SUMMARY_MAX_WORDS = 60
# Cap on how much of a bad reply is echoed back in the repair turn: enough to show the error, not a second bill.
REPAIR_ECHO_CHARS = 2000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LLMEntity(_Strict):
    name: str = Field(description="Canonical name; a roster name when the entity is on the roster")
    type: str = Field(description="Person, Organization, Place, Event, Work, Object or Concept")
    aliases: list[str] = Field(description="Other surface forms used for it in this episode")
    description: str = Field(description="At most 15 words")


class LLMFact(_Strict):
    subject: str
    predicate: str = Field(description="snake_case verb phrase, e.g. live_in, work_for, marry, dislike")
    object: str
    fact: str = Field(description="One readable sentence stating the fact with full names")
    valid_at: str | None = Field(description="ISO 8601 date when it became true, if stated or implied")
    invalid_at: str | None = Field(description="ISO 8601 date when it stopped being true, if stated")
    negated: bool = Field(description="True when the text says it does not or no longer holds")
    functional: Literal["subject", "object", "symmetric"] | None = Field(
        description="subject: the subject has one such object at a time (lives_in); "
        "object: the object has one such subject at a time (ceo_of); "
        "symmetric: one partner at a time, the same read either way (spouse_of)"
    )
    evidence: str = Field(description="Exact quote from the episode supporting the fact")
    asserted_by: str | None = Field(description="Speaker or author who states it, if known")


class LLMExtractionResponse(_Strict):
    entities: list[LLMEntity]
    facts: list[LLMFact]
    summary: str = Field(description=f"Updated running summary of the source, at most {SUMMARY_MAX_WORDS} words")


INSTRUCTIONS = f"""You extract a temporal knowledge graph from one episode of a longer source.
Return one JSON object: {{"entities": [...], "facts": [...], "summary": "..."}}.
entities: {{"name", "type", "aliases", "description"}} for every person, organization, place, event, work or
notable object the episode mentions.
facts: {{"subject", "object", "predicate", "fact", "valid_at", "invalid_at", "negated", "functional",
"evidence", "asserted_by"}} for each relation between two entities that the episode states.
Rules:
- Use roster names for entities on the roster; resolve pronouns and descriptions ("the king", "her sister")
  to names. In chat, "I"/"me"/"my" is the speaker of that line.
- subject and object must be entity names from your entities list.
- predicate: lowercase snake_case verb phrase in the present tense (live_in, work_for, marry, dislike).
- Resolve relative dates ("yesterday", "last May") against the reference time; ISO 8601 dates; null if unknown.
- negated=true when the text says the relation does not or no longer holds.
- evidence: an exact, short quote copied from the episode text (not paraphrased).
- asserted_by: the speaker of the quoted line in chat; null otherwise.
- summary: the running summary updated with this episode, at most {SUMMARY_MAX_WORDS} words.
Return only the JSON object."""


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


def build_messages(episode: Episode, context: ExtractionContext) -> list[ChatMessage]:
    """System = the fixed instruction block (cacheable upstream); user = roster, summary, time, episode."""
    user = (
        f"Reference time: {episode.reference_time.isoformat()}\n"
        f"Known entities (name | type | aliases):\n{_roster_block(context)}\n"
        f"Summary so far: {context.summary or '(start of source)'}\n"
        f"Episode ({episode.kind}):\n{_episode_block(episode)}"
    )
    return [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": user}]


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


def response_schema() -> JsonSchema:
    return JsonSchema(name="strata_extraction", schema=_strictify(LLMExtractionResponse.model_json_schema()))
