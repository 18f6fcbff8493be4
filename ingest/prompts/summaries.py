"""The summary prompts: one call condenses what the graph says about an entity, or about a community from its
members' summaries, into a few sentences."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

SUMMARY_PROMPT_VERSION = "summary-2026.1"

ENTITY_INSTRUCTIONS = """You write the summary of one entity of a knowledge graph: at most {max_chars} characters,
in plain sentences, saying who or what it is and the most important things the numbered statements say
about it now. Use only those statements; do not guess or add anything. Name people and places as the
statements do. Return JSON only: {{"summary": "..."}}"""

COMMUNITY_INSTRUCTIONS = """You write the summary of a group of closely related entities of a knowledge graph: at most
{max_chars} characters, in plain sentences, saying what ties the group together and who or what matters most
in it. Use only the member summaries given; do not guess or add anything. Return JSON only: {{"summary": "..."}}"""


class SummaryResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str


def response_schema(max_chars: int) -> dict[str, Any]:
    # maxLength lets grammar-constrained servers (llama.cpp, vLLM) stop the model; the reply is cut anyway.
    return {"type": "object", "additionalProperties": False, "required": ["summary"],
            "properties": {"summary": {"type": "string", "maxLength": max_chars}}}


def entity_prompt(name: str, type_: str, aliases: Sequence[str], lines: Sequence[str]) -> str:
    also = [a for a in aliases if a != name][:8]
    head = f"Entity: {name} ({type_})" + (f"; also called {', '.join(also)}" if also else "")
    return "\n".join([head, "Statements, most important first:", *(f"{k}. {line}" for k, line in
                                                                    enumerate(lines, start=1))])


def community_prompt(title: str, members: Sequence[tuple[str, str]]) -> str:
    lines = [f"Group: {title}", "Members and their summaries, most connected first:"]
    lines += [f"- {name}: {summary}" if summary else f"- {name}" for name, summary in members]
    return "\n".join(lines)
