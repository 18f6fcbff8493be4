"""What the OpenAPI document declares is what the server enforces: formats, required values, Allow on a 405.
The app is built without its lifespan: none of these requests reaches a service."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from strata.graph.keys import GROUP
from strata.schema.plan import PREDICATE
from strata.schema.settings import Settings


@pytest.fixture(scope="module")
def app():
    from strata.api.app import create_app

    return create_app(Settings(_env_file=None))


@pytest.fixture(scope="module")
def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture(scope="module")
def doc(app) -> dict:
    return app.openapi()


def test_every_group_path_declares_the_group_id_pattern_the_server_checks(doc: dict) -> None:
    group_paths = [p for p in doc["paths"] if "{group}" in p]
    assert len(group_paths) > 10
    for path in group_paths:
        for op in doc["paths"][path].values():
            group = next(p for p in op["parameters"] if p["name"] == "group" and p["in"] == "path")
            assert group["schema"]["pattern"] == GROUP.pattern, path


def test_a_correction_declares_the_predicate_format(doc: dict) -> None:
    body = doc["components"]["schemas"]["Correction"]["properties"]["predicate"]
    assert PREDICATE.pattern in [branch.get("pattern") for branch in body.get("anyOf", [body])]


def test_an_episode_declares_exactly_one_body(doc: dict) -> None:
    required = [branch["required"] for branch in doc["components"]["schemas"]["EpisodeIn"]["oneOf"]]
    assert required == [["content"], ["messages"], ["facts"]]


@pytest.mark.parametrize(("method", "path", "template"), [
    ("OPTIONS", "/v1/entities/6b0c5e4e-0000-5000-8000-000000000000:merge", "/v1/entities/{uuid}:merge"),
    ("DELETE", "/v1/facts/0f6e2a52-8c1d-5b8e-9a55-3f0d7a1c2b11:correct", "/v1/facts/{uuid}:correct"),
    ("OPTIONS", "/v1/episodes/0f6e2a52-8c1d-5b8e-9a55-3f0d7a1c2b11", "/v1/episodes/{uuid}"),
    ("PUT", "/v1/groups/demo/episodes", "/v1/groups/{group}/episodes"),
])
def test_a_405_names_the_documented_methods_of_the_resource_asked(client: TestClient, doc: dict, method: str,
                                                                   path: str, template: str) -> None:
    r = client.request(method, path)
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert set(re.split(r",\s*", r.headers["allow"])) == {m.upper() for m in doc["paths"][template]}
