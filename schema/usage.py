"""What the LLM path cost: calls and tokens of one episode, or of a job (its episodes summed)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class LLMUsage(BaseModel):
    """Extraction, adjudication and the summaries of the entities an episode touched, over every attempt (a failed
    attempt's calls were paid too)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = Field(default=0, ge=0)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    extraction_calls: int = Field(default=0, ge=0)
    adjudication_calls: int = Field(default=0, ge=0)
    summary_calls: int = Field(default=0, ge=0)  # entity summaries written after the commit (ingest/summaries.py)
    # answers served from the LLM cache (extraction, adjudication or summary): calls not made
    cache_hits: int = Field(default=0, ge=0)

    def __add__(self, other: LLMUsage) -> LLMUsage:
        return LLMUsage(**{k: getattr(self, k) + getattr(other, k) for k in LLMUsage.model_fields})

    def properties(self) -> dict[str, int]:
        """As Episode node properties (``llm_`` prefixed), the form graph/queries/episodes.py adds up."""
        return {f"llm_{k}": v for k, v in self.model_dump().items()}

    @classmethod
    def from_properties(cls, props: dict[str, Any]) -> LLMUsage:
        return cls(**{k: int(props.get(f"llm_{k}") or 0) for k in cls.model_fields})


__all__ = ["LLMUsage"]
