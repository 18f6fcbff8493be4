"""Many agents writing to one group: who asserted what is recorded per episode and fact, and can be read back."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def _post(client, group_id: str, h: dict, statements: list[tuple[str, str, str]], agent: str | None = None):
    body = {"kind": "facts", "reference_time": "2024-01-01T00:00:00Z",
            "facts": [{"subject": s, "predicate": p, "object": o} for s, p, o in statements]}
    if agent:
        body["agent"] = agent
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=body)
    assert r.status_code == 202, r.text
    return r.json()


def test_agents_are_recorded_and_filter_reads(client, graph, group_id, make_key) -> None:
    h = make_key([group_id])  # its name is "test": the default agent
    scout = _post(client, group_id, h, [("Ann Archer", "lives_in", "Bath")], agent="scout")
    _post(client, group_id, h, [("Ann Archer", "lives_in", "Bath")], agent="planner")  # the same, said again
    _post(client, group_id, h, [("Bob Baker", "works_for", "Acme")])

    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    by_subject = {f["subject_name"]: f for f in facts}
    assert sorted(by_subject["Ann Archer"]["agents"]) == ["planner", "scout"]  # both recorded, one fact
    assert by_subject["Bob Baker"]["agents"] == ["test"]
    episode = graph.query("MATCH (e:Episode {uuid: $u}) RETURN e.agent AS agent", u=scout["episode_uuid"])
    assert episode == [{"agent": "scout"}]

    only = client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"agent": "planner"}).json()
    assert [f["subject_name"] for f in only["items"]] == ["Ann Archer"] and only["count"] == 1
    assert client.get(f"/v1/groups/{group_id}/facts", headers=h, params={"agent": "nobody"}).json()["count"] == 0

    activity = {a["agent"]: a for a in client.get(f"/v1/groups/{group_id}/agents", headers=h).json()}
    assert {k: (a["episodes"], a["facts"]) for k, a in activity.items()} == {
        "scout": (1, 1), "planner": (1, 1), "test": (1, 1)}

    bad = client.post(f"/v1/groups/{group_id}/episodes", headers=h,
                      json={"content": "x", "agent": "line\nbreak"})
    assert bad.status_code == 422


def test_search_and_context_by_agent(client, group_id, make_key) -> None:
    h = make_key([group_id])
    for agent, text in (("scout", "Ann Archer moved to Bath in spring."),
                        ("planner", "Ann Archer works for Acme in Bristol.")):
        r = client.post(f"/v1/groups/{group_id}/episodes", headers=h,
                        json={"content": text, "reference_time": "2024-03-01T00:00:00Z", "agent": agent})
        assert r.status_code == 202, r.text
    everyone = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": "Ann Archer", "limit": 20}).json()
    assert any(hit["kind"] == "entity" for hit in everyone["hits"])
    scout = client.get(f"/v1/groups/{group_id}/search", headers=h,
                       params={"q": "Ann Archer", "limit": 20, "agent": "scout"}).json()["hits"]
    assert scout and all(hit["kind"] != "entity" for hit in scout)
    assert all("scout" in hit["fact"]["agents"] for hit in scout if hit["kind"] == "fact")
    texts = " ".join((hit.get("episode") or {}).get("text") or "" for hit in scout)
    assert "Bath" in texts and "Acme" not in texts
    block = client.get(f"/v1/groups/{group_id}/context", headers=h,
                       params={"q": "Where does Ann Archer work?", "agent": "scout"}).json()
    assert "from scout" in block["text"] and "Acme" not in block["text"]
