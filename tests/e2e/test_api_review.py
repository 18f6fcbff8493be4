"""Reviewing suggested duplicates over REST: list, reject for good, accept as an undoable merge."""

from __future__ import annotations

import pytest

from strata.graph.queries.commit import RECORD_SUGGESTIONS
from strata.schema.models import utcnow

pytestmark = pytest.mark.integration


def _people(client, group_id: str, h: dict, names: list[str]) -> dict[str, str]:
    body = {"kind": "facts", "reference_time": "2024-01-01T00:00:00Z",
            "facts": [{"subject": n, "subject_type": "Person", "predicate": "lives_in", "object": "Bath",
                       "object_type": "Place"} for n in names]}
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=body).status_code == 202
    facts = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    return {f["subject_name"]: f["subject_uuid"] for f in facts}


def _suggest(graph, group_id: str, pairs: list[tuple[str, str]]) -> None:
    """What resolution writes when it is unsure (the same query)."""
    graph.query(RECORD_SUGGESTIONS, group_id=group_id, now=utcnow(),
                rows=[{"entity_uuid": a, "candidate_uuid": b, "score": 0.8} for a, b in pairs])


def test_review_suggestions(client, graph, group_id, make_key, other_group) -> None:
    h = make_key([group_id])
    ids = _people(client, group_id, h, ["Arthur Pym", "Arthur Gordon Pym", "Arthur Dent"])
    pym, gordon, dent = ids["Arthur Pym"], ids["Arthur Gordon Pym"], ids["Arthur Dent"]
    _suggest(graph, group_id, [(pym, gordon), (pym, dent)])
    url = f"/v1/groups/{group_id}/suggestions"
    listed = client.get(url, headers=h).json()
    assert {(s["entity_name"], s["candidate_name"]) for s in listed} == {("Arthur Pym", "Arthur Gordon Pym"),
                                                                         ("Arthur Pym", "Arthur Dent")}
    assert len(client.get(url, headers=h, params={"entity": dent}).json()) == 1

    rejected = client.post(f"/v1/entities/{dent}/suggestions/{pym}:reject", headers=h, json={"reason": "two Arthurs"})
    assert rejected.status_code == 200, rejected.text
    _suggest(graph, group_id, [(pym, dent), (dent, pym)])  # a later pass finds them again
    assert [s["candidate_name"] for s in client.get(url, headers=h).json()] == ["Arthur Gordon Pym"]
    again = client.post(f"/v1/entities/{pym}/suggestions/{dent}:accept", headers=h)
    assert again.status_code == 400 and "rejected" in again.json()["error"]["message"]

    stranger = make_key([other_group])
    assert client.post(f"/v1/entities/{pym}/suggestions/{gordon}:accept", headers=stranger).status_code == 404
    reader = make_key([group_id], "r")
    assert client.post(f"/v1/entities/{pym}/suggestions/{gordon}:accept", headers=reader).status_code == 403

    accepted = client.post(f"/v1/entities/{pym}/suggestions/{gordon}:accept", headers=h, json={"into": gordon})
    assert accepted.status_code == 200, accepted.text
    assert (accepted.json()["merged"], accepted.json()["into"]) == (pym, gordon)
    assert client.get(url, headers=h).json() == []
    assert client.get(f"/v1/entities/{pym}", headers=h, follow_redirects=False).status_code == 308
    records = client.get(f"/v1/entities/{gordon}/merges", headers=h).json()
    assert any(r["reason"] == "accepted suggestion" and r["actor"] == "test" for r in records)
    undo = client.post(f"/v1/entities/{gordon}/merges/{accepted.json()['record_uuid']}/undo", headers=h)
    assert undo.status_code == 200, undo.text
    assert client.get(f"/v1/entities/{pym}", headers=h, follow_redirects=False).status_code == 200
    assert client.post(f"/v1/entities/{pym}/suggestions/{dent}:reject", headers=h).status_code == 400


def test_review_from_the_command_line(client, graph, settings, group_id, make_key) -> None:
    from typer.testing import CliRunner

    from strata.api.cli import app

    h = make_key([group_id])
    ids = _people(client, group_id, h, ["Arthur Pym", "Arthur Gordon Pym", "Arthur Dent"])
    pym, gordon, dent = ids["Arthur Pym"], ids["Arthur Gordon Pym"], ids["Arthur Dent"]
    _suggest(graph, group_id, [(pym, gordon), (gordon, pym), (pym, dent)])
    runner, env = CliRunner(), {"STRATA_NEO4J_URI": settings.neo4j_uri}

    listed = runner.invoke(app, ["suggestions", "list", "--group", group_id], env=env)
    assert listed.exit_code == 0, listed.output
    assert listed.output.count("Arthur Gordon Pym") == 1  # suggested both ways round, listed once
    assert runner.invoke(app, ["suggestions", "reject", dent, pym, "--group", group_id], env=env).exit_code == 0
    accepted = runner.invoke(app, ["suggestions", "accept", pym, gordon, "--group", group_id], env=env)
    assert accepted.exit_code == 0 and f"merged {pym} into {gordon}" in accepted.output
    assert "no pending suggestions" in runner.invoke(app, ["suggestions", "list", "--group", group_id],
                                                     env=env).output
    merges = runner.invoke(app, ["merges", gordon, "--group", group_id], env=env).output
    record = next(line.split()[0] for line in merges.splitlines() if "accepted suggestion" in line)
    assert "by cli:" in merges
    undone = runner.invoke(app, ["unmerge", gordon, "--record", record, "--group", group_id], env=env)
    assert undone.exit_code == 0 and f"restored {pym}" in undone.output
    merged = runner.invoke(app, ["merge", dent, "--into", gordon, "--group", group_id, "--reason", "test"], env=env)
    assert merged.exit_code == 0 and "strata unmerge" in merged.output
    assert client.get(f"/v1/entities/{dent}", headers=h, follow_redirects=False).status_code == 308
