"""Liveness, readiness (Neo4j, Redis, migrations) and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel

from strata.api.deps import memory
from strata.memory import Memory

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str


class Readiness(BaseModel):
    status: str
    neo4j: bool
    redis: bool
    migrations: bool
    pending_migrations: list[str] = []


@router.get("/healthz", response_model=Health)
def healthz() -> Health:
    """The process is up (does not touch any backing service)."""
    return Health(status="ok")


@router.get("/readyz", response_model=Readiness, responses={503: {"model": Readiness}})
def readyz(mem: Memory = Depends(memory)) -> JSONResponse:
    """Neo4j and Redis answer and every migration is applied; 503 otherwise."""
    neo4j, pending = mem.graph_ready()
    redis_ok = _redis_ok(mem.settings.redis_url)
    ready = neo4j and redis_ok and not pending
    body = Readiness(status="ready" if ready else "not_ready", neo4j=neo4j, redis=redis_ok,
                     migrations=neo4j and not pending, pending_migrations=pending)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
def metrics() -> Response:
    """Prometheus metrics from the default registry."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


def _redis_ok(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False
