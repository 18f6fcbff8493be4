"""The entity-adjudication prompt: one call per episode decides every mention resolution left ambiguous."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ADJUDICATION_VERSION = "adjudicate-2026.1"

INSTRUCTIONS = """You resolve entity mentions in a text against entities already known.
For each numbered case you get the mention as written (with other forms seen in the same text), the
sentences where it appears, and numbered candidate entities. Answer with the candidate number the
mention refers to, or null when it is none of them (a different entity with a similar name).
Different people who share a surname, a title or a first name are different entities: only choose a
candidate when the text makes it clear. Return JSON only."""


class CaseDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    case: int
    candidate: int | None = Field(description="the candidate number, or null for a new entity")


class AdjudicationResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decisions: list[CaseDecision]


def response_schema(max_items: int | None = None) -> dict[str, Any]:
    decisions: dict[str, Any] = {"type": "array"} if max_items is None else {"type": "array", "maxItems": max_items}
    return {
        "type": "object", "additionalProperties": False, "required": ["decisions"],
        "properties": {"decisions": {**decisions, "items": {
            "type": "object", "additionalProperties": False, "required": ["case", "candidate"],
            "properties": {"case": {"type": "integer"}, "candidate": {"type": ["integer", "null"]}}}}},
    }
