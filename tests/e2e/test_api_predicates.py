"""A predicate a client names is read the way it was written (issue 14): statements saying ``plays_for`` or
``Plays For`` are stored as the ontology's ``plays_for`` and every filter (facts, search, MCP, a correction)
takes the same steps; the fact keeps what the client wrote."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.integration
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

CAREER = {"facts": [
    {"subject": "Ada Striker", "subject_type": "Person", "predicate": "plays_for", "object": "Avalon United",
     "object_type": "Organization", "valid_at": "2019-07-01T00:00:00Z"},
    {"subject": "Ben Keeper", "subject_type": "Person", "predicate": "Plays For", "object": "Avalon United",
     "object_type": "Organization", "valid_at": "2020-07-01T00:00:00Z"},
    {"subject": "Ada Striker", "subject_type": "Person", "predicate": "works_at", "object": "Avalon Sports Lab",
     "object_type": "Organization", "valid_at": "2021-01-01T00:00:00Z"}]}


def listed(client, group, headers, predicate) -> list[tuple[str, str, str | None]]:
    r = client.get(f"/v1/groups/{group}/facts", headers=headers, params={"predicate": predicate})
    assert r.status_code == 200, r.text
    return sorted((f["subject_name"], f["predicate"], f["predicate_text"]) for f in r.json()["items"])


def test_a_predicate_is_read_the_way_it_was_written(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=CAREER)
    assert r.status_code == 202, r.text

    players = [("Ada Striker", "plays_for", "plays_for"), ("Ben Keeper", "plays_for", "Plays For")]
    for spelling in ("plays_for", "play_for", "Plays For", "played for"):
        assert listed(client, group_id, h, spelling) == players, spelling
    # An ontology synonym is read as its canonical predicate, and the fact keeps the client's word.
    assert listed(client, group_id, h, "works_at") == [("Ada Striker", "employed_by", "works_at")]
    assert listed(client, group_id, h, "employed_by") == [("Ada Striker", "employed_by", "works_at")]

    hits = client.get(f"/v1/groups/{group_id}/search", headers=h,
                      params={"q": "Avalon", "kinds": "fact", "predicates": "plays_for"}).json()["hits"]
    assert sorted(x["fact"]["subject_name"] for x in hits) == ["Ada Striker", "Ben Keeper"]
    assert {x["fact"]["predicate_text"] for x in hits} == {"plays_for", "Plays For"}

    rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "list_facts", "arguments": {"group": group_id, "predicate": "plays_for"}}}
    mcp = client.post("/mcp/", headers={**ACCEPT, **h}, content=json.dumps(rpc))
    assert mcp.status_code == 200 and mcp.json()["result"].get("isError") is not True, mcp.text
    assert "Ada Striker" in mcp.text and "Ben Keeper" in mcp.text


def test_a_correction_stores_its_predicate_as_ingest_would(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": CAREER["facts"][:1]})
    fact = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"predicate": "plays_for"}).json()["items"][0]
    fixed = client.post(f"/v1/facts/{fact['uuid']}:correct", headers=h,
                        json={"predicate": "works_for", "reason": "she is staff, not a player"})
    assert fixed.status_code == 200, fixed.text
    assert listed(client, group_id, h, "works_for") == [("Ada Striker", "employed_by", "works_for")]
    assert listed(client, group_id, h, "plays_for") == []
