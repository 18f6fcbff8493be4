"""Names, predicates and queries full of Cypher, Lucene syntax and control characters are data, never code."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

NASTY = [
    "Robert'); MATCH (n) DETACH DELETE n //",
    '" OR 1=1 }) RETURN n //',
    "name:* OR *:* AND (x~ ^2 [a TO z]) \\ /regex/",
    "`Entity`:$(label) {group_id: 'x'}",
    "ctl\x00\x07\x1b[31m\u202e\ufeffend",
    "AND OR NOT && || ! ( ) { } [ ] ^ \" ~ * ? : \\ /",
]


def count_all(graph, groups: list[str]) -> int:
    return graph.query("MATCH (n) WHERE n.group_id IN $g RETURN count(n) AS n", g=groups)[0]["n"]


def test_hostile_text_is_data(client, graph, group_id, other_group, make_key) -> None:
    h = make_key([group_id], "rw")
    sentinel = client.post(f"/v1/groups/{other_group}/episodes", headers=make_key([other_group]),
                           json={"content": "Sentinel Smith lives in Oslo."})
    assert sentinel.status_code == 202
    facts = [{"subject": name, "subject_type": "Person", "predicate": "knows", "object": "Plain Person",
              "object_type": "Person"} for name in NASTY]
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": facts})
    assert r.status_code == 202, r.text
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h,
                    json={"content": " ".join(NASTY), "speaker": NASTY[0], "metadata": {"k": NASTY[1]}})
    assert r.status_code == 202, r.text
    before = count_all(graph, [group_id, other_group])
    for text in NASTY:
        for path, params in [("search", {"q": text}), ("entities", {"name": text}),
                             ("facts", {"predicate": text}), ("facts", {"subject": text}),
                             ("search", {"q": "x", "predicates": text, "types": text}),
                             ("paths", {"from": text, "to": "Plain Person"})]:
            r = client.get(f"/v1/groups/{group_id}/{path}", headers=h, params=params)
            assert r.status_code < 500, (path, text, r.text)
            assert r.status_code in (200, 400, 422), (path, text, r.text)
        for label in ("Person", text):
            r = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"subject_type": label[:40]})
            assert r.status_code == 200
    assert count_all(graph, [group_id, other_group]) == before
    # The stored names are exactly what was sent (apart from what the extractor normalizes).
    names = {c["name"] for c in client.get(f"/v1/groups/{group_id}/entities", headers=h,
                                            params={"name": NASTY[0]}).json()["candidates"]}
    assert NASTY[0] in names
    hits = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": NASTY[2]}).json()["hits"]
    assert isinstance(hits, list)


def test_hostile_group_ids_are_rejected(client, make_key, group_id) -> None:
    h = make_key([group_id], "rw")
    for group in ["a b", "x'); MATCH (n) DELETE n", "*", "%00", "%0A"]:
        r = client.get(f"/v1/groups/{group}/facts", headers=h)
        assert r.status_code in (404, 422), (group, r.text)  # the declared group id pattern, or no route
        assert "error" in r.json()
