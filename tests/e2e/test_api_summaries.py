"""Summaries and communities over HTTP on the real services: refreshed on demand (write right), listed and
searched (read right), and shown in search hits and the context block."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

FACTS = [
    {"subject": "Wren Tallow", "subject_type": "Person", "predicate": "lives_in", "object": "Gullhaven",
     "object_type": "Place", "valid_at": "2024-01-01T00:00:00Z"},
    {"subject": "Wren Tallow", "subject_type": "Person", "predicate": "works_for", "object": "Tidewright Ropery",
     "object_type": "Organization", "valid_at": "2024-01-01T00:00:00Z"},
    {"subject": "Orrin Tallow", "subject_type": "Person", "predicate": "sibling_of", "object": "Wren Tallow",
     "object_type": "Person", "valid_at": "2024-01-01T00:00:00Z"},
    {"subject": "Orrin Tallow", "subject_type": "Person", "predicate": "works_for", "object": "Tidewright Ropery",
     "object_type": "Organization", "valid_at": "2024-01-01T00:00:00Z"},
]


@pytest.fixture
def town(client, group_id, make_key) -> dict[str, str]:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": FACTS})
    assert r.status_code == 202, r.text
    return h


def test_summaries_refresh_on_demand_and_show_in_hits_and_context(client, group_id, town, make_key) -> None:
    r = client.post(f"/v1/groups/{group_id}/summaries:refresh", headers=town, params={"force": "true"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["examined"] == 4 and body["complete"] and body["next_cursor"] is None
    hits = client.get(f"/v1/groups/{group_id}/search", headers=town,
                      params={"q": "Tidewright", "kinds": "entity"}).json()["hits"]
    wren = next(h for h in hits if h["entity"]["name"] == "Wren Tallow")
    assert "Tidewright Ropery" in wren["entity"]["summary"] and "Gullhaven" in wren["entity"]["summary"]
    block = client.get(f"/v1/groups/{group_id}/context", headers=town,
                       params={"q": "What about Wren Tallow and her home?", "budget_tokens": 500}).json()
    assert block["text"].splitlines()[1] == "Entities:" and "- Wren Tallow (Person): " in block["text"]
    # a question about a slot opens with its answer instead; the summary still comes
    slot = client.get(f"/v1/groups/{group_id}/context", headers=town,
                      params={"q": "Where does Wren Tallow live?", "budget_tokens": 500}).json()["text"]
    assert slot.splitlines()[1] == "Answer:" and "- Wren Tallow (Person): " in slot
    reader = make_key([group_id], "r")
    assert client.post(f"/v1/groups/{group_id}/summaries:refresh", headers=reader).status_code == 403


def test_communities_refresh_list_and_search(client, group_id, town, make_key) -> None:
    r = client.post(f"/v1/groups/{group_id}/communities:refresh", headers=town)
    assert r.status_code == 200, r.text
    run = r.json()
    assert run["written"] and run["communities"] == 1 and run["largest"] == 4
    reader = make_key([group_id], "r")
    listed = client.get(f"/v1/groups/{group_id}/communities", headers=reader).json()["communities"]
    assert len(listed) == 1 and listed[0]["size"] == 4 and len(listed[0]["title"].split(", ")) == 3
    assert {m["name"] for m in listed[0]["members"]} >= {"Wren Tallow", "Orrin Tallow", "Tidewright Ropery"}
    found = client.get(f"/v1/groups/{group_id}/communities", headers=reader, params={"q": "ropery"}).json()
    assert [c["uuid"] for c in found["communities"]] == [listed[0]["uuid"]]
    assert client.get(f"/v1/groups/{group_id}/communities", headers=reader,
                      params={"q": "lighthouse"}).json()["communities"] == []
    assert client.post(f"/v1/groups/{group_id}/communities:refresh", headers=reader).status_code == 403
    outsider = make_key([f"{group_id}-x"], "rw")
    assert client.get(f"/v1/groups/{group_id}/communities", headers=outsider).status_code == 403


def test_communities_through_mcp(client, group_id, town) -> None:
    from tests.e2e.test_api_mcp import init, rpc

    assert client.post(f"/v1/groups/{group_id}/communities:refresh", headers=town).status_code == 200
    assert init(client, town).status_code == 200
    found = rpc(client, town, "tools/call", {"name": "communities", "arguments": {"group": group_id,
                                                                                  "query": "Tidewright"}})
    assert found.json()["result"].get("isError") is not True, found.text
    assert "Wren Tallow" in found.text


def test_a_refresh_takes_one_batch_per_budget_and_the_cli_goes_on_to_the_end(client, group_id, town, settings
                                                                              ) -> None:
    """The same knobs everywhere (RefreshSummariesRequest): over REST a run past its budget stops after the batch
    in hand (``batch`` entities) and says where to go on; the CLI goes on from there by itself to the end."""
    import json

    from typer.testing import CliRunner

    from strata.api.cli import app

    tiny = {"force": "true", "batch": 1, "budget_s": 1e-6}
    r = client.post(f"/v1/groups/{group_id}/summaries:refresh", headers=town, params=tiny)
    assert r.status_code == 200, r.text
    first = r.json()
    assert first["examined"] == 1 and not first["complete"] and first["next_cursor"]
    more = client.post(f"/v1/groups/{group_id}/summaries:refresh", headers=town,
                       params={**tiny, "after": first["next_cursor"]}).json()
    assert more["examined"] == 1 and more["next_cursor"] > first["next_cursor"]  # uuid order, going on
    env = {"STRATA_NEO4J_URI": settings.neo4j_uri, "STRATA_REDIS_URL": settings.redis_url}
    done = CliRunner().invoke(app, ["summaries", "refresh", "--group", group_id, "--force", "--batch", "1",
                                    "--budget-s", "0.000001", "--json"], env=env)
    assert done.exit_code == 0, done.output
    whole = json.loads(done.stdout)
    assert whole["examined"] == 4 and whole["complete"] and whole["next_cursor"] is None
    refused = CliRunner().invoke(app, ["summaries", "refresh", "--group", group_id, "--batch", "0"], env=env)
    assert refused.exit_code == 2 and "batch" in refused.output
