"""Memory notes over HTTP on the real services: extracted offline from a chat, stored off their passage and
about their entities, found by a question in other words, returned with the passage, removed by a purge."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

SESSION = {"source": "gym-talk", "reference_time": "2023-05-08T13:56:00Z", "messages": [
    {"speaker": "Tom", "text": "Hey Mia! How was your weekend?"},
    {"speaker": "Mia", "text": "Great, thanks! How about you?"},
    {"speaker": "Tom", "text": "I went to the climbing gym yesterday. My sister Sofia got married to Luis last year."},
    {"speaker": "Mia", "text": "That sounds great!"},
]}


@pytest.fixture
def posted(client, group_id, make_key) -> tuple[dict[str, str], str]:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=SESSION)
    assert r.status_code == 202, r.text
    assert client.get(f"/v1/jobs/{r.json()['job_id']}", headers=h).json()["status"] == "done"
    return h, r.json()["episode_uuid"]


def test_notes_are_stored_found_and_purged(client, graph, group_id, posted) -> None:
    h, episode = posted
    notes = graph.query("MATCH (p:Passage {group_id: $g})-[:HAS_NOTE]->(n:Note) "
                        "OPTIONAL MATCH (n)-[:ABOUT]->(e:Entity) "
                        "RETURN n.text AS text, p.text AS passage, collect(e.name) AS about, "
                        "toString(n.valid_at) AS valid_at ORDER BY text", g=group_id)
    by_text = {r["text"]: r for r in notes}
    gym = by_text["Tom went to the climbing gym on 7 May 2023."]
    assert gym["passage"].startswith("Tom: I went to the climbing gym yesterday.")
    assert "Tom" in gym["about"] and gym["valid_at"].startswith("2023-05-07")
    assert not any("sounds great" in t for t in by_text)  # a reaction is not a memory

    r = client.get(f"/v1/groups/{group_id}/search", headers=h,
                   params={"q": "When did Tom go climbing?", "limit": 5})
    assert r.status_code == 200, r.text
    passages = [hit for hit in r.json()["hits"] if hit["kind"] == "episode"]
    assert "Tom went to the climbing gym on 7 May 2023." in passages[0]["episode"]["notes"]

    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"predicate": "sibling_of"}).json()
    assert [(f["subject_name"], f["object_name"]) for f in facts["items"]] == [("Sofia", "Tom")]
    sofia = facts["items"][0]["subject_uuid"]
    about = client.get(f"/v1/entities/{sofia}/notes", headers=h).json()
    assert [n["text"] for n in about["notes"]] == ["Tom's sister Sofia got married to Luis in 2022."]
    assert about["notes"][0]["speaker"] == "Tom" and about["notes"][0]["said_at"].startswith("2023-05-08")

    r = client.delete(f"/v1/episodes/{episode}", headers=h, params={"purge": "true"})
    assert r.status_code in (200, 202, 204), r.text
    left = graph.query("MATCH (n:Note {group_id: $g}) RETURN count(n) AS n", g=group_id)[0]["n"]
    assert left == 0
    after = client.get(f"/v1/entities/{sofia}/notes", headers=h)
    assert after.status_code == 404 or after.json()["notes"] == []
