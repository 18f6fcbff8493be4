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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

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
# ignored_auth probes without credentials over a network connection of its own, which an in-process app does not
# have; `st run` against a served app runs it (and the rights tests cover every route).
IN_PROCESS_EXCLUDED = [ignored_auth]
# An uploaded file's content must parse as its `format`, and a `cursor` must be a `next_cursor` the server gave,
# which OpenAPI cannot state: a schema-valid upload of arbitrary bytes or an invented cursor is refused (400), so
# "schema-valid requests are accepted" is not asked of them.
CONTENT_CHECKED = ("/v1/groups/{group}/sources",)


def _time(value: object) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return parsed.replace(tzinfo=parsed.tzinfo or UTC) if parsed else None


def breaks_a_rule_between_parameters(case: Any) -> bool:
    """Rules between parameters that OpenAPI cannot state (docs/api.md states them): a story cut is a position
    or a chapter, not both, and not beside as_of; source names the book of a story cut, so not without one; a
    said_after / said_before window is not empty; a retention policy keeps passages no longer than raw text.
    Only for the operation's own method: schemathesis also sends other methods to each path (405 expected)."""
    if case.method.upper() != case.operation.method.upper():
        return False
    body = case.body if isinstance(case.body, dict) else {}
    raw, passages = body.get("raw_text_days"), body.get("passages_days")
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in (raw, passages)) and passages > raw:
        return True
    query = case.query or {}
    declared = {p.get("name") for p in case.operation.definition.raw.get("parameters", [])}
    cut = "as_of_position" in query or "as_of_chapter" in query
    named = bool(query.get("source"))  # an empty source names no book, as the server reads it
    if "as_of_position" in declared and (named and not cut or cut and "as_of" in query):
        return True
    if "as_of_position" in query and "as_of_chapter" in query:
        return True
    after, before = _time(query.get("said_after")), _time(query.get("said_before"))
    return after is not None and before is not None and after >= before


# The fixture key's header, sent in place of the credentials schemathesis generates (set by the fuzz fixture).
AUTH: dict[str, str] = {}


@schemathesis.hook
def before_call(ctx, case, **kwargs) -> None:
    """Every request carries the fixture's key. Set here, where schemathesis re-checks what a hook changes, a
    request whose only fault was its generated credentials is judged as the valid request it then is."""
    if AUTH:
        headers = dict(case.headers or {})
        for name in ("Authorization", "X-API-Key"):
            headers.pop(name, None)
        case.headers = {**headers, **AUTH}


# The session fixture is per test (operation), not per example, on purpose; examples hit the real services.
# Derandomized: the same examples on every run, so CI answers for the code, not for the draw (`st run` and a
# local `--hypothesis-seed` explore further).
FUZZ_SETTINGS = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                         deadline=None, derandomize=True)
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
    AUTH.update(headers)
    yield {"headers": headers, "episode": r.json()["episode_uuid"], "job": r.json()["job_id"],
           "fact": facts["items"][0]["uuid"], "entity": facts["items"][0]["subject_uuid"]}
    graph.query("MATCH (n) WHERE n.group_id IN $g DETACH DELETE n", g=[GROUP, OTHER_GROUP])
    graph.query("MATCH (k:ApiKey {id: $id}) DETACH DELETE k", id=key.key.id)
    AUTH.clear()


@pytest.fixture
def session(client) -> Iterator[asgi.ASGIClient]:
    """An in-process session on a fresh app sharing the runtime of ``client`` (same driver and embedder).
    Fresh per test: schemathesis ends the app's lifespan after each test, and the MCP session manager of an app
    can run only once."""
    from strata.api.app import create_app

    rt = client.app.state.runtime
    with asgi.get_client(create_app(rt.settings, inline=True, runtime=rt)) as s:
        yield s


def _call(case, session: asgi.ASGIClient, headers: dict[str, str], refused: tuple[int, ...] = (400, 422)) -> None:
    base_url = f"http://{asgi.HOST}"
    if breaks_a_rule_between_parameters(case):  # refused, whatever else is right or wrong in the request
        response = case.call(base_url=base_url, session=session, headers=headers)
        # 404 first when the object is gone: an earlier operation of the run may purge the pinned episode
        assert response.status_code in (*refused, 404), response.text
        return
    opaque = case.operation.path in CONTENT_CHECKED or "cursor" in (case.query or {})
    excluded = IN_PROCESS_EXCLUDED + ([positive_data_acceptance] if opaque else [])
    case.call_and_validate(base_url=base_url, session=session, headers=headers, excluded_checks=excluded)


def _pin(case, fuzz: dict[str, Any]) -> None:
    """A uuid the schema allows becomes a real object's of the seeded group; one it does not (over 64
    characters) stays, to be refused."""
    for prefix, kind in PINNED_UUIDS.items():
        uuid_ = (case.path_parameters or {}).get("uuid")
        if case.operation.path.startswith(prefix) and isinstance(uuid_, str) and len(uuid_) <= 64:
            case.path_parameters["uuid"] = fuzz[kind]


@pinned.parametrize()
@FUZZ_SETTINGS
def test_no_operation_answers_a_server_error(case, fuzz, session) -> None:
    _pin(case, fuzz)
    case.call_and_validate(base_url=f"http://{asgi.HOST}", session=session, headers=fuzz["headers"],
                           checks=[not_a_server_error])


@pinned.parametrize()
@FUZZ_SETTINGS
def test_every_check_on_the_seeded_group(case, fuzz, session) -> None:
    _pin(case, fuzz)
    _call(case, session, fuzz["headers"])


@free.parametrize()
@FUZZ_SETTINGS
def test_every_check_with_free_parameters(case, fuzz, session) -> None:
    _call(case, session, fuzz["headers"], refused=(400, 403, 404, 422))  # a random group or uuid: 403 or 404 first
