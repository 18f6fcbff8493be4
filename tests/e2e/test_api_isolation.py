"""Auth ON: a key never sees another group; 401/403/404/413 with machine-readable bodies."""

from __future__ import annotations

import pytest

from tests.e2e.test_api_flow import CHAT, office

pytestmark = pytest.mark.integration


@pytest.fixture
def seeded(client, group_id, other_group, make_key):
    """Data in group B (other_group); a read-write key for group A (group_id) only."""
    hb = make_key([other_group], "rw")
    chat = client.post(f"/v1/groups/{other_group}/episodes", headers=hb, json=CHAT).json()
    facts = client.post(f"/v1/groups/{other_group}/episodes", headers=hb, json=office("Ann Archer", 1990)).json()
    listing = client.get(f"/v1/groups/{other_group}/facts", headers=hb).json()
    ent = client.get(f"/v1/groups/{other_group}/entities", headers=hb, params={"name": "Ann Archer"}).json()
    b = {"chat": chat, "facts": facts, "fact": listing["items"][0]["uuid"], "entity": ent["candidates"][0]["uuid"],
         "names": {"Ann Archer", "Mayor of Avalon", "alice", "bob", "Lisbon"}}
    return make_key([group_id], "rw"), b, hb


def test_group_b_is_invisible_to_a_key_for_group_a(client, group_id, other_group, seeded) -> None:
    ha, b, _ = seeded
    group_paths = ["search?q=Ann+Archer", "entities?name=Ann+Archer", "facts", "schema",
                   "paths?from=Ann+Archer&to=Mayor+of+Avalon"]
    for path in group_paths:
        r = client.get(f"/v1/groups/{other_group}/{path}", headers=ha)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"]["code"] == "forbidden"
        own = client.get(f"/v1/groups/{group_id}/{path}", headers=ha)
        assert own.status_code == 200, (path, own.text)
        text = own.text
        for secret in (b["fact"], b["entity"], b["chat"]["episode_uuid"], "Mayor of Avalon"):
            assert secret not in text, (path, secret)
    by_uuid = [("GET", f"/v1/entities/{b['entity']}"), ("GET", f"/v1/entities/{b['entity']}/neighborhood"),
               ("GET", f"/v1/entities/{b['entity']}/timeline"), ("GET", f"/v1/episodes/{b['chat']['episode_uuid']}"),
               ("GET", f"/v1/jobs/{b['chat']['job_id']}"), ("DELETE", f"/v1/episodes/{b['facts']['episode_uuid']}")]
    for method, path in by_uuid:
        r = client.request(method, path, headers=ha)
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"]["code"] == "not_found"
    r = client.post(f"/v1/facts/{b['fact']}:correct", headers=ha, json={"fact": "hijacked"})
    assert r.status_code == 404
    r = client.post(f"/v1/entities/{b['entity']}:merge", headers=ha, json={"into": b["entity"]})
    assert r.status_code == 404
    r = client.post(f"/v1/groups/{other_group}/episodes", headers=ha, json={"content": "x"})
    assert r.status_code == 403
    # Centering a search of A on an entity of B expands nothing of B.
    r = client.get(f"/v1/groups/{group_id}/search", headers=ha, params={"center": b["entity"]})
    assert r.status_code == 200 and r.json()["hits"] == []


def test_auth_errors_are_clear(client, group_id, make_key) -> None:
    r = client.get(f"/v1/groups/{group_id}/facts")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = client.get(f"/v1/groups/{group_id}/facts", headers={"Authorization": "Bearer stk_0000000000000000_" + "x" * 40})
    assert r.status_code == 401 and "invalid" in r.json()["error"]["message"]
    reader = make_key([group_id], "r")
    assert client.get(f"/v1/groups/{group_id}/facts", headers=reader).status_code == 200
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=reader, json={"content": "hello"})
    assert r.status_code == 403 and r.json()["error"]["details"]["right"] == "w"
    x_api_key = {"X-API-Key": reader["Authorization"].split()[1]}
    assert client.get(f"/v1/groups/{group_id}/schema", headers=x_api_key).status_code == 200


def test_limits(client, settings, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    big = "x" * (settings.max_request_bytes + 10)
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"content": big})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    r = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": "a", "limit": 1000})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"content": "a", "messages": []})
    assert r.status_code == 422
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["status"] == "ready"
    assert "strata_http_requests_total" in client.get("/metrics").text
