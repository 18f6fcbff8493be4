"""Property-based fuzzing of every REST operation from the app's own OpenAPI schema (schemathesis, in-process ASGI),
with every check: no 5xx, responses that match their declared schema, schema-valid requests accepted and
schema-invalid ones rejected (so what the server enforces is what the document declares), Allow on 405, ...

The app runs on the real Neo4j and Redis with a key for two groups, one of them seeded: ``{group}`` is pinned to
the seeded group and the ``{uuid}`` of the entity, fact, episode and job operations to real objects of it, so
generated requests reach the handlers instead of stopping at 403/404. A second run leaves every parameter free
(random groups and uuids: the 403/404/422 paths). Settings shared with ``st run`` are in schemathesis.toml.
"""

from __future__ import annotations

import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.python import asgi

from strata.graph.keys import create_key
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration

EXAMPLES = 15  # per operation, in each run
SHARED_CONFIG = tomllib.loads((Path(__file__).resolve().parents[2] / "schemathesis.toml").read_text())
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
    return schemathesis.openapi.from_dict(raw, config=SchemathesisConfig.from_dict({**SHARED_CONFIG, **config}))


GROUP = f"test-st-{uuid.uuid4().hex[:10]}"
OTHER_GROUP = f"{GROUP}-b"  # the key's second group: never written, so reads of it are empty, not refused
pinned = _schema({"parameters": {"path.group": GROUP}, "generation": {"max-examples": EXAMPLES}})
free = _schema({"generation": {"max-examples": EXAMPLES}})
# The session fixture is per test (operation), not per example, on purpose; examples hit the real services.
FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                         deadline=None)
# The {uuid} of these operations is pinned to an object of the seeded group.
PINNED_UUIDS = {"/v1/entities/": "entity", "/v1/facts/": "fact", "/v1/episodes/": "episode", "/v1/jobs/": "job"}


@pytest.fixture(scope="module")
def fuzz(client, graph) -> Iterator[dict[str, Any]]:
    """The seeded group, an rw key for it and a second group, and the seeded group's object uuids."""
    key = create_key(graph, [GROUP, OTHER_GROUP], "rw", name="schemathesis")
    headers = {"Authorization": f"Bearer {key.token}"}
    r = client.post(f"/v1/groups/{GROUP}/episodes", headers=headers, json=SEED)
    assert r.status_code == 202, r.text
    facts = client.get(f"/v1/groups/{GROUP}/facts", headers=headers, params={"include_history": True}).json()
    assert facts["count"] == 3, facts
    yield {"headers": headers, "episode": r.json()["episode_uuid"], "job": r.json()["job_id"],
           "fact": facts["items"][0]["uuid"], "entity": facts["items"][0]["subject_uuid"]}
    graph.query("MATCH (n) WHERE n.group_id IN $g DETACH DELETE n", g=[GROUP, OTHER_GROUP])
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
    case.call_and_validate(base_url=f"http://{asgi.HOST}", session=session, headers=headers)


@pinned.parametrize()
@FUZZ_SETTINGS
def test_every_check_on_the_seeded_group(case, fuzz, session) -> None:
    for prefix, kind in PINNED_UUIDS.items():
        if case.operation.path.startswith(prefix) and "uuid" in (case.path_parameters or {}):
            case.path_parameters["uuid"] = fuzz[kind]
    _call(case, session, fuzz["headers"])


@free.parametrize()
@FUZZ_SETTINGS
def test_every_check_with_free_parameters(case, fuzz, session) -> None:
    _call(case, session, fuzz["headers"])
