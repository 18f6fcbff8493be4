"""Build the configured embedder and check its dimension against the configured index dimension."""

from __future__ import annotations

from strata.graph.rescore import Rescorer
from strata.ingest.embedders.hash_embedder import HashEmbedder
from strata.ingest.embedders.onnx_bge import OnnxBgeSmallEmbedder
from strata.ingest.embedders.onnx_minilm import OnnxMiniLMEmbedder
from strata.ingest.embedders.openai_embedder import OpenAIEmbedder
from strata.ingest.embedders.queries import QueryCache
from strata.ingest.protocols import Embedder
from strata.schema.errors import SchemaMismatchError
from strata.schema.model_files import BGE_SMALL
from strata.schema.settings import Settings


def make_embedder(settings: Settings, for_queries: bool = False) -> Embedder:
    """``for_queries``: the API's embedder (one short text at a time; ``query_embedding_threads``)."""
    embedder: Embedder
    if settings.embedder == "hash":
        embedder = HashEmbedder(dimension=settings.embedding_dim)
    elif settings.embedder == "onnx-minilm":
        threads = settings.query_embedding_threads if for_queries else settings.embedding_threads
        embedder = OnnxMiniLMEmbedder(threads=threads or None)
    elif settings.embedder == "bge-small":
        embedder = make_bge_small(settings, for_queries)
    else:
        from strata.ingest.llm_client import OpenAIEmbeddingsAPI  # openai only where it is used

        key = settings.embedding_api_key or settings.llm_api_key
        api = OpenAIEmbeddingsAPI(
            model=settings.embedding_model,
            base_url=settings.embedding_base_url or settings.llm_base_url,
            api_key=key.get_secret_value() if key else None,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
        )
        embedder = OpenAIEmbedder(api, settings.embedding_dim,
                                  send_dimensions=settings.embedding_model.startswith("text-embedding-3"))
    if embedder.dimension != settings.embedding_dim:
        raise SchemaMismatchError(
            f"embedder {settings.embedder!r} gives {embedder.dimension} dimensions, "
            f"settings.embedding_dim is {settings.embedding_dim}",
            {"embedder": settings.embedder, "dimension": embedder.dimension, "configured": settings.embedding_dim},
        )
    return embedder


def make_bge_small(settings: Settings, for_queries: bool = False) -> OnnxBgeSmallEmbedder:
    """bge-small from the folder `strata services models` unpacks (ConfigError naming that command if absent)."""
    threads = settings.query_embedding_threads if for_queries else settings.embedding_threads
    return OnnxBgeSmallEmbedder(settings.model_dir(BGE_SMALL.folder), threads=threads or None)


def make_rescorer(settings: Settings, embedder: Embedder | None = None, for_queries: bool = False) -> Rescorer | None:
    """The rescoring stage's model when ``settings.rescore_embedder`` names one (``embedder`` reused when it is
    that model), its queries through a bounded cache; None when the stage is off."""
    if settings.rescore_embedder == "none":
        return None
    # the stage reads the stored vectors' cosines when they are bge-small's already
    stored = isinstance(embedder, OnnxBgeSmallEmbedder)
    model = embedder if isinstance(embedder, OnnxBgeSmallEmbedder) else make_bge_small(settings, for_queries)
    return Rescorer(model.name, model.embed, QueryCache(model.embed_queries, settings.query_cache_size),
                    settings.rescore_depth, stored=stored)
