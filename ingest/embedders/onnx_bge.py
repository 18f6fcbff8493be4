"""bge-small-en-v1.5 (int8 ONNX, 384 dimensions), unpacked at install time from a Maven Central jar.

Pooled on the first token ([CLS]) and L2-normalized, as the model was trained; queries carry the model's
instruction prefix, passages none (``embed`` is for what is stored, ``embed_queries`` for what is asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from strata.ingest.embedders.onnx_runner import encode, first_token_pooling, load
from strata.schema.errors import ConfigError
from strata.schema.model_files import BGE_SMALL

DIMENSION = 384
MAX_TOKENS = 512
QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
NAME = "bge-small"


def check_installed(folder: Path) -> None:
    missing = [name for name in (BGE_SMALL.model, BGE_SMALL.tokenizer) if not (folder / name).exists()]
    if missing:
        raise ConfigError(f"the bge-small model is not installed ({', '.join(missing)} missing in {folder}); "
                          f"run {BGE_SMALL.install}", {"folder": str(folder), "missing": missing})


class OnnxBgeSmallEmbedder:
    dimension = DIMENSION
    name = NAME

    def __init__(self, folder: Path, batch_size: int = 32, threads: int | None = None) -> None:
        check_installed(folder)
        self.folder = folder
        self.batch_size = batch_size
        self.threads = threads

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Passages (what is stored and searched): no prefix."""
        return self._run(list(texts))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._run([QUERY_PREFIX + t for t in texts])

    def _run(self, texts: list[str]) -> list[list[float]]:
        if not texts:  # nothing to embed loads no model
            return []
        session, tokenizer = load(str(self.folder / BGE_SMALL.model), str(self.folder / BGE_SMALL.tokenizer),
                                  MAX_TOKENS, self.threads)
        return encode(session, tokenizer, texts, DIMENSION, self.batch_size, first_token_pooling)
