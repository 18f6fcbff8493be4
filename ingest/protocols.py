"""Narrow provider interfaces for extraction: one method each, so test doubles stay tiny.

SDKs (spaCy, onnxruntime, openai) are imported only by the adapters that implement these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from strata.schema.errors import ExtractionError
from strata.schema.models import Episode, Extraction, TokenUsage

MAX_ROSTER = 200
MAX_SUMMARY_WORDS = 150


class RosterEntry(BaseModel):
    """A known entity the extractor should resolve pronouns and descriptions to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    type: str = "Entity"
    aliases: tuple[str, ...] = ()


class ExtractionContext(BaseModel):
    """What an extractor may know beyond the episode: a capped roster and a short running summary.

    Deliberately not previous episodes: re-sending them is what makes peers cost 3-10x per episode.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    roster: tuple[RosterEntry, ...] = Field(default=(), max_length=MAX_ROSTER)
    summary: str = ""

    @field_validator("summary")
    @classmethod
    def _cap_summary(cls, value: str) -> str:
        words = value.split()
        return " ".join(words[:MAX_SUMMARY_WORDS]) if len(words) > MAX_SUMMARY_WORDS else value.strip()


EMPTY_CONTEXT = ExtractionContext()


class ChatMessage(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str


class JsonSchema(BaseModel):
    """A named JSON schema for structured output (OpenAI ``response_format.json_schema``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-zA-Z0-9_-]{1,64}$")
    schema_: dict[str, Any] = Field(alias="schema")
    strict: bool = True


class MalformedOutputError(ExtractionError):
    """The model answered, but not with one complete JSON object; the caller may ask it to repair."""

    code = "malformed_output"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message, details)

    @property
    def raw(self) -> str:
        return str(self.details.get("raw", ""))

    @property
    def truncated(self) -> bool:
        return bool(self.details.get("truncated", False))

    @property
    def usage(self) -> TokenUsage:
        return TokenUsage(
            calls=int(self.details.get("calls", 0)),
            prompt_tokens=int(self.details.get("prompt_tokens", 0)),
            completion_tokens=int(self.details.get("completion_tokens", 0)),
        )


@runtime_checkable
class Extractor(Protocol):
    def extract(self, episode: Episode, context: ExtractionContext) -> Extraction: ...


@runtime_checkable
class Embedder(Protocol):
    """``embed`` is for what is stored; a model that embeds questions differently also has ``embed_queries``
    (ingest/embedders/queries.py). A ``name``, where it has one, is recorded per group (graph/embedder_meta.py;
    a test double without one is known by its class)."""

    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@runtime_checkable
class LLM(Protocol):
    """One chat completion returning one JSON object.

    Raises MalformedOutputError for non-JSON or truncated output, RetryableError subclasses once its own
    retries are spent, ExtractionError/ConfigError for requests that cannot succeed.
    """

    model: str

    def complete(
        self, messages: Sequence[ChatMessage], schema: JsonSchema | None
    ) -> tuple[dict[str, Any], TokenUsage]: ...


@runtime_checkable
class Cache(Protocol):
    """A JSON-document cache; a miss returns None. Implementations must tolerate concurrent writers."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def set(self, key: str, value: dict[str, Any]) -> None: ...


def add_usage(a: TokenUsage, b: TokenUsage) -> TokenUsage:
    return TokenUsage(
        calls=a.calls + b.calls,
        prompt_tokens=a.prompt_tokens + b.prompt_tokens,
        completion_tokens=a.completion_tokens + b.completion_tokens,
        cached=a.cached and b.cached,
    )


__all__ = [
    "EMPTY_CONTEXT",
    "MAX_ROSTER",
    "MAX_SUMMARY_WORDS",
    "LLM",
    "Cache",
    "ChatMessage",
    "Embedder",
    "ExtractionContext",
    "Extractor",
    "JsonSchema",
    "MalformedOutputError",
    "RosterEntry",
    "add_usage",
]
