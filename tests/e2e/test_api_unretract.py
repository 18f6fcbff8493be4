"""Retraction can be undone by posting again: a retracted episode posted again, or a retracted source uploaded
again, is processed again; a duplicate of what still stands stays a no-op."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

FACTS = {"facts": [
    {"subject": "Ann Archer", "subject_type": "Person", "predicate": "lives_in", "object": "Avalon",
     "object_type": "Place", "valid_at": "2020-01-01T00:00:00Z"},
    {"subject": "Ann Archer", "subject_type": "Person", "predicate": "member_of", "object": "Avalon Council",
     "object_type": "Organization", "valid_at": "2020-01-01T00:00:00Z"}]}
BOOK = (b"CHAPTER I\n\nElizabeth Bennet walked to Netherfield through the muddy fields. Mr. Darcy admired "
        b"her fine eyes.\n\nJane Bennet was ill at Netherfield for several days.\n")


def facts(client, group: str, headers: dict) -> list[str]:
    r = client.get(f"/v1/groups/{group}/facts", headers=headers, params={"limit": 1000})
    assert r.status_code == 200, r.text
    return sorted(f["uuid"] for f in r.json()["items"])


def test_a_retracted_episode_posted_again_is_processed_again(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    first = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=FACTS).json()
    ep = first["episode_uuid"]
    stated = facts(client, group_id, h)
    assert len(stated) == 2

    # a duplicate of a standing episode: nothing runs again
    again = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=FACTS).json()
    assert again["episode_uuid"] == ep
    assert client.get(f"/v1/episodes/{ep}", headers=h).json()["attempts"] == 1

    assert client.delete(f"/v1/episodes/{ep}", headers=h).json()["facts_expired"] == 2
    assert facts(client, group_id, h) == []
    assert client.get(f"/v1/episodes/{ep}", headers=h).json()["status"] == "retracted"

    reposted = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=FACTS)
    assert reposted.status_code == 202, reposted.text
    body = reposted.json()
    assert body["episode_uuid"] == ep and body["job_id"] not in (first["job_id"], again["job_id"])
    job = client.get(f"/v1/jobs/{body['job_id']}", headers=h).json()
    assert (job["status"], job["done"], job["facts"]) == ("done", 1, 2)
    info = client.get(f"/v1/episodes/{ep}", headers=h).json()
    assert (info["status"], info["attempts"]) == ("done", 2)
    assert facts(client, group_id, h) == stated
    assert {e["name"] for e in info["entities"]} >= {"Ann Archer", "Avalon"}
    # the mentions the retraction kept aside are mentions again
    aside = graph.query("MATCH (:Episode {uuid: $ep})-[m:RETRACTED_MENTION]->() RETURN count(m) AS n", ep=ep)
    assert aside == [{"n": 0}]


def test_a_retracted_source_uploaded_again_is_ingested_again(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")

    def upload() -> dict:
        r = client.post(f"/v1/groups/{group_id}/sources", headers=h, data={"format": "book", "name": "pride"},
                        files={"file": ("pride.txt", BOOK, "text/plain")})
        assert r.status_code == 202, r.text
        return r.json()

    first = upload()
    assert first["done"] == first["total"] >= 1 and first["duplicate_of"] is None
    stated = facts(client, group_id, h)
    assert stated
    assert upload()["duplicate_of"] == first["uuid"]

    assert client.delete(f"/v1/sources/{first['source_uuid']}", headers=h).status_code == 200
    assert facts(client, group_id, h) == []

    again = upload()
    assert again["duplicate_of"] is None
    assert (again["status"], again["done"], again["total"]) == ("done", first["total"], first["total"])
    assert facts(client, group_id, h) == stated
    hits = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": "muddy fields Netherfield"}).json()
    assert any(x["kind"] == "episode" for x in hits["hits"])
    # standing again: a further upload is a duplicate
    assert upload()["duplicate_of"] == first["uuid"]
