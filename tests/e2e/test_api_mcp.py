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
