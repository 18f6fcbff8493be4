"""End to end through the HTTP API on the real Neo4j and Redis: ingest a chat log and a book window, then
search (with message-level provenance), traverse, list, time-travel, retract and see the earlier fact back."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

pytestmark = pytest.mark.integration

CHAT = {"source": "chat-42", "metadata": {"thread": "t-9"}, "messages": [
    {"speaker": "alice", "text": "I moved to Lisbon last month.", "timestamp": "2024-03-02T10:00:00Z",
     "metadata": {"message_id": "m-1"}},
    {"speaker": "bob", "text": "The harbour in Lisbon is lovely in spring.", "timestamp": "2024-03-02T10:01:00Z",
     "metadata": {"message_id": "m-2"}}]}
BOOK = (b"CHAPTER I\n\nElizabeth Bennet walked to Netherfield through the muddy fields. Mr. Darcy admired "
        b"her fine eyes.\n\nJane Bennet was ill at Netherfield for several days.\n")


def office(holder: str, year: int) -> dict:
    return {"facts": [
        {"subject": holder, "subject_type": "Person", "predicate": "holds_office", "object": "Mayor of Avalon",
         "object_type": "Office", "valid_at": f"{year}-01-01T00:00:00Z", "functional": "object"},
        {"subject": holder, "subject_type": "Person", "predicate": "member_of", "object": "Avalon Council",
         "object_type": "Organization", "valid_at": f"{year}-01-01T00:00:00Z"}]}


def holders(client, group, headers, **params) -> list[str]:
    r = client.get(f"/v1/groups/{group}/facts", headers=headers, params={"predicate": "holds_office", **params})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["count"] == len(body["items"])
    return sorted(f["subject_name"] for f in body["items"])


def test_ingest_search_traverse_timetravel_retract(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=CHAT)
    assert r.status_code == 202, r.text
    chat_episode = r.json()["episode_uuid"]
    assert client.get(f"/v1/jobs/{r.json()['job_id']}", headers=h).json()["status"] == "done"

    up = client.post(f"/v1/groups/{group_id}/sources", headers=h, data={"format": "book", "name": "pride"},
                     files={"file": ("pride.txt", BOOK, "text/plain")})
    assert up.status_code == 202, up.text
    assert up.json()["done"] == up.json()["total"] >= 1

    first = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=office("Ann Archer", 1990)).json()
    between = datetime.now(UTC)
    second = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=office("Ben Baker", 1995)).json()
    assert client.get(f"/v1/episodes/{second['episode_uuid']}", headers=h).json()["status"] == "done"

    # Search: a chat passage names its message and the message's own metadata.
    hits = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": "harbour in Lisbon"}).json()["hits"]
    passages = [x for x in hits if x["kind"] == "episode"]
    assert passages and passages[0]["episode"]["episode_uuid"] == chat_episode
    prov = passages[0]["provenance"][0]
    assert prov["metadata"] == {"thread": "t-9"} and prov["source_name"] == "chat-42"
    assert [m["metadata"]["message_id"] for m in prov["messages"]] == ["m-2"]
    assert prov["speaker"] == "bob" and "harbour" in prov["text"]

    # Book window: its passage is found with the source name.
    book = client.get(f"/v1/groups/{group_id}/search", headers=h,
                      params={"q": "Netherfield muddy fields", "kinds": "episode"}).json()["hits"]
    assert book and book[0]["provenance"][0]["source_name"] == "pride"
    assert "muddy" in book[0]["provenance"][0]["text"]

    # Current facts only by default; as_of and known_at travel in time.
    now_hits = client.get(f"/v1/groups/{group_id}/search", headers=h,
                          params={"q": "mayor of Avalon", "kinds": "fact", "predicates": "holds_office"}).json()
    assert [x["fact"]["subject_name"] for x in now_hits["hits"]] == ["Ben Baker"]
    assert holders(client, group_id, h) == ["Ben Baker"]
    assert holders(client, group_id, h, as_of="1992-06-01T00:00:00Z") == ["Ann Archer"]
    assert holders(client, group_id, h, as_of="2000-01-01T00:00:00Z", known_at=between.isoformat()) == ["Ann Archer"]
    assert holders(client, group_id, h, include_history=True) == ["Ann Archer", "Ben Baker"]
    old = client.get(f"/v1/groups/{group_id}/search", headers=h, params={
        "q": "mayor of Avalon", "kinds": "fact", "predicates": "holds_office", "as_of": "1992-06-01T00:00:00Z"}).json()
    assert [x["fact"]["subject_name"] for x in old["hits"]] == ["Ann Archer"]

    # Resolution, entity, timeline, neighbourhood, paths, schema.
    # "Mayor of Avalon" is the slot (Avalon, mayor): the organization's facts with the role
    assert holders(client, group_id, h, object="Mayor of Avalon", include_history=True) == ["Ann Archer", "Ben Baker"]
    assert holders(client, group_id, h, object="Avalon", role="Mayor", as_of="1992-06-01T00:00:00Z") == ["Ann Archer"]
    assert holders(client, group_id, h, object="Avalon", role="chair") == []
    cands = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "Avalon"}).json()
    mayor = cands["candidates"][0]
    assert mayor["name"] == "Avalon" and mayor["score"] == 1.0
    assert client.get(f"/v1/entities/{mayor['uuid']}", headers=h).json()["type"] == "Organization"
    timeline = client.get(f"/v1/entities/{mayor['uuid']}/timeline", headers=h).json()["facts"]
    assert [(f["subject_name"], f["role"], f["invalid_at"]) for f in timeline] == [
        ("Ann Archer", "mayor", "1995-01-01T00:00:00Z"), ("Ben Baker", "mayor", None)]
    assert timeline[0]["invalidated_by"] == timeline[1]["uuid"]
    near = client.get(f"/v1/entities/{mayor['uuid']}/neighborhood", headers=h, params={"depth": 2}).json()
    assert {"Ben Baker", "Avalon Council"} <= {e["name"] for e in near["entities"]}
    near_1992 = client.get(f"/v1/entities/{mayor['uuid']}/neighborhood", headers=h,
                           params={"as_of": "1992-01-01T00:00:00Z"}).json()
    assert {e["name"] for e in near_1992["entities"]} == {"Avalon", "Ann Archer"}
    paths = client.get(f"/v1/groups/{group_id}/paths", headers=h,
                       params={"from": "Ann Archer", "to": "Ben Baker", "max_depth": 3}).json()["paths"]
    assert paths and [e["name"] for e in paths[0]["entities"]] == ["Ann Archer", "Avalon Council", "Ben Baker"]
    schema = client.get(f"/v1/groups/{group_id}/schema", headers=h).json()
    assert {"name": "Organization", "count": 2} in schema["entity_types"]  # Avalon and its council
    assert any(p["name"] == "holds_office" and p["functional"] == "object" for p in schema["predicates"])

    # Retract the later episode: Ann holds the office again, now.
    r = client.delete(f"/v1/episodes/{second['episode_uuid']}", headers=h)
    assert r.status_code == 200 and r.json()["facts_expired"] == 2
    assert holders(client, group_id, h) == ["Ann Archer"]
    assert client.get(f"/v1/episodes/{second['episode_uuid']}", headers=h).json()["status"] == "retracted"
    assert first["episode_uuid"] != second["episode_uuid"]


def test_pagination_is_complete_and_countable(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    facts = [{"subject": f"Person {i:03d}", "subject_type": "Person", "predicate": "member_of",
              "object": "Chess Club", "object_type": "Organization", "valid_at": "2020-01-01T00:00:00Z"}
             for i in range(25)]
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": facts}).status_code == 202
    seen, cursor = [], None
    while True:
        params = {"predicate": "member_of", "limit": 10, **({"cursor": cursor} if cursor else {})}
        page = client.get(f"/v1/groups/{group_id}/facts", headers=h, params=params).json()
        assert page["count"] == 25
        seen += [f["uuid"] for f in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(seen) == len(set(seen)) == 25
    assert client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"limit": 5000}).status_code == 422


def test_correct_and_merge(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=office("Ann Archer", 1990))
    client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": [
        {"subject": "A. Archer", "subject_type": "Person", "predicate": "lives_in", "object": "Avalon",
         "object_type": "Place", "valid_at": "1980-01-01T00:00:00Z"}]})
    listing = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"predicate": "holds_office"}).json()
    fact = listing["items"][0]
    fixed = client.post(f"/v1/facts/{fact['uuid']}:correct", headers=h,
                        json={"valid_at": "1991-01-01T00:00:00Z", "reason": "sworn in 1991"})
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["replaced"] == fact["uuid"]
    now = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"predicate": "holds_office"}).json()
    assert [f["valid_at"] for f in now["items"]] == ["1991-01-01T00:00:00Z"]

    ann = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "Ann Archer"}).json()
    alias = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "A. Archer"}).json()
    ann_uuid, alias_uuid = ann["candidates"][0]["uuid"], alias["candidates"][0]["uuid"]
    assert ann_uuid != alias_uuid
    merged = client.post(f"/v1/entities/{alias_uuid}:merge", headers=h, json={"into": ann_uuid})
    assert merged.status_code == 200, merged.text
    assert merged.json()["facts_moved"] == 1
    lives = client.get(f"/v1/groups/{group_id}/facts", headers=h,
                       params={"predicate": "lives_in", "subject": ann_uuid}).json()
    assert lives["count"] == 1
    assert "A. Archer" in client.get(f"/v1/entities/{ann_uuid}", headers=h).json()["aliases"]


def test_the_same_episode_twice_in_one_batch_is_one_episode(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    said = {"content": "Ann Archer became mayor of Avalon in 1990.", "reference_time": "1990-05-01T00:00:00Z",
            "source": "avalon-gazette"}
    other = {**said, "content": "Ben Baker became mayor of Avalon in 1995."}
    r = client.post(f"/v1/groups/{group_id}/episodes:batch", headers=h, json={"episodes": [said, other, said]})
    assert r.status_code == 202, r.text
    body = r.json()
    first, second, again = body["episode_uuids"]
    assert first == again != second  # each body is answered with its episode, in order
    assert body["job"]["total"] == 2
    assert client.get(f"/v1/jobs/{body['job_id']}", headers=h).json()["total"] == 2


def test_a_single_valued_query_parameter_given_twice_is_refused(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    base = f"/v1/groups/{group_id}"
    twice = client.get(f"{base}/context", headers=h, params=[("q", "Avalon"), ("agent", "a"), ("agent", "b")])
    assert twice.status_code == 422 and "agent" in twice.json()["error"]["message"]
    assert client.get(f"{base}/search", headers=h, params=[("q", "Avalon"), ("kinds", "fact"),
                                                           ("kinds", "entity")]).status_code == 200  # a list
    assert client.get(f"{base}/context", headers=h, params={"q": "Avalon", "agent": "a"}).status_code == 200


def _ann_in_the_council(client, group_id, make_key) -> tuple[dict[str, str], str]:
    """One fact (Ann Archer member_of Avalon Council) in the group; an rw key's headers and the group's base path."""
    h = make_key([group_id], "rw")
    fact = {"subject": "Ann Archer", "subject_type": "Person", "predicate": "member_of", "object": "Avalon Council",
            "object_type": "Organization", "valid_at": "1990-01-01T00:00:00Z"}
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": [fact]}).status_code == 202
    return h, f"/v1/groups/{group_id}"


def test_a_filter_by_a_predicate_no_relation_can_have_matches_nothing(client, group_id, make_key) -> None:
    h, base = _ann_in_the_council(client, group_id, make_key)
    assert client.get(f"{base}/facts", headers=h, params={"predicate": "member of"}).json()["count"] == 1
    for nothing in (":", "the", "not"):
        page = client.get(f"{base}/facts", headers=h, params={"predicate": nothing})
        assert page.status_code == 200 and page.json()["count"] == 0, page.text
        hits = client.get(f"{base}/search", headers=h, params={"q": "Ann Archer", "predicates": nothing,
                                                               "kinds": "fact"})
        assert hits.status_code == 200 and hits.json()["hits"] == [], hits.text


def test_search_kinds_are_declared_and_comma_separated_lists_are_read(client, group_id, make_key) -> None:
    h, base = _ann_in_the_council(client, group_id, make_key)
    hits = client.get(f"{base}/search", headers=h, params={"q": "Ann Archer", "kinds": "fact, entity,"}).json()["hits"]
    assert {hit["kind"] for hit in hits} == {"fact", "entity"}
    wrong = client.get(f"{base}/search", headers=h, params={"q": "Ann Archer", "kinds": "fact,facts"})
    assert wrong.status_code == 422 and "kinds" in wrong.text, wrong.text
    declared = client.get("/openapi.json").json()["paths"]["/v1/groups/{group}/search"]["get"]["parameters"]
    kinds = next(p for p in declared if p["name"] == "kinds")
    assert "pattern" in str(kinds["schema"])  # the document says which values the server takes
