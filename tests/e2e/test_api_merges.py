"""Merges hold: a later statement naming the merged-away entity lands on the survivor, reads of the old uuid
redirect to it, and a fact between the two merged entities does not become a self-loop."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def _state(client, group_id: str, h: dict, statements: list[tuple[str, str, str, str]], when: str) -> None:
    body = {"kind": "facts", "reference_time": when,
            "facts": [{"subject": s, "subject_type": "Person", "predicate": p, "object": o, "object_type": t}
                      for s, p, o, t in statements]}
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=body)
    assert r.status_code == 202, r.text


def _uuid_of(client, group_id: str, h: dict, name: str) -> str:
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    return next(f["subject_uuid"] for f in facts if f["subject_name"] == name)


def test_merge_is_sticky_and_old_uuid_redirects(client, group_id, make_key) -> None:
    h = make_key([group_id])
    _state(client, group_id, h, [("Lizzy Bennet", "lives_in", "Bath", "Place")], "2024-01-01T00:00:00Z")
    _state(client, group_id, h, [("Elizabeth Bennet", "works_for", "Acme", "Organization")], "2024-01-02T00:00:00Z")
    lizzy, eliz = _uuid_of(client, group_id, h, "Lizzy Bennet"), _uuid_of(client, group_id, h, "Elizabeth Bennet")
    assert client.post(f"/v1/entities/{lizzy}:merge", headers=h, json={"into": eliz}).status_code == 200

    _state(client, group_id, h, [("Lizzy Bennet", "likes", "Darcy", "Person")], "2024-01-03T00:00:00Z")
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    assert {f["subject_uuid"] for f in facts} == {eliz}
    likes = next(f for f in facts if f["predicate"] == "likes")
    assert likes["subject_name"] == "Elizabeth Bennet"

    for path in ("", "/neighborhood", "/timeline"):
        old = client.get(f"/v1/entities/{lizzy}{path}", headers=h, params={"limit": 5} if path else None,
                         follow_redirects=False)
        assert old.status_code == 308, (path, old.text)
        assert old.headers["location"].startswith(f"/v1/entities/{eliz}{path}")
    assert client.get(f"/v1/entities/{lizzy}", headers=h).json()["uuid"] == eliz  # followed
    resolved = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "Lizzy Bennet"}).json()
    assert resolved["candidates"][0]["uuid"] == eliz


def test_merge_chain_is_followed(client, group_id, make_key) -> None:
    h = make_key([group_id])
    _state(client, group_id, h, [("Lizzy Bennet", "lives_in", "Bath", "Place"),
                                 ("Eliza Bennet", "lives_in", "Bath", "Place"),
                                 ("Elizabeth Bennet", "lives_in", "Bath", "Place")], "2024-01-01T00:00:00Z")
    lizzy, eliza, eliz = (_uuid_of(client, group_id, h, n)
                          for n in ("Lizzy Bennet", "Eliza Bennet", "Elizabeth Bennet"))
    assert client.post(f"/v1/entities/{lizzy}:merge", headers=h, json={"into": eliza}).status_code == 200
    assert client.post(f"/v1/entities/{eliza}:merge", headers=h, json={"into": eliz}).status_code == 200
    _state(client, group_id, h, [("Lizzy Bennet", "likes", "Darcy", "Person")], "2024-01-03T00:00:00Z")
    likes = next(f for f in client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
                 if f["predicate"] == "likes")
    assert likes["subject_uuid"] == eliz
    assert client.get(f"/v1/entities/{lizzy}", headers=h, follow_redirects=False).headers["location"] \
        .startswith(f"/v1/entities/{eliz}")


def test_fact_between_merged_entities_is_not_a_self_loop(client, group_id, make_key) -> None:
    h = make_key([group_id])
    _state(client, group_id, h, [("Lizzy Bennet", "sibling_of", "Elizabeth Bennet", "Person"),
                                 ("Lizzy Bennet", "lives_in", "Bath", "Place")], "2024-01-01T00:00:00Z")
    lizzy, eliz = _uuid_of(client, group_id, h, "Lizzy Bennet"), next(
        f["object_uuid"] for f in client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
        if f["predicate"] == "sibling_of")
    merged = client.post(f"/v1/entities/{lizzy}:merge", headers=h, json={"into": eliz}).json()
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    assert [(f["predicate"], f["object_name"]) for f in facts] == [("lives_in", "Bath")]
    assert all(f["subject_uuid"] != f["object_uuid"] for f in facts)

    undone = client.post(f"/v1/entities/{eliz}/merges/{merged['record_uuid']}/undo", headers=h)
    assert undone.status_code == 200, undone.text
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    assert {(f["subject_uuid"], f["predicate"], f["object_uuid"]) for f in facts} == {
        (lizzy, "sibling_of", eliz), (lizzy, "lives_in", next(f["object_uuid"] for f in facts
                                                             if f["predicate"] == "lives_in"))}
