"""An unreachable embedding endpoint: search and name resolution answer from full text and the graph, and say so."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from strata.api.app import create_app
from strata.ingest.embedders import OpenAIEmbedder
from strata.ingest.llm_client import OpenAIEmbeddingsAPI
from strata.memory import Runtime
from tests.e2e.test_api_flow import office

pytestmark = pytest.mark.integration


@pytest.fixture
def unreachable_embedder_client(settings, graph) -> Iterator[TestClient]:
    """The API whose embedder is the real OpenAI client aimed at a port nobody listens on (no retry)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api = OpenAIEmbeddingsAPI(model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key="k", max_retries=0)
    embedder = OpenAIEmbedder(api, dimension=settings.embedding_dim)
    embedder.name = settings.embedder  # the group's own embedder, out of reach (not another model: that is refused)
    rt = Runtime(settings=settings, graph=graph, embedder=embedder)
    with TestClient(create_app(settings, runtime=rt), raise_server_exceptions=False) as c:
        yield c


def test_search_and_name_resolution_answer_without_the_embedder(client, unreachable_embedder_client, group_id,
                                                                make_key) -> None:
    headers = make_key([group_id], "rw")
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=headers,
                       json=office("Ann Archer", 1990)).status_code == 202
    assert client.get(f"/v1/groups/{group_id}/search", headers=headers,
                      params={"q": "Ann Archer"}).json()["degraded"] == []

    found = unreachable_embedder_client.get(f"/v1/groups/{group_id}/search", headers=headers,
                                            params={"q": "Ann Archer mayor"})
    assert found.status_code == 200, found.text
    body = found.json()
    assert body["degraded"] == ["vector"]
    assert any(h["fact"] and h["fact"]["predicate"] == "holds_office" for h in body["hits"])
    assert not any(c.endswith("_vector") for h in body["hits"] for c in h["channels"])

    named = unreachable_embedder_client.get(f"/v1/groups/{group_id}/entities", headers=headers,
                                            params={"name": "Ann Archer"})
    assert named.status_code == 200, named.text
    assert named.json()["degraded"] == ["vector"]
    assert named.json()["candidates"][0]["name"] == "Ann Archer"
