"""LLM adjudication of ambiguous entity resolutions: at most one call per episode, all cases together.

The planner calls it only for mentions its string and embedding scores could not decide. Any failure
(rate limit spent, malformed answer) falls back to the offline behaviour: a new entity with a reviewable
"possibly same as" suggestion, never a guess. Answers are cached by the exact prompt, like extractions.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from strata.ingest.cached_call import cached_call
from strata.ingest.prompts.adjudication import (
    ADJUDICATION_VERSION,
    INSTRUCTIONS,
    AdjudicationResponse,
    response_schema,
)
from strata.ingest.protocols import LLM, Cache, ChatMessage, JsonSchema
from strata.resolve.planner import AmbiguousCase
from strata.schema.models import Episode, TokenUsage

log = logging.getLogger(__name__)
CONTEXT_CHARS = 300  # text around each mention shown to the model
MAX_CONTEXTS = 2


class LLMAdjudicator:
    """Implements the planner's Adjudicator; ``adjudicate`` also returns what the call cost (for accounting)."""

    def __init__(self, llm: LLM, cache: Cache | None = None) -> None:
        self.llm = llm
        self.cache = cache

    def __call__(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> dict[int, str | None]:
        return self.adjudicate(episode, cases)[0]

    def adjudicate(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> tuple[dict[int, str | None], TokenUsage]:
        if not cases:
            return {}, TokenUsage()
        messages: list[ChatMessage] = [{"role": "system", "content": INSTRUCTIONS},
                                       {"role": "user", "content": render_cases(episode, cases)}]
        # bounded by the number of cases, so a weak model cannot repeat decisions until max_tokens
        schema = JsonSchema(name="entity_adjudication", schema=response_schema(max_items=len(cases)))
        answer, usage = cached_call(self.llm, self.cache, ADJUDICATION_VERSION, messages, schema,
                                    AdjudicationResponse, f"adjudication for episode {episode.uuid}")
        if answer is None:
            return {}, usage
        out: dict[int, str | None] = {}
        for d in answer.decisions:
            if 0 <= d.case < len(cases):
                candidates = cases[d.case].candidates
                out[d.case] = candidates[d.candidate].uuid if (
                    d.candidate is not None and 0 <= d.candidate < len(candidates)) else None
        return out, usage


def render_cases(episode: Episode, cases: Sequence[AmbiguousCase]) -> str:
    lines = []
    for k, case in enumerate(cases):
        group = case.mention
        forms = ", ".join(sorted({group.name, *group.aliases}))
        lines.append(f"Case {k}: mention \"{group.name}\" (forms in this text: {forms}; type {group.type})")
        for span in group.spans[:MAX_CONTEXTS]:
            start = max(0, span.start - CONTEXT_CHARS // 2)
            snippet = " ".join(episode.content[start:span.end + CONTEXT_CHARS // 2].split())
            lines.append(f"  context: ...{snippet}...")
        for c, cand in enumerate(case.candidates):
            aliases = ", ".join(a for a in cand.aliases if a != cand.name)[:200]
            lines.append(f"  candidate {c}: {cand.name} ({cand.type}){'; also called ' + aliases if aliases else ''}")
    return "\n".join(lines)
