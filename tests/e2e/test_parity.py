"""One scenario through the three adapters of ``Memory``: REST (the app on the real services), MCP (JSON-RPC
tool calls over the streamable HTTP transport of the same app) and the CLI (typer's runner, ``--json``). Each
adapter writes and reads its own group, step by step side by side, and every answer must be the same once
uuids (each group has its own) and transaction times are put aside."""

from __future__ import annotations

import json
import re
import uuid as uuidlib
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

pytestmark = pytest.mark.integration

CHAT = "\n".join(json.dumps(m) for m in [
    {"speaker": "Maya", "text": "I moved to Lisbon in January.", "timestamp": "2024-01-10T10:00:00Z", "session": "s1"},
    {"speaker": "Tom", "text": "Maya Lopez told me the harbour in Lisbon is lovely.",
     "timestamp": "2024-01-10T10:01:00Z", "session": "s1"},
    {"speaker": "Maya", "text": "I moved to Porto last week.", "timestamp": "2024-06-01T09:00:00Z", "session": "s2"},
    {"speaker": "Tom", "text": "Lena Lopez works at Acme in Porto.", "timestamp": "2024-06-01T09:02:00Z",
     "session": "s2"}]) + "\n"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Transaction times and index scores: when this run wrote, and BM25 statistics of indexes every group shares.
VOLATILE = {"created_at", "updated_at", "invalidated_at", "expired_at", "undone_at", "merged_at", "score",
            "scores", "actor", "group_id"}


class Rest:
    def __init__(self, client, group: str, headers: dict[str, str]) -> None:
        self.c, self.g, self.h = client, group, headers

    def _ok(self, r) -> Any:
        assert r.status_code in (200, 202), r.text
        return r.json()

    def ingest(self, text: str) -> None:
        self._ok(self.c.post(f"/v1/groups/{self.g}/sources", headers=self.h, data={"format": "chat-jsonl"},
                             files={"file": ("chat.jsonl", text.encode(), "application/x-ndjson")}))

    def search(self, q: str) -> Any:
        return self._ok(self.c.get(f"/v1/groups/{self.g}/search", headers=self.h, params={"q": q, "limit": 5}))

    def facts(self, **params: Any) -> list[dict]:
        return self._ok(self.c.get(f"/v1/groups/{self.g}/facts", headers=self.h, params=params))["items"]

    def page(self, **params: Any) -> Any:
        return self._ok(self.c.get(f"/v1/groups/{self.g}/facts", headers=self.h, params=params))

    def resolve(self, name: str) -> Any:
        return self._ok(self.c.get(f"/v1/groups/{self.g}/entities", headers=self.h, params={"name": name}))

    def entity(self, uuid: str) -> Any:
        return self._ok(self.c.get(f"/v1/entities/{uuid}", headers=self.h))  # follows the 308 of a merge

    def timeline(self, uuid: str) -> Any:
        return self._ok(self.c.get(f"/v1/entities/{uuid}/timeline", headers=self.h))

    def correct(self, uuid: str, **fix: Any) -> Any:
        return self._ok(self.c.post(f"/v1/facts/{uuid}:correct", headers=self.h, json=fix))

    def merge(self, uuid: str, into: str) -> Any:
        return self._ok(self.c.post(f"/v1/entities/{uuid}:merge", headers=self.h, json={"into": into}))

    def unmerge(self, uuid: str, record: str) -> Any:
        return self._ok(self.c.post(f"/v1/entities/{uuid}/merges/{record}/undo", headers=self.h))

    def retract(self, episode: str) -> Any:
        return self._ok(self.c.delete(f"/v1/episodes/{episode}", headers=self.h))


class Mcp:
    ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

    def __init__(self, client, group: str, headers: dict[str, str]) -> None:
        self.c, self.g, self.h = client, group, {**self.ACCEPT, **headers}
        self._rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "parity", "version": "0"}})

    def _rpc(self, method: str, params: dict) -> Any:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        r = self.c.post("/mcp/", headers=self.h, content=json.dumps(body))
        assert r.status_code == 200, r.text
        return r.json()["result"]

    def _tool(self, tool: str, **arguments: Any) -> Any:
        result = self._rpc("tools/call", {"name": tool, "arguments": arguments})
        assert result.get("isError") is not True, result
        return result["structuredContent"]

    def ingest(self, text: str) -> None:
        self._tool("add_source", group=self.g, text=text, format="chat-jsonl", name="chat.jsonl")

    def search(self, q: str) -> Any:
        return self._tool("search", group=self.g, query=q, limit=5)

    def facts(self, **params: Any) -> list[dict]:
        return self._tool("list_facts", group=self.g, **params)["items"]

    def page(self, **params: Any) -> Any:
        return self._tool("list_facts", group=self.g, **params)

    def resolve(self, name: str) -> Any:
        return self._tool("resolve_entity", group=self.g, name=name)

    def entity(self, uuid: str) -> Any:
        return self._tool("get_entity", uuid=uuid)

    def timeline(self, uuid: str) -> Any:
        return self._tool("entity_timeline", uuid=uuid)

    def correct(self, uuid: str, **fix: Any) -> Any:
        return self._tool("correct_fact", uuid=uuid, **fix)

    def merge(self, uuid: str, into: str) -> Any:
        return self._tool("merge_entities", uuid=uuid, into=into)

    def unmerge(self, uuid: str, record: str) -> Any:
        return self._tool("undo_merge", uuid=uuid, record=record)

    def retract(self, episode: str) -> Any:
        return self._tool("retract_episode", uuid=episode)


class Cli:
    def __init__(self, group: str, env: dict[str, str], folder) -> None:
        from strata.api.cli import app

        self.app, self.g, self.env, self.folder = app, group, env, folder
        self.runner = CliRunner()

    def _run(self, *args: str) -> str:
        done = self.runner.invoke(self.app, list(args), env=self.env)
        assert done.exit_code == 0, (args, done.output, done.exception)
        return done.stdout

    def _json(self, *args: str) -> Any:
        return json.loads(self._run(*args, "--json"))

    def ingest(self, text: str) -> None:
        path = self.folder / "chat.jsonl"
        path.write_text(text, encoding="utf-8")
        # as the keys of the other two (named "test") record it
        self._run("ingest", str(path), "--group", self.g, "--format", "chat-jsonl", "--inline", "--agent", "test")

    def search(self, q: str) -> Any:
        return self._json("search", q, "--group", self.g, "--limit", "5")

    def facts(self, **params: Any) -> list[dict]:
        flags = {"as_of": "--as-of", "predicate": "--predicate", "include_history": "--history",
                 "subject": "--subject"}
        args: list[str] = []
        for k, v in params.items():
            args += [flags[k]] if v is True else [flags[k], str(v)]
        return [json.loads(line) for line in self._run("facts", "--group", self.g, *args, "--json").splitlines()]

    def page(self, **params: Any) -> Any:
        args = [a for k, v in params.items() for a in (f"--{k}", str(v))]
        return self._json("facts", "--group", self.g, *args)

    def resolve(self, name: str) -> Any:
        return self._json("entity", name, "--group", self.g)

    def entity(self, uuid: str) -> Any:
        return self._json("entity", uuid, "--group", self.g)

    def timeline(self, uuid: str) -> Any:
        return self._json("timeline", uuid, "--group", self.g)

    def correct(self, uuid: str, **fix: Any) -> Any:
        return self._json("correct", uuid, "--invalid-at", fix["invalid_at"], "--reason", fix["reason"])

    def merge(self, uuid: str, into: str) -> Any:
        return self._json("merge", uuid, "--into", into, "--group", self.g)

    def unmerge(self, uuid: str, record: str) -> Any:
        return self._json("unmerge", uuid, "--record", record, "--group", self.g)

    def retract(self, episode: str) -> Any:
        return self._json("retract", "episode", episode)


def canonical(value: Any, ids: dict[str, str]) -> Any:
    """The answer with transaction times and scores dropped and each uuid named by its order of appearance."""
    if isinstance(value, dict):
        return {k: canonical(v, ids) for k, v in sorted(value.items()) if k not in VOLATILE}
    if isinstance(value, list):
        return [canonical(v, ids) for v in value]
    if isinstance(value, str):
        return UUID.sub(lambda m: ids.setdefault(m.group(0), f"<{len(ids)}>"), value)
    return value


def hit_label(hit: dict) -> tuple[str, str]:
    if hit.get("fact"):
        return hit["kind"], hit["fact"]["fact"]
    if hit.get("entity"):
        return hit["kind"], hit["entity"]["name"]
    return hit["kind"], hit["episode"]["text"]


def listed(facts: list[dict]) -> list[dict]:
    """A listing in an order of its own (pages go by uuid, and each group's uuids differ)."""
    return sorted(facts, key=lambda f: (f["subject_name"], f["predicate"], f["object_name"], f["valid_at"] or ""))


def scenario(adapters: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each step's answer per adapter, the steps run side by side (each index statistic the same for all)."""

    def each(fn) -> dict[str, Any]:
        return {name: fn(a) for name, a in adapters.items()}

    each(lambda a: a.ingest(CHAT))
    yield "search", each(lambda a: [hit_label(h) for h in a.search("where does Maya live")["hits"]])
    yield "facts as of March", each(lambda a: listed(a.facts(predicate="lives_in", as_of="2024-03-01T00:00:00Z")))
    yield "facts now", each(lambda a: listed(a.facts(predicate="lives_in")))
    first = each(lambda a: a.page(limit=1))
    yield "one page of facts", {n: {"count": p["count"], "items": len(p["items"]), "more": bool(p["next_cursor"])}
                                for n, p in first.items()}
    yield "the next page", each(lambda a: len(a.page(limit=1, cursor=first[_name(a, adapters)]["next_cursor"])
                                              ["items"]))
    resolved = each(lambda a: a.resolve("Maya"))
    yield "resolve", resolved
    maya = {n: r["candidates"][0]["uuid"] for n, r in resolved.items()}
    yield "entity", each(lambda a: a.entity(maya[_name(a, adapters)]))
    yield "timeline", each(lambda a: a.timeline(maya[_name(a, adapters)]))

    lisbon = each(lambda a: next(f["uuid"] for f in a.facts(include_history=True) if f["object_name"] == "Lisbon"))
    yield "correct", each(lambda a: a.correct(lisbon[_name(a, adapters)], invalid_at="2024-05-01T00:00:00Z",
                                              reason="moved earlier"))
    yield "history after the correction", each(lambda a: listed(a.facts(predicate="lives_in", include_history=True)))

    lena = each(lambda a: a.resolve("Lena Lopez")["candidates"][0]["uuid"])
    merged = each(lambda a: a.merge(lena[_name(a, adapters)], maya[_name(a, adapters)]))
    yield "merge", merged
    yield "merged-away entity", each(lambda a: a.entity(lena[_name(a, adapters)]))
    yield "unmerge", each(lambda a: a.unmerge(maya[_name(a, adapters)], merged[_name(a, adapters)]["record_uuid"]))
    yield "entity after unmerge", each(lambda a: a.entity(lena[_name(a, adapters)]))

    porto = each(lambda a: next(f for f in a.facts(predicate="lives_in") if f["object_name"] == "Porto"))
    yield "retract", each(lambda a: a.retract(porto[_name(a, adapters)]["episodes"][0]))
    yield "facts after the retraction", each(lambda a: listed(a.facts(predicate="lives_in", include_history=True)))


def _name(adapter: Any, adapters: dict[str, Any]) -> str:
    return next(n for n, a in adapters.items() if a is adapter)


def test_rest_mcp_and_cli_answer_alike(client, graph, settings, make_key, tmp_path) -> None:
    groups = {name: f"test-{uuidlib.uuid4().hex[:10]}" for name in ("rest", "mcp", "cli")}
    env = {"STRATA_NEO4J_URI": settings.neo4j_uri, "STRATA_REDIS_URL": settings.redis_url}
    try:
        adapters = {"rest": Rest(client, groups["rest"], make_key([groups["rest"]])),
                    "mcp": Mcp(client, groups["mcp"], make_key([groups["mcp"]])),
                    "cli": Cli(groups["cli"], env, tmp_path)}
        ids: dict[str, dict[str, str]] = {name: {} for name in adapters}
        rest: dict[str, Any] = {}
        for step, answers in scenario(adapters):
            seen = {name: canonical(answer, ids[name]) for name, answer in answers.items()}
            assert seen["mcp"] == seen["rest"], step
            assert seen["cli"] == seen["rest"], step
            rest[step] = answers["rest"]
        # the answers compared are the scenario's, not empty ones
        assert len(rest) == 16 and all(rest.values())
        assert rest["one page of facts"]["items"] == 1 and rest["one page of facts"]["more"]
        assert [f["object_name"] for f in rest["facts as of March"]] == ["Lisbon"]
        assert [f["object_name"] for f in rest["facts now"]] == ["Porto"]
        assert rest["correct"]["slot_updates"] >= 0 and rest["merge"]["facts_moved"] >= 1
        assert rest["merged-away entity"]["name"] == "Maya Lopez"  # merges hold
        assert rest["entity after unmerge"]["name"] == "Lena Lopez"
        assert rest["retract"]["facts_expired"] >= 1
        kept = {f["object_name"]: f for f in rest["facts after the retraction"]}
        assert kept["Porto"]["expired_at"] and not kept["Porto"]["episodes"]  # kept as history, no longer believed
    finally:
        for g in groups.values():
            graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=g)
