"""Embedders: ONNX MiniLM quality, hash determinism, the OpenAI-compatible client on the wire server."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

from strata.ingest.embedders import HashEmbedder, OnnxMiniLMEmbedder, OpenAIEmbedder, make_embedder
from strata.ingest.embedders.onnx_minilm import tokenizer_path
from strata.ingest.llm_client import OpenAIEmbeddingsAPI
from strata.ingest.protocols import Embedder
from strata.schema.errors import SchemaMismatchError, UpstreamUnavailableError
from strata.schema.settings import Settings


def cos(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


def test_minilm_matches_known_similarities(minilm: OnnxMiniLMEmbedder) -> None:
    food, bread, horse, stocks = minilm.embed(
        ["A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse.",
         "Stock markets fell sharply today."]
    )
    assert len(food) == 384 and np.linalg.norm(food) == pytest.approx(1.0, abs=1e-4)
    # sentence-transformers' documented score for this pair with all-MiniLM-L6-v2 is 0.7553
    assert cos(food, bread) == pytest.approx(0.755, abs=0.02)
    assert cos(food, horse) < 0.35 and abs(cos(food, stocks)) < 0.1


def test_minilm_paraphrase_high_unrelated_low(minilm: OnnxMiniLMEmbedder) -> None:
    a, b, c = minilm.embed(
        ["How do I bake bread at home?", "What is a good recipe for homemade bread?",
         "Elizabeth refused Mr. Darcy's first proposal."]
    )
    assert cos(a, b) > 0.6 and abs(cos(a, c)) < 0.15 and cos(a, b) > 4 * abs(cos(a, c))


def test_minilm_batching_and_order_do_not_change_vectors(minilm: OnnxMiniLMEmbedder) -> None:
    texts = [f"sentence number {i} " + "word " * (i % 7) for i in range(70)] + ["x " * 600]
    together = np.array(minilm.embed(texts))
    small = np.array(OnnxMiniLMEmbedder(batch_size=5).embed(texts))
    single = np.array(minilm.embed([texts[3]])[0])
    assert np.allclose(together, small, atol=1e-4)
    assert np.allclose(together[3], single, atol=1e-4)
    assert minilm.embed([]) == []


def test_minilm_leaves_the_cpu_idle_between_calls(minilm: OnnxMiniLMEmbedder) -> None:
    # The API embeds each search's query beside Neo4j on the same cores: onnxruntime's worker threads spin
    # after each run by default (about half a second of CPU over this loop), which the session must turn off.
    minilm.embed(["warm up"])
    burned = 0.0
    for _ in range(50):
        minilm.embed(["where does Ann work"])
        before = time.process_time()
        time.sleep(0.01)
        burned += time.process_time() - before
    assert burned < 0.1


def test_tokenizer_is_vendored_and_torch_stays_out() -> None:
    assert tokenizer_path().is_file()
    code = ("import sys; from strata.ingest.embedders import OnnxMiniLMEmbedder as E; E().embed(['hi']); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_hash_embedder_is_deterministic_and_normalized() -> None:
    emb = HashEmbedder(dimension=64)
    a, b, c, empty = emb.embed(["Alice lives in Paris", "alice lives in paris!", "Bob works at Acme", ""])
    assert a == b and np.linalg.norm(a) == pytest.approx(1.0)
    assert cos(a, HashEmbedder(dimension=64).embed(["Alice lives in Paris now"])[0]) > 0.5
    assert abs(cos(a, c)) < 0.5 and np.linalg.norm(empty) == pytest.approx(1.0)
    assert isinstance(emb, Embedder)


def test_openai_embedder_batches_on_the_wire(openai_server: Any) -> None:
    openai_server.embedding_dim = 16
    api = OpenAIEmbeddingsAPI(model="embed-test", base_url=openai_server.base_url, api_key="k",
                              backoff_base_s=0.01)
    emb = OpenAIEmbedder(api, dimension=16, batch_size=4)
    texts = [f"text {i}" for i in range(10)] + [""]
    vectors = emb.embed(texts)
    assert len(vectors) == 11 and all(len(v) == 16 for v in vectors)
    calls = openai_server.requests_to("/embeddings")
    assert [len(r.body["input"]) for r in calls] == [4, 4, 3]
    assert calls[-1].body["input"][-1] == " "
    assert vectors[0] == emb.embed(["text 0"])[0]


def test_openai_embedder_retries_and_checks_dimension(openai_server: Any, wire: Any) -> None:
    openai_server.embedding_dim = 8
    openai_server.embeddings(wire.Reply.error(503), wire.Reply.rate_limited(retry_after=0.05))
    api = OpenAIEmbeddingsAPI(model="m", base_url=openai_server.base_url, api_key="k", backoff_base_s=0.01)
    assert len(OpenAIEmbedder(api, dimension=8).embed(["a"])[0]) == 8
    assert len(openai_server.requests) == 3
    with pytest.raises(SchemaMismatchError):
        OpenAIEmbedder(api, dimension=12).embed(["a"])
    openai_server.embeddings(*[wire.Reply.error(500)] * 2)
    broken = OpenAIEmbeddingsAPI(model="m", base_url=openai_server.base_url, api_key="k", max_retries=1,
                                 backoff_base_s=0.01)
    with pytest.raises(UpstreamUnavailableError):
        OpenAIEmbedder(broken, dimension=8).embed(["a"])


def test_make_embedder_checks_dimension(openai_server: Any) -> None:
    assert make_embedder(Settings(_env_file=None, embedder="hash", embedding_dim=32)).dimension == 32
    assert isinstance(make_embedder(Settings(_env_file=None)), OnnxMiniLMEmbedder)
    with pytest.raises(SchemaMismatchError):
        make_embedder(Settings(_env_file=None, embedder="onnx-minilm", embedding_dim=1536))
    remote = make_embedder(Settings(_env_file=None, embedder="openai", embedding_dim=8,
                                    embedding_base_url=openai_server.base_url, embedding_model="local"))
    assert len(remote.embed(["x"])[0]) == 8
    assert "dimensions" not in openai_server.requests[-1].body
