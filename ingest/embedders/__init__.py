"""Embedders behind the one Embedder protocol: ONNX MiniLM (offline default), bge-small, OpenAI-compatible, hash."""

from strata.ingest.embedders.factory import make_bge_small, make_embedder, make_rescorer
from strata.ingest.embedders.hash_embedder import HashEmbedder
from strata.ingest.embedders.onnx_bge import OnnxBgeSmallEmbedder
from strata.ingest.embedders.onnx_minilm import OnnxMiniLMEmbedder
from strata.ingest.embedders.openai_embedder import OpenAIEmbedder
from strata.ingest.embedders.queries import QueryCache, embedder_record, query_mode

__all__ = ["HashEmbedder", "OnnxBgeSmallEmbedder", "OnnxMiniLMEmbedder", "OpenAIEmbedder", "QueryCache",
           "embedder_record", "make_bge_small", "make_embedder", "make_rescorer", "query_mode"]
