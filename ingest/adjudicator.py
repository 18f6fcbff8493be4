"""LLM adjudication of ambiguous entity resolutions: at most one call per episode, all cases together.

The planner calls it only for mentions its string and embedding scores could not decide. Any failure
(rate limit spent, malformed answer) falls back to the offline behaviour: a new entity with a reviewable
"possibly same as" suggestion, never a guess.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pydantic import ValidationError

from strata.ingest.prompts.adjudication import INSTRUCTIONS, AdjudicationResponse, response_schema
from strata.ingest.protocols import LLM, ChatMessage, JsonSchema
from strata.resolve.planner import AmbiguousCase
from strata.schema.errors import StrataError
from strata.schema.models import Episode, TokenUsage

log = logging.getLogger(__name__)
CONTEXT_CHARS = 300  # text around each mention shown to the model
MAX_CONTEXTS = 2


class LLMAdjudicator:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.schema = JsonSchema(name="entity_adjudication", schema=response_schema())
        self.usage = TokenUsage()

    def __call__(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> dict[int, str | None]:
        if not cases:
            return {}
        messages: list[ChatMessage] = [{"role": "system", "content": INSTRUCTIONS},
                                       {"role": "user", "content": render_cases(episode, cases)}]
        try:
            data, usage = self.llm.complete(messages, self.schema)
            answer = AdjudicationResponse.model_validate(data)
        except (StrataError, ValidationError) as exc:
            log.warning("adjudication failed for episode %s: %s", episode.uuid, exc)
            return {}
        self.usage = TokenUsage(calls=self.usage.calls + usage.calls,
                                prompt_tokens=self.usage.prompt_tokens + usage.prompt_tokens,
                                completion_tokens=self.usage.completion_tokens + usage.completion_tokens)
        out: dict[int, str | None] = {}
        for d in answer.decisions:
            if 0 <= d.case < len(cases):
                candidates = cases[d.case].candidates
                out[d.case] = candidates[d.candidate].uuid if (
                    d.candidate is not None and 0 <= d.candidate < len(candidates)) else None
        return out


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
