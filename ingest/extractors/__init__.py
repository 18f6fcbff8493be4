"""Extractors behind the one Extractor protocol: spaCy (offline default) and an OpenAI-compatible LLM."""

from strata.ingest.extractors.cache import DirectoryCache, MemoryCache, cache_key
from strata.ingest.extractors.common import facts_extraction, locate_quote
from strata.ingest.extractors.dates import resolve_date
from strata.ingest.extractors.factory import make_extractor
from strata.ingest.extractors.llm import LLMExtractor
from strata.ingest.extractors.spacy_extractor import SpacyExtractor, load_nlp

__all__ = [
    "DirectoryCache",
    "LLMExtractor",
    "MemoryCache",
    "SpacyExtractor",
    "cache_key",
    "facts_extraction",
    "load_nlp",
    "locate_quote",
    "make_extractor",
    "resolve_date",
]
