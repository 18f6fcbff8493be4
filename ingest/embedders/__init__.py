"""Embedders behind the one Embedder protocol: ONNX MiniLM (offline default), OpenAI-compatible, hash."""

from strata.ingest.embedders.factory import make_embedder
from strata.ingest.embedders.hash_embedder import HashEmbedder
from strata.ingest.embedders.onnx_minilm import OnnxMiniLMEmbedder
from strata.ingest.embedders.openai_embedder import OpenAIEmbedder

__all__ = ["HashEmbedder", "OnnxMiniLMEmbedder", "OpenAIEmbedder", "make_embedder"]
