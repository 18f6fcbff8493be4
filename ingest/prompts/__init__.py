"""Versioned prompts, each beside the pydantic models of the JSON it asks for."""

from strata.ingest.prompts.extraction import (
    INSTRUCTIONS,
    PROMPT_VERSION,
    LLMEntity,
    LLMExtractionResponse,
    LLMFact,
    LLMNote,
    SchemaLimits,
    build_messages,
    repair_messages,
    response_schema,
)

__all__ = [
    "INSTRUCTIONS",
    "PROMPT_VERSION",
    "SchemaLimits",
    "LLMEntity",
    "LLMExtractionResponse",
    "LLMFact",
    "LLMNote",
    "build_messages",
    "repair_messages",
    "response_schema",
]
