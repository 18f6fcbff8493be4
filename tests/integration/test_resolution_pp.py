"""Entity resolution on the Pride and Prejudice character list, through the real graph candidates."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from strata.graph import Graph
from strata.ingest.embedders import OnnxMiniLMEmbedder
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.testing.pp_resolution import load_characters, resolve_aliases

pytestmark = pytest.mark.integration


def test_aliases_resolve_to_their_character_and_the_bennets_stay_apart(graph: Graph, shared_data: Path) -> None:
    path = shared_data / "entity_resolution" / "pdnc" / "PrideAndPrejudice" / "character_info.csv"
    characters = load_characters(path)
    group = f"test-pp-er-{random.randrange(10**8)}"
    try:
        report = resolve_aliases(Pipeline(graph, SpacyExtractor(), OnnxMiniLMEmbedder()), group, characters)
        assert report.unexpected_collisions == []
        assert report.wrong == 0, report.errors
        assert report.precision == 1.0
        assert report.evaluated > 30
        family = ["Mr. Bennet", "Mrs. Bennet", "Jane", "Elizabeth", "Mary", "Kitty", "Lydia"]
        assert len({report.main_uuids[name] for name in family}) == len(family)
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
