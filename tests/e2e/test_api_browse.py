"""The reads the explorer stands on: a fact with its provenance, a group's clocks, and /ui itself."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

CHAT = Path(__file__).resolve().parents[2] / "docs" / "samples" / "chat_sessions.json"
BOOK = """THE STORY OF ANN

CHAPTER I

Ann Archer lived in Bath with her aunt.

CHAPTER II

Ann Archer moved to York.
"""


def _upload(client, group_id: str, h: dict, name: str, fmt: str, body: bytes) -> None:
    up = client.post(f"/v1/groups/{group_id}/sources", headers=h, data={"format": fmt, "name": name},
                     files={"file": (name, body, "application/octet-stream")})
    assert up.status_code == 202 and up.json()["done"] == up.json()["total"], up.text


def test_fact_with_provenance(client, group_id, make_key, other_group) -> None:
    h = make_key([group_id])
    _upload(client, group_id, h, "chat.json", "sessions-json", CHAT.read_bytes())
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h,
                       params={"predicate": "lives_in", "include_history": True}).json()["items"]
    berlin = next(f for f in facts if f["subject_name"] == "Maya" and f["object_name"] == "Berlin")
    got = client.get(f"/v1/facts/{berlin['uuid']}", headers=h)
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["fact"]["uuid"] == berlin["uuid"] and body["said_at"].startswith("2024-06-03")
    prov = body["provenance"][0]
    assert prov["speaker"] == "Maya" and prov["source_name"] == "chat.json"
    assert any("I live in Berlin now" in m["text"] for m in prov["messages"])
    lisbon = next(f for f in facts if f["object_name"] == "Lisbon")
    ended = client.get(f"/v1/facts/{lisbon['uuid']}", headers=h).json()["fact"]
    assert ended["invalid_at"].startswith("2024-06-03")  # ended facts are read too

    stranger = make_key([other_group])
    assert client.get(f"/v1/facts/{berlin['uuid']}", headers=stranger).status_code == 404
    assert client.get("/v1/facts/no-such-fact", headers=h).status_code == 404


def test_group_clock(client, group_id, make_key) -> None:
    h = make_key([group_id])
    empty = client.get(f"/v1/groups/{group_id}/clock", headers=h).json()
    assert empty == {"days": [], "truncated": False, "books": []}
    _upload(client, group_id, h, "chat.json", "sessions-json", CHAT.read_bytes())
    _upload(client, group_id, h, "ann.txt", "book", BOOK.encode())
    clock = client.get(f"/v1/groups/{group_id}/clock", headers=h).json()
    assert {"2024-01-15", "2024-06-03", "2024-11-20"} <= set(clock["days"])
    assert clock["days"] == sorted(clock["days"])
    [book] = clock["books"]
    assert (book["name"], book["first_chapter"], book["last_chapter"]) == ("ann.txt", 0, 2)  # chapter 0: the title page
    assert book["length"] >= len("Ann Archer moved to York.")
    short = client.get(f"/v1/groups/{group_id}/clock", headers=h, params={"limit": 1}).json()
    assert len(short["days"]) == 1 and short["truncated"] is True


def test_explorer_pages_are_served(client) -> None:
    assert client.get("/ui", follow_redirects=False).status_code in (307, 308)
    page = client.get("/ui/")
    assert page.status_code == 200 and "Strata explorer" in page.text
    assert client.get("/ui/vendor/cytoscape.min.js").status_code == 200
    assert "textContent" in client.get("/ui/app.js").text
