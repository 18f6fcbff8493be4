"""What an ingest would cost on the LLM path, before anything runs: episodes, calls, prompt tokens.

Prompt tokens are counted with the bundled WordPiece tokenizer of the offline embedder (all-MiniLM-L6-v2,
``ingest/assets/minilm-tokenizer.json``): no network and no model-specific tokenizer needed. It is an
approximation of the provider's count (docs/benchmarks.md compares it with a served model's). The roster
and running summary an episode is sent with depend on what earlier episodes yield, so they are not counted:
at most MAX_ROSTER entities and SUMMARY_MAX_WORDS words more per episode.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from strata.ingest.extractors.cache import cache_key
from strata.ingest.prompts.extraction import PROMPT_VERSION, SUMMARY_MAX_WORDS, SchemaLimits, build_messages
from strata.ingest.protocols import EMPTY_CONTEXT, MAX_ROSTER, Cache
from strata.schema.models import Episode
from strata.schema.settings import Settings

if TYPE_CHECKING:
    from tokenizers import Tokenizer

TOKENIZER = "WordPiece (bundled all-MiniLM-L6-v2 vocabulary)"


class Estimate(BaseModel):
    extractor: str
    model: str
    episodes: int
    llm_episodes: int  # episodes an extractor call would read (structured `facts` episodes need none)
    cached: int  # of those, already answered in the LLM cache: no call
    # With STRATA_EXTRACTOR=llm (the figures are the same whatever the configured extractor):
    calls: int  # expected extraction calls: one per uncached episode (a reply cut at max_tokens adds more)
    max_adjudication_calls: int  # at most one more per LLM episode, only when resolution is left ambiguous
    prompt_tokens: int  # instructions + episode of every expected call, without roster and summary
    max_context_entities: int = MAX_ROSTER
    max_summary_words: int = SUMMARY_MAX_WORDS
    tokenizer: str = TOKENIZER


@cache
def _tokenizer() -> Tokenizer:
    from tokenizers import Tokenizer

    path = Path(str(resources.files("strata.ingest") / "assets" / "minilm-tokenizer.json"))
    tok = Tokenizer.from_file(str(path))
    tok.no_truncation()  # the embedder truncates at 256; a prompt is counted whole
    tok.no_padding()
    return tok


def count_tokens(texts: Sequence[str]) -> list[int]:
    """WordPiece tokens per text, without the [CLS]/[SEP] the tokenizer adds for the embedder."""
    return [len(e.ids) - 2 for e in _tokenizer().encode_batch(list(texts))]


def estimate(episodes: Sequence[Episode], settings: Settings, llm_cache: Cache | None = None) -> Estimate:
    """Counted for the LLM path, whichever extractor is configured (spaCy makes no call at all)."""
    limits = SchemaLimits.from_settings(settings)
    readable = [e for e in episodes if e.kind != "facts"]
    cached = [e for e in readable if llm_cache is not None
              and llm_cache.get(cache_key(e, settings.llm_model, PROMPT_VERSION, limits)) is not None]
    hits = {e.uuid for e in cached}
    to_call = [e for e in readable if e.uuid not in hits]
    prompts = [build_messages(e, EMPTY_CONTEXT, limits) for e in to_call]
    tokens = sum(count_tokens(["\n".join(m["content"] for m in p) for p in prompts])) if prompts else 0
    return Estimate(extractor=settings.extractor, model=settings.llm_model, episodes=len(episodes),
                    llm_episodes=len(readable), cached=len(cached), calls=len(to_call),
                    max_adjudication_calls=len(readable), prompt_tokens=tokens)


__all__ = ["Estimate", "TOKENIZER", "count_tokens", "estimate"]
