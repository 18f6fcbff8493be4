"""Recall over HTTP on the real services: hits cite only what supports them for the query, say when they were
said, the time a question names ranks first, and the context block never exceeds its budget."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def session(day: str, turns: list[tuple[str, str, str]]) -> dict:
    return {"source": "talks", "reference_time": f"{day}T10:00:00Z",
            "messages": [{"speaker": s, "text": t, "metadata": {"dia_id": i}} for i, s, t in turns]}


SESSIONS = [
    session("2024-01-10", [("A1", "Ruth", "Hi Oswin, long time no see!"),
                           ("A2", "Oswin", "Hey Ruth! I bought a red bicycle with a wicker basket last week."),
                           ("A3", "Ruth", "Nice. I have been baking sourdough bread every weekend.")]),
    session("2024-03-12", [("B1", "Ruth", "Hi Oswin! How are you?"),
                           ("B2", "Oswin", "Good! I rode the red bicycle to the lighthouse on Sunday."),
                           ("B3", "Ruth", "My sourdough starter died, sadly.")]),
]


@pytest.fixture
def talks(client, group_id, make_key) -> dict[str, str]:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes:batch", headers=h, json={"episodes": SESSIONS})
    assert r.status_code == 202, r.text
    assert r.json()["job"]["status"] == "done"
    return h


def cited(hit: dict) -> list[str]:
    return [m["metadata"]["dia_id"] for p in hit["provenance"] for m in p["messages"]]


def search(client, group_id, h, **params) -> list[dict]:
    r = client.get(f"/v1/groups/{group_id}/search", headers=h, params=params)
    assert r.status_code == 200, r.text
    return r.json()["hits"]


def test_every_hit_cites_only_the_messages_that_support_it(client, group_id, talks) -> None:
    hits = search(client, group_id, talks, q="Oswin red bicycle basket", limit=5)
    passages = [h for h in hits if h["kind"] == "episode"]
    assert cited(passages[0]) == ["A2"]
    # A passage cites exactly its own message; what an entity cites lies among the passages answered.
    assert all(len(cited(h)) == 1 for h in passages)
    answered = {i for h in passages for i in cited(h)}
    for hit in hits:
        if hit["kind"] == "entity":
            assert set(cited(hit)) <= answered
            assert "A1" not in cited(hit)[:1] and "B1" not in cited(hit)[:1]  # not its greetings first
    # The first ten turns an agent reads hold the answer, and no greeting comes before it.
    turns = list(dict.fromkeys(i for h in hits for i in cited(h)))
    assert turns[0] == "A2"


def test_hits_say_when_they_were_said_and_time_filters_and_words_apply(client, group_id, talks) -> None:
    hits = search(client, group_id, talks, q="red bicycle", kinds="episode", limit=5)
    said = {cited(h)[0]: h["said_at"] for h in hits}
    assert said["A2"].startswith("2024-01-10") and said["B2"].startswith("2024-03-12")
    later = search(client, group_id, talks, q="red bicycle", kinds="episode", said_after="2024-02-01T00:00:00Z")
    assert later and {cited(h)[0][0] for h in later} == {"B"}
    # The question names March 2024: the March turn comes first, the January one still follows.
    in_march = search(client, group_id, talks, q="Where did Oswin ride the red bicycle in March 2024?",
                      kinds="episode")
    assert cited(in_march[0]) == ["B2"]
    bad = client.get(f"/v1/groups/{group_id}/search", headers=talks,
                     params={"q": "x", "said_after": "2024-03-01T00:00:00Z", "said_before": "2024-01-01T00:00:00Z"})
    assert bad.status_code == 400 and "said_after" in bad.text


@pytest.mark.parametrize("budget", [50, 80, 1000])
def test_the_context_block_never_exceeds_its_budget(client, group_id, talks, budget: int) -> None:
    from strata.memory.recall import count_tokens

    r = client.get(f"/v1/groups/{group_id}/context", headers=talks,
                   params={"q": "What did Oswin do with his red bicycle?", "budget_tokens": budget})
    assert r.status_code == 200, r.text
    block = r.json()
    assert block["tokens"] == count_tokens(block["text"]) <= budget
    quoted = [m["metadata"]["dia_id"] for m in block["quoted"]]
    if budget >= 80:
        assert "A2" in quoted or "B2" in quoted
        assert '] "' in block["text"] and "Oswin" in block["text"]
    if budget == 1000:
        assert {"A2", "B2"} <= set(quoted)
        assert "[2024-01-10, Oswin]" in block["text"] and "[2024-03-12, Oswin]" in block["text"]
    # The structured hits behind it are the ones it quotes.
    assert {cited(h)[0] for h in block["hits"] if h["kind"] == "episode"} == set(quoted)


def test_the_context_block_rejects_a_budget_it_cannot_honour(client, group_id, talks) -> None:
    r = client.get(f"/v1/groups/{group_id}/context", headers=talks, params={"q": "bicycle", "budget_tokens": 10})
    assert r.status_code in (400, 422) and "budget_tokens" in r.text
