"""The consolidation pass and undo through the HTTP API: POST /groups/{g}/consolidate, the merge records,
POST /entities/{uuid}/merges/{record}/undo."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

EPISODES = [{"content": "Mr. Gardiner came to Fernley with Mrs. Gardiner. Mr. Gardiner was kind to Mrs. Gardiner."},
            {"content": "Gardiner laughed at the joke, and then Gardiner walked to the church."}]


def top(client, group, headers, name: str) -> str | None:
    r = client.get(f"/v1/groups/{group}/entities", params={"name": name, "limit": 1}, headers=headers)
    assert r.status_code == 200, r.text
    cands = r.json()["candidates"]
    return cands[0]["uuid"] if cands else None


def test_consolidate_then_undo_over_http(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    for body in EPISODES:
        assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=body).status_code == 202
    bare = top(client, group_id, h, "Gardiner")
    mr = top(client, group_id, h, "Mr. Gardiner")
    assert bare and mr and bare != mr  # the bare surname stayed apart in its episode (Mr. or Mrs.?)

    r = client.post(f"/v1/groups/{group_id}/consolidate", headers=h)
    assert r.status_code == 200, r.text
    [result] = r.json()
    merge = next(m for m in result["merges"] if m["merged"] == bare)
    assert merge["into"] == mr and merge["rule"].startswith("bare_surname")
    assert top(client, group_id, h, "Gardiner") == mr != top(client, group_id, h, "Mrs. Gardiner")
    records = client.get(f"/v1/entities/{mr}/merges", headers=h).json()
    rec = next(rec for rec in records if rec["uuid"] == merge["record_uuid"])
    assert rec["rule"] == merge["rule"] and rec["merged_uuid"] == bare and rec["undone_at"] is None

    r = client.post(f"/v1/entities/{mr}/merges/{merge['record_uuid']}/undo", headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["restored"] == bare
    assert top(client, group_id, h, "Gardiner") == bare
    records = client.get(f"/v1/entities/{mr}/merges", headers=h).json()
    assert next(rec for rec in records if rec["uuid"] == merge["record_uuid"])["undone_at"] is not None
    again = client.post(f"/v1/entities/{mr}/merges/{merge['record_uuid']}/undo", headers=h)
    assert again.status_code == 400, again.text
    reader = make_key([group_id], "r")
    assert client.post(f"/v1/groups/{group_id}/consolidate", headers=reader).status_code == 403
