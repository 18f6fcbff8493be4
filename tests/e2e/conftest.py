"""The API on the real services: an app whose episodes commit during the request, and keys per group."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from strata.graph.keys import create_key


@pytest.fixture(scope="session")
def client(settings, graph) -> Iterator[TestClient]:
    from strata.api.app import create_app

    with TestClient(create_app(settings, inline=True), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def make_key(graph) -> Iterator[Callable[..., dict[str, str]]]:
    created: list[str] = []

    def make(groups: list[str], rights: str = "rw") -> dict[str, str]:
        key = create_key(graph, groups, rights, name="test")
        created.append(key.key.id)
        return {"Authorization": f"Bearer {key.token}"}

    yield make
    graph.query("MATCH (k:ApiKey) WHERE k.id IN $ids DETACH DELETE k", ids=created)


@pytest.fixture
def other_group(graph) -> Iterator[str]:
    gid = f"test-{uuid.uuid4().hex[:10]}"
    yield gid
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=gid)
