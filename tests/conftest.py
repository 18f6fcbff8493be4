"""Fixtures for the real services.

Neo4j and Redis come from ``NEO4J_URI`` / ``REDIS_URL`` when set; otherwise testcontainers is tried (its
constructors raise ``DockerException`` where no engine runs); otherwise the services that
``strata services up`` manages are used, started here if they are not running.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from strata.schema.settings import Settings
from tests.support.shared_data import REPO, shared_path


def _from_testcontainers() -> tuple[str, str, object, object] | None:
    try:
        from docker.errors import DockerException
        from testcontainers.community.neo4j import Neo4jContainer
        from testcontainers.community.redis import RedisContainer
    except ImportError:
        return None
    try:
        neo = Neo4jContainer("neo4j:5.26-community")
        red = RedisContainer("redis:7")
        neo.start()
        red.start()
    except DockerException:
        return None
    redis_url = f"redis://{red.get_container_host_ip()}:{red.get_exposed_port(6379)}/0"
    return neo.get_connection_url(), redis_url, neo, red


@pytest.fixture(scope="session")
def service_urls() -> Iterator[dict[str, str]]:
    neo4j_uri, redis_url = os.environ.get("NEO4J_URI"), os.environ.get("REDIS_URL")
    containers: tuple[object, ...] = ()
    if not (neo4j_uri and redis_url):
        found = _from_testcontainers()
        if found:
            neo4j_uri, redis_url, *containers = found
        else:
            from strata.services import ServicesManager

            cfg = Settings(services_dir=REPO / ".services")
            ServicesManager(cfg).up(only_missing=True)
            neo4j_uri, redis_url = cfg.neo4j_uri, cfg.redis_url
    yield {"neo4j_uri": neo4j_uri, "redis_url": redis_url}
    for container in containers:
        container.stop()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def settings(service_urls: dict[str, str]) -> Settings:
    return Settings(neo4j_uri=service_urls["neo4j_uri"], redis_url=service_urls["redis_url"],
                    services_dir=REPO / ".services", _env_file=None)


@pytest.fixture(scope="session")
def graph(settings: Settings):
    from strata.graph import Graph, apply_migrations

    g = Graph.from_settings(settings)
    apply_migrations(g, settings.embedding_dim)
    yield g
    g.close()


@pytest.fixture
def group_id(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh group per test; its nodes are removed afterwards (when a graph was used)."""
    gid = f"test-{uuid.uuid4().hex[:10]}"
    yield gid
    if "graph" in request.fixturenames:
        g = request.getfixturevalue("graph")
        g.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=gid)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The project's shared data folder beside the checkout; a clone without it skips what needs it."""
    return shared_path()
