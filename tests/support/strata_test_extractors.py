"""Test-only extractors, selected in workers with STRATA_EXTRACTOR_FACTORY=strata_test_extractors:<name>."""

from __future__ import annotations

import time

from strata.ingest.extractors import make_extractor
from strata.ingest.protocols import EMPTY_CONTEXT, ExtractionContext, Extractor
from strata.schema.models import Episode, Extraction
from strata.schema.settings import Settings

POISON = "POISON-PILL"


class PoisonAware:
    """The configured extractor, except that an episode containing POISON-PILL raises every time."""

    def __init__(self, inner: Extractor, delay_s: float = 0.0) -> None:
        self.inner = inner
        self.delay_s = delay_s

    def extract(self, episode: Episode, context: ExtractionContext = EMPTY_CONTEXT) -> Extraction:
        if POISON in episode.content:
            raise RuntimeError(f"poisoned episode {episode.seq}")
        if self.delay_s:
            time.sleep(self.delay_s)
        return self.inner.extract(episode, context)


def poison(settings: Settings) -> Extractor:
    return PoisonAware(make_extractor(settings))


def slow(settings: Settings) -> Extractor:
    """50 ms per episode, so a test can kill a worker mid-job."""
    return PoisonAware(make_extractor(settings), delay_s=0.05)
