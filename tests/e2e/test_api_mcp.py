"""The MCP endpoint over streamable HTTP with the same keys: tools work in the key's group only."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.integration
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def rpc(client, headers, method, params=None, id_=1):
    body = {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}
    r = client.post("/mcp/", headers={**ACCEPT, **headers}, content=json.dumps(body))
    return r


def init(client, headers):
    return rpc(client, headers, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                               "clientInfo": {"name": "test", "version": "0"}})


def test_mcp_tools_with_keys(client, group_id, other_group, make_key) -> None:
    h = make_key([group_id], "rw")
    r = init(client, h)
    assert r.status_code == 200, r.text
    tools = rpc(client, h, "tools/list").json()["result"]["tools"]
    assert {"add_episode", "search", "get_context", "get_entity", "entity_timeline", "list_facts",
            "retract_episode"} <= {
        t["name"] for t in tools}
    added = rpc(client, h, "tools/call", {"name": "add_episode", "arguments": {
        "group": group_id, "content": "Marie Curie worked in Paris.", "reference_time": "1900-01-01T00:00:00Z"}})
    assert added.status_code == 200, added.text
    assert added.json()["result"].get("isError") is not True, added.text
    found = rpc(client, h, "tools/call", {"name": "search", "arguments": {"group": group_id, "query": "Curie Paris"}})
    assert "Marie Curie" in found.text
    block = rpc(client, h, "tools/call", {"name": "get_context", "arguments": {
        "group": group_id, "query": "Where did Curie work?", "budget_tokens": 200}})
    assert block.json()["result"].get("isError") is not True, block.text
    assert "Memory for" in block.text and "Paris" in block.text
    denied = rpc(client, h, "tools/call", {"name": "search", "arguments": {"group": other_group, "query": "x"}})
    assert denied.json()["result"]["isError"] is True and "forbidden" in denied.text


def _tool(client, h, name, **arguments):
    r = rpc(client, h, "tools/call", {"name": name, "arguments": arguments})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    return result, result.get("structuredContent")


def test_mcp_merges_and_suggestions(client, graph, group_id, make_key) -> None:
    from strata.graph.queries.commit import RECORD_SUGGESTIONS
    from strata.schema.models import utcnow

    h = make_key([group_id], "rw")
    init(client, h)
    body = {"kind": "facts", "reference_time": "2024-01-01T00:00:00Z",
            "facts": [{"subject": n, "subject_type": "Person", "predicate": "lives_in", "object": "Bath",
                       "object_type": "Place"} for n in ("Lizzy Bennet", "Elizabeth Bennet", "Arthur Pym",
                                                         "Eliza Bennet")]}
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=body).status_code == 202
    ids = {f["subject_name"]: f["subject_uuid"]
           for f in client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]}
    lizzy, eliz, pym, eliza = ids["Lizzy Bennet"], ids["Elizabeth Bennet"], ids["Arthur Pym"], ids["Eliza Bennet"]

    result, merged = _tool(client, h, "merge_entities", uuid=lizzy, into=eliz, reason="same woman")
    assert result.get("isError") is not True and merged["into"] == eliz
    _, entity = _tool(client, h, "get_entity", uuid=lizzy)
    assert entity["uuid"] == eliz  # merges hold
    result, undone = _tool(client, h, "undo_merge", uuid=eliz, record=merged["record_uuid"])
    assert result.get("isError") is not True and undone["restored"] == lizzy

    graph.query(RECORD_SUGGESTIONS, group_id=group_id, now=utcnow(),
                rows=[{"entity_uuid": lizzy, "candidate_uuid": eliz, "score": 0.95},
                      {"entity_uuid": eliza, "candidate_uuid": eliz, "score": 0.9},
                      {"entity_uuid": pym, "candidate_uuid": eliz, "score": 0.6}])
    _, listed = _tool(client, h, "list_suggestions", group=group_id)
    # the undone merge keeps Lizzy and Elizabeth apart: never suggested again (docs/resolution.md)
    assert [(s["entity_name"], s["candidate_name"]) for s in listed["result"]] == [
        ("Eliza Bennet", "Elizabeth Bennet"), ("Arthur Pym", "Elizabeth Bennet")]
    result, _ = _tool(client, h, "review_suggestion", entity=pym, candidate=eliz, decision="reject")
    assert result.get("isError") is not True
    result, accepted = _tool(client, h, "review_suggestion", entity=eliza, candidate=eliz, decision="accept")
    assert result.get("isError") is not True and accepted["merged"] == eliza
    _, listed = _tool(client, h, "list_suggestions", group=group_id)
    assert listed["result"] == []
    wrong, _ = _tool(client, h, "review_suggestion", entity=pym, candidate=eliz, decision="maybe")
    assert wrong["isError"] is True
