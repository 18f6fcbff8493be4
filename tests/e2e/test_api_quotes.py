"""Quotes over HTTP on the real services: a prose episode extracted offline, its dialogue read back by speaker
and addressee ("what did Tom say to Anna"), and gone after a purge."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

STORY = {"kind": "text", "source": "a-walk", "reference_time": "2024-03-01T00:00:00Z", "content": (
    "Tom Grey met Anna Hale at the gate.\n\n"
    '"Will you walk with me, Anna?" said Tom.\n\n'
    '"Not today," said Anna.\n\n'
    '"Then tomorrow?"\n\n'
    '"Perhaps."')}


def test_quotes_by_speaker_and_addressee(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=STORY)
    assert r.status_code == 202, r.text
    assert client.get(f"/v1/jobs/{r.json()['job_id']}", headers=h).json()["status"] == "done"

    every = client.get(f"/v1/groups/{group_id}/quotes", headers=h).json()
    assert every["count"] == 4
    assert [(q["speaker"], q["text"]) for q in every["items"]] == [
        ("Tom", "Will you walk with me, Anna?"), ("Anna", "Not today,"), ("Tom", "Then tomorrow?"),
        ("Anna", "Perhaps.")]

    r = client.get(f"/v1/groups/{group_id}/quotes", headers=h, params={"speaker": "Tom", "addressee": "Anna"})
    assert r.status_code == 200, r.text
    assert [q["text"] for q in r.json()["items"]] == ["Will you walk with me, Anna?", "Then tomorrow?"]
    page = client.get(f"/v1/groups/{group_id}/quotes", headers=h, params={"limit": 1}).json()
    assert len(page["items"]) == 1 and page["next_offset"] == 1

    other = make_key([f"{group_id}-other"], "r")
    assert client.get(f"/v1/groups/{group_id}/quotes", headers=other).status_code in (403, 404)

    episode = r.json()["items"][0]["episode_uuid"]
    assert client.delete(f"/v1/episodes/{episode}", headers=h, params={"purge": "true"}).status_code in (200, 202, 204)
    assert client.get(f"/v1/groups/{group_id}/quotes", headers=h).json()["count"] == 0
