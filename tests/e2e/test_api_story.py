"""Story time over REST and MCP: the same cut for facts, timeline, neighbourhood and search; clear 4xx errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

BOOK = """THE STORY OF ANN

CHAPTER I

Ann Archer lived in Bath with her aunt. Ann Archer was married to Bob Baker.

CHAPTER II

Bob Baker died in the winter. Ann Archer moved to York.

CHAPTER III

Ann Archer married Carl Conway. Ann Archer moved to Leeds.
"""


def _upload(client, group_id: str, h: dict, name: str, text: str) -> None:
    up = client.post(f"/v1/groups/{group_id}/sources", headers=h, data={"format": "book", "name": name},
                     files={"file": (name, text.encode(), "text/plain")})
    assert up.status_code == 202 and up.json()["done"] == up.json()["total"], up.text


def test_story_cut_through_every_read(client, group_id, make_key) -> None:
    h = make_key([group_id])
    _upload(client, group_id, h, "ann.txt", BOOK)
    url = f"/v1/groups/{group_id}/facts"
    where = {c: {f["object_name"] for f in client.get(url, headers=h, params={"predicate": "lives_in",
                                                                              "as_of_chapter": c}).json()["items"]}
             for c in (1, 2, 3)}
    assert where == {1: {"Bath"}, 2: {"York"}, 3: {"Leeds"}}
    item = client.get(url, headers=h, params={"predicate": "lives_in"}).json()["items"][0]
    assert (item["object_name"], item["story_chapter"], item["story_until"]) == ("Leeds", 3, None)
    ann = item["subject_uuid"]
    timeline = client.get(f"/v1/entities/{ann}/timeline", headers=h).json()["facts"]
    assert [f["story_at"] for f in timeline] == sorted(f["story_at"] for f in timeline)
    early = client.get(f"/v1/entities/{ann}/timeline", headers=h, params={"as_of_chapter": 1}).json()["facts"]
    assert {f["story_chapter"] for f in early} == {1}
    around = client.get(f"/v1/entities/{ann}/neighborhood", headers=h, params={"as_of_chapter": 2}).json()
    assert {f["object_name"] for f in around["facts"] if f["predicate"] == "lives_in"} == {"York"}
    hits = client.get(f"/v1/groups/{group_id}/search", headers=h,
                      params={"q": "Ann Archer moved", "kinds": "fact", "as_of_chapter": 1}).json()["hits"]
    assert hits and all(hit["fact"]["story_chapter"] == 1 for hit in hits)

    bad = client.get(url, headers=h, params={"as_of_chapter": 1, "as_of": "2020-01-01T00:00:00Z"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
    assert client.get(url, headers=h, params={"as_of_chapter": 7}).status_code == 404
    _upload(client, group_id, h, "dora.txt", BOOK.replace("Ann Archer", "Dora Dunn"))
    several = client.get(url, headers=h, params={"as_of_chapter": 1})
    assert several.status_code == 400 and "source" in several.json()["error"]["message"]
    dora = client.get(url, headers=h, params={"as_of_chapter": 2, "source": "dora.txt", "predicate": "lives_in"})
    assert [(f["subject_name"], f["object_name"]) for f in dora.json()["items"]] == [("Dora Dunn", "York")]


def test_story_cut_through_mcp(client, group_id, make_key) -> None:
    h = make_key([group_id])
    _upload(client, group_id, h, "ann.txt", BOOK)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "list_facts", "arguments": {"group": group_id, "predicate": "lives_in",
                                                           "as_of_chapter": 2}}}
    r = client.post("/mcp/", headers={**h, "Accept": "application/json, text/event-stream"}, json=call)
    assert r.status_code == 200 and r.json()["result"].get("isError") is not True, r.text
    assert 'York' in r.text and 'Leeds' not in r.text
