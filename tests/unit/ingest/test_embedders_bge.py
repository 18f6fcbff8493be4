"""bge-small on the real model that `strata services models` unpacks (skipped, with the command, when absent)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from strata.ingest.embedders import OnnxBgeSmallEmbedder, QueryCache, make_bge_small, make_embedder, query_mode
from strata.ingest.embedders.onnx_bge import QUERY_PREFIX
from strata.schema.errors import ConfigError
from strata.schema.model_files import BGE_SMALL
from strata.schema.settings import Settings

SETTINGS = Settings(_env_file=None)
INSTALLED = (SETTINGS.model_dir(BGE_SMALL.folder) / BGE_SMALL.model).exists()
needs_model = pytest.mark.skipif(not INSTALLED, reason=f"bge-small not installed: run {BGE_SMALL.install}")


@pytest.fixture(scope="module")
def bge() -> OnnxBgeSmallEmbedder:
    return make_bge_small(SETTINGS)


@needs_model
def test_a_paraphrase_ranks_above_an_unrelated_sentence(bge: OnnxBgeSmallEmbedder) -> None:
    (query,) = bge.embed_queries(["Where did Caroline go hiking?"])
    near, far, other = bge.embed(["Caroline walked the mountain trails last weekend.",
                                  "Melanie has to file her tax return next week.",
                                  "The stock market fell sharply today."])
    assert len(query) == 384 and np.linalg.norm(near) == pytest.approx(1.0, abs=1e-4)
    assert np.dot(query, near) > np.dot(query, far) + 0.1
    assert np.dot(query, near) > np.dot(query, other) + 0.1


@needs_model
def test_queries_carry_the_instruction_and_passages_do_not(bge: OnnxBgeSmallEmbedder) -> None:
    text = "When did John move to Boston?"
    (asked,) = bge.embed_queries([text])
    (stored,) = bge.embed([text])
    (prefixed,) = bge.embed([QUERY_PREFIX + text])
    assert np.allclose(asked, prefixed, atol=1e-5)
    assert not np.allclose(asked, stored, atol=1e-3)
    assert query_mode(bge) == bge.embed_queries


@needs_model
def test_batching_and_order_barely_change_vectors(bge: OnnxBgeSmallEmbedder) -> None:
    # The int8 export quantizes activations per batch (dynamic quantization): a text's vector moves a little
    # with its batch companions (cosine about 0.996), never its order in the output.
    texts = ["short", "a much longer sentence about the weather in the mountains today", "mid length text"]
    together = np.asarray(bge.embed(texts))
    alone = np.asarray([bge.embed([t])[0] for t in reversed(texts)][::-1])
    assert ((together * alone).sum(axis=1) > 0.99).all()


@needs_model
def test_the_setting_selects_it() -> None:
    embedder = make_embedder(Settings(_env_file=None, embedder="bge-small"))
    assert isinstance(embedder, OnnxBgeSmallEmbedder) and embedder.name == "bge-small"


def test_a_missing_model_names_the_command_that_installs_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="strata services models"):
        make_embedder(Settings(_env_file=None, embedder="bge-small", models_dir=tmp_path))


def test_the_query_cache_counts_hits_and_keeps_the_newest() -> None:
    calls: list[list[str]] = []

    def embed(texts):
        calls.append(list(texts))
        return [[float(len(t))] for t in texts]

    cache = QueryCache(embed, size=2)
    assert cache(["a", "bb"]) == [[1.0], [2.0]]
    assert cache(["bb", "ccc"]) == [[2.0], [3.0]]  # "bb" from the cache; "a" dropped (least recent)
    assert cache(["a"]) == [[1.0]]
    assert calls == [["a", "bb"], ["ccc"], ["a"]]
    assert (cache.hits, cache.misses) == (1, 4)
