"""Property-based fuzzing of every REST operation from the app's own OpenAPI schema (schemathesis, in-process ASGI).

The app runs on the real Neo4j and Redis with a key for one dedicated, seeded group: ``{group}`` is pinned to that
group and the ``{uuid}`` of the entity, fact and episode operations to real objects of it, so generated requests
reach the handlers instead of stopping at 403/404. Whatever the inputs, the server must never answer 5xx.
A second, smaller run leaves every parameter free (random groups and uuids: the 400/403/404 paths).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.python import asgi

from strata.graph.keys import create_key
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration

PINNED_EXAMPLES = 20
FREE_EXAMPLES = 8
SEED = {"facts": [
    {"subject": "Ann Archer", "subject_type": "Person", "predicate": "holds_office", "object": "Mayor of Avalon",
     "object_type": "Office", "valid_at": "1990-01-01T00:00:00Z", "functional": "object"},
    {"subject": "Ben Baker", "subject_type": "Person", "predicate": "holds_office", "object": "Mayor of Avalon",
     "object_type": "Office", "valid_at": "1995-01-01T00:00:00Z", "functional": "object"},
    {"subject": "Ann Archer", "subject_type": "Person", "predicate": "member_of", "object": "Avalon Council",
     "object_type": "Organization", "valid_at": "1990-01-01T00:00:00Z"}]}


def _schema(config: dict[str, Any]):
    """The app's OpenAPI document, built without starting the app (no services needed at collection)."""
    from strata.api.app import create_app

    raw = create_app(Settings(_env_file=None)).openapi()
    return schemathesis.openapi.from_dict(raw, config=SchemathesisConfig.from_dict(config))


GROUP = f"test-st-{uuid.uuid4().hex[:10]}"
pinned = _schema({"parameters": {"path.group": GROUP}, "generation": {"max-examples": PINNED_EXAMPLES}})
free = _schema({"generation": {"max-examples": FREE_EXAMPLES}})
# The session fixture is per test (operation), not per example, on purpose; examples hit the real services.
FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                         deadline=None)
# The {uuid} of these operations is pinned to an object of the seeded group.
PINNED_UUIDS = {"/v1/entities/": "entity", "/v1/facts/": "fact", "/v1/episodes/": "episode", "/v1/jobs/": "job"}


@pytest.fixture(scope="module")
def fuzz(client, graph) -> Iterator[dict[str, Any]]:
    """The seeded group, an rw key for it, and its object uuids."""
    key = create_key(graph, [GROUP], "rw", name="schemathesis")
    headers = {"Authorization": f"Bearer {key.token}"}
    r = client.post(f"/v1/groups/{GROUP}/episodes", headers=headers, json=SEED)
    assert r.status_code == 202, r.text
    facts = client.get(f"/v1/groups/{GROUP}/facts", headers=headers, params={"include_history": True}).json()
    assert facts["count"] == 3, facts
    yield {"headers": headers, "episode": r.json()["episode_uuid"], "job": r.json()["job_id"],
           "fact": facts["items"][0]["uuid"], "entity": facts["items"][0]["subject_uuid"]}
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=GROUP)
    graph.query("MATCH (k:ApiKey {id: $id}) DETACH DELETE k", id=key.key.id)


@pytest.fixture
def session(client) -> Iterator[asgi.ASGIClient]:
    """An in-process session on a fresh app sharing the runtime of ``client`` (same driver and embedder).
    Fresh per test: schemathesis ends the app's lifespan after each test, and the MCP session manager of an app
    can run only once."""
    from strata.api.app import create_app

    rt = client.app.state.runtime
    with asgi.get_client(create_app(rt.settings, inline=True, runtime=rt)) as s:
        yield s


def _call(case, session: asgi.ASGIClient, headers: dict[str, str]) -> None:
    case.call_and_validate(base_url=f"http://{asgi.HOST}", session=session, headers=headers,
                           checks=[not_a_server_error])


@pinned.parametrize()
@FUZZ_SETTINGS
def test_no_server_error_on_the_seeded_group(case, fuzz, session) -> None:
    for prefix, kind in PINNED_UUIDS.items():
        if case.operation.path.startswith(prefix) and "uuid" in (case.path_parameters or {}):
            case.path_parameters["uuid"] = fuzz[kind]
    _call(case, session, fuzz["headers"])


@free.parametrize()
@FUZZ_SETTINGS
def test_no_server_error_with_free_parameters(case, fuzz, session) -> None:
    _call(case, session, fuzz["headers"])
