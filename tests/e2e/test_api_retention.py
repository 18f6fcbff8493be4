"""Retention over HTTP, the command line and MCP on the real services: read and set a group's policy, run it
(dry or not), purge what it hid; bad policies are refused with a clear error."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_api_mcp import init, rpc

pytestmark = pytest.mark.integration

FACTS = [{"subject": "Wren Tallow", "subject_type": "Person", "predicate": "lives_in", "object": "Gullhaven",
          "object_type": "Place", "valid_at": "2024-01-01T00:00:00Z"}]


def test_policy_endpoint_round_trip_run_and_purge(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": FACTS}).status_code == 202
    base = f"/v1/groups/{group_id}/retention"
    got = client.get(base, headers=h, params={"size": "true"})
    assert got.status_code == 200, got.text
    body = got.json()
    assert all(v is None for v in body["policy"].values()) and body["applied_at"] is None
    assert body["size"]["raw_text"] > 0 and body["size"]["raw_text_hidden"] == 0

    put = client.put(base, headers=h, json={"raw_text_days": 0, "salience_half_life_days": 30})
    assert put.status_code == 200, put.text
    assert put.json()["policy"] == {"raw_text_days": 0, "passages_days": None, "compact_history_days": None,
                                    "salience_half_life_days": 30.0}
    dry = client.post(f"{base}:apply", headers=h, params={"dry_run": "true"})
    assert dry.status_code == 200 and dry.json()["dry_run"] and dry.json()["counts"]["episodes_compacted"] == 1
    run = client.post(f"{base}:apply", headers=h).json()
    assert run["counts"]["episodes_compacted"] == 1 and not run["dry_run"]
    size = client.get(base, headers=h, params={"size": "true"}).json()["size"]
    assert size["raw_text"] == len("[]") * 2 and size["raw_text_hidden"] > 0  # no messages, no statements
    assert client.post(f"{base}:purge", headers=h).status_code == 422  # not confirmed
    assert client.post(f"{base}:purge", headers=h, json={"confirm": False}).status_code == 422
    purged = client.post(f"{base}:purge", headers=h, json={"confirm": True})
    assert purged.status_code == 200 and purged.json()["episodes"] == 1
    assert client.get(base, headers=h, params={"size": "true"}).json()["size"]["raw_text_hidden"] == 0


@pytest.mark.parametrize("body", [{"raw_text_days": -1}, {"passages_days": "soon"}, {"keep": 3},
                                  {"raw_text_days": 5, "passages_days": 9}, {"salience_half_life_days": 0},
                                  {"compact_history_days": 10 ** 6}, {"compact_history_days": False},
                                  {"raw_text_days": "30"}, {"salience_half_life_days": True},
                                  {"passages_days": 2.5}])
def test_bad_policies_are_refused(client, group_id, make_key, body) -> None:
    h = make_key([group_id], "rw")
    r = client.put(f"/v1/groups/{group_id}/retention", headers=h, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "validation_error"
    assert client.get(f"/v1/groups/{group_id}/retention", headers=h).json()["updated_at"] is None


def test_a_whole_number_written_as_a_float_is_a_number_of_days(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    r = client.put(f"/v1/groups/{group_id}/retention", headers=h, json={"raw_text_days": 400.0})
    assert r.status_code == 200 and r.json()["policy"]["raw_text_days"] == 400  # JSON Schema's integer


def test_a_read_key_reads_the_policy_and_changes_nothing(client, group_id, make_key) -> None:
    reader = make_key([group_id], "r")
    base = f"/v1/groups/{group_id}/retention"
    assert client.get(base, headers=reader).status_code == 200
    assert client.put(base, headers=reader, json={"raw_text_days": 1}).status_code == 403
    assert client.post(f"{base}:apply", headers=reader).status_code == 403
    assert client.post(f"{base}:purge", headers=reader, json={"confirm": True}).status_code == 403
    assert client.get("/v1/groups/bad group!/retention", headers=reader).status_code == 422  # the declared pattern


def test_retention_from_the_command_line(client, settings, group_id, make_key) -> None:
    from typer.testing import CliRunner

    from strata.api.cli import app

    h = make_key([group_id], "rw")
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": FACTS}).status_code == 202
    runner, env = CliRunner(), {"STRATA_NEO4J_URI": settings.neo4j_uri}
    bad = runner.invoke(app, ["retention", "set", "--group", group_id, "--raw-text-days", "-1"], env=env)
    assert bad.exit_code == 2 and "raw_text_days" in bad.output  # the policy refuses it before anything runs
    worse = runner.invoke(app, ["retention", "set", "--group", group_id, "--raw-text-days", "3",
                                "--passages-days", "9"], env=env)
    assert worse.exit_code == 2 and "passages_days must not exceed raw_text_days" in worse.output
    ok = runner.invoke(app, ["retention", "set", "--group", group_id, "--raw-text-days", "0"], env=env)
    assert ok.exit_code == 0, ok.output
    dry = runner.invoke(app, ["retention", "apply", "--group", group_id, "--dry-run", "--json"], env=env)
    assert dry.exit_code == 0 and json.loads(dry.output)["counts"]["episodes_compacted"] == 1
    done = runner.invoke(app, ["retention", "apply", "--group", group_id], env=env)
    assert done.exit_code == 0 and "episodes compacted 1" in done.output
    shown = json.loads(runner.invoke(app, ["retention", "show", "--group", group_id, "--json"], env=env).output)
    assert shown["policy"]["raw_text_days"] == 0 and shown["applied_at"]
    unconfirmed = runner.invoke(app, ["retention", "purge", "--group", group_id], env=env)
    assert unconfirmed.exit_code == 2 and "confirm" in unconfirmed.output  # --yes required, as REST's confirm
    assert runner.invoke(app, ["retention", "purge", "--group", group_id, "--yes"], env=env).exit_code == 0


def test_retention_over_mcp(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    assert init(client, h).status_code == 200
    names = {t["name"] for t in rpc(client, h, "tools/list").json()["result"]["tools"]}
    assert {"get_retention", "set_retention", "apply_retention"} <= names
    bad = rpc(client, h, "tools/call", {"name": "set_retention", "arguments": {"group": group_id,
                                                                               "raw_text_days": -4}})
    assert bad.json()["result"]["isError"] and "raw_text_days" in bad.text
    ok = rpc(client, h, "tools/call", {"name": "set_retention", "arguments": {"group": group_id,
                                                                              "passages_days": 3}})
    assert ok.json()["result"].get("isError") is not True, ok.text
    got = rpc(client, h, "tools/call", {"name": "get_retention", "arguments": {"group": group_id}})
    assert '"passages_days":3' in got.text.replace(" ", "").replace('\\"', '"')
    assert got.json()["result"]["structuredContent"]["size"] is None
    sized = rpc(client, h, "tools/call", {"name": "get_retention", "arguments": {"group": group_id, "size": True}})
    rest = client.get(f"/v1/groups/{group_id}/retention", headers=h, params={"size": "true"}).json()
    assert sized.json()["result"]["structuredContent"]["size"] == rest["size"] is not None  # the same measure
    ran = rpc(client, h, "tools/call", {"name": "apply_retention", "arguments": {"group": group_id,
                                                                                "dry_run": True}})
    assert ran.json()["result"].get("isError") is not True and "dry_run" in ran.text
    reader = make_key([group_id], "r")
    denied = rpc(client, reader, "tools/call", {"name": "apply_retention", "arguments": {"group": group_id}})
    assert denied.json()["result"]["isError"]


def test_a_compacted_episode_retracted_and_posted_again_is_processed_from_the_new_body(client, graph, group_id,
                                                                                     make_key) -> None:
    h = make_key([group_id], "rw")
    ep = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": FACTS}).json()["episode_uuid"]
    assert client.put(f"/v1/groups/{group_id}/retention", headers=h, json={"raw_text_days": 0}).status_code == 200
    assert client.post(f"/v1/groups/{group_id}/retention:apply", headers=h).json()["counts"]["episodes_compacted"] == 1
    assert client.get(f"/v1/episodes/{ep}", headers=h).json()["compacted_at"]
    assert client.delete(f"/v1/episodes/{ep}", headers=h).json()["facts_expired"] == 1
    again = client.post(f"/v1/groups/{group_id}/episodes", headers=h, json={"facts": FACTS})
    assert again.status_code == 202 and again.json()["episode_uuid"] == ep
    listed = client.get(f"/v1/groups/{group_id}/facts", headers=h).json()["items"]
    assert [f["object_name"] for f in listed] == ["Gullhaven"]
    row = graph.query("MATCH (e:Episode {uuid: $u}) RETURN e.content AS c, e.compacted_at AS at", u=ep)[0]
    assert "Gullhaven" in row["c"] and row["at"] is None
