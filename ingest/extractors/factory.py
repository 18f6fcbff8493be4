"""Build the configured extractor from Settings (one place that chooses spaCy or LLM)."""

from __future__ import annotations

from strata.ingest.extractors.cache import make_cache
from strata.ingest.extractors.llm import LLMExtractor
from strata.ingest.extractors.spacy_extractor import SpacyExtractor
from strata.ingest.prompts.extraction import SchemaLimits
from strata.ingest.protocols import LLM, Cache, Extractor
from strata.schema.settings import Settings


def make_extractor(settings: Settings, llm: LLM | None = None, cache: Cache | None = None) -> Extractor:
    """``spacy`` needs nothing; ``llm`` uses the given LLM or the openai adapter built from settings, and the
    given cache or the one settings configure (``STRATA_LLM_CACHE``, a directory by default)."""
    if settings.extractor == "spacy":
        return SpacyExtractor()
    if llm is None:
        from strata.ingest.llm_client import OpenAIChatLLM  # keeps openai out of spaCy-only workers

        llm = OpenAIChatLLM.from_settings(settings)
    return LLMExtractor(llm, cache=cache if cache is not None else make_cache(settings),
                        max_split_depth=settings.llm_max_split_depth, limits=SchemaLimits.from_settings(settings))
