"""The write tools of the MCP server, one per row of api/usecases_write.py: arguments and input schema from
the use case's request model; each checks the key for writing as the REST route does, then calls Memory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from strata.api.auth import actor, check_group, owned_group, owned_pair
from strata.api.derive import mcp_tool
from strata.api.mcp_reads import answer_json
from strata.api.usecases_write import MCP_ADDRESS, WRITES
from strata.memory import ApiKey, Memory

# (memory, key, address, request) -> answer, per use case
Write = Callable[[Memory, ApiKey, dict[str, str], Any], Any]


def _in_group(mem: Memory, key: ApiKey, where: dict[str, str]) -> str:
    check_group(key, where["group"], "w")
    return where["group"]


def _retract(kind: str) -> Write:
    def run(mem: Memory, key: ApiKey, where: dict[str, str], ask: Any) -> Any:
        group = owned_group(mem, key, kind, where["uuid"], "w")
        return mem.retract(group, kind, where["uuid"], purge=ask.purge, key_id=key.id)

    return run


def _review(mem: Memory, key: ApiKey, where: dict[str, str], ask: Any) -> Any:
    entity, candidate = where["entity"], where["candidate"]
    group = owned_pair(mem, key, entity, candidate)
    if ask.decision == "accept":
        return mem.accept_suggestion(group, entity, candidate, ask.into, actor=actor(key))
    return mem.reject_suggestion(group, entity, candidate, actor=actor(key), reason=ask.reason)


RUN: dict[str, Write] = {
    "add_episode": lambda mem, key, where, ask: mem.add_episode(_in_group(mem, key, where), ask, key.agent),
    "add_episodes": lambda mem, key, where, ask: mem.add_episodes(_in_group(mem, key, where), list(ask.episodes),
                                                                  key.agent),
    "add_source": lambda mem, key, where, ask: mem.add_source(_in_group(mem, key, where), ask.text.encode(),
                                                              ask.format, ask.name or "upload",
                                                              ask.agent or key.agent),
    "correct": lambda mem, key, where, ask: mem.correct(owned_group(mem, key, "fact", where["uuid"], "w"),
                                                        where["uuid"], ask),
    "retract_episode": _retract("episode"),
    "retract_source": _retract("source"),
    "merge": lambda mem, key, where, ask: mem.merge(owned_pair(mem, key, where["uuid"], ask.into), where["uuid"],
                                                    ask.into, actor=actor(key), reason=ask.reason),
    "unmerge": lambda mem, key, where, ask: mem.unmerge(owned_group(mem, key, "entity", where["uuid"], "w"),
                                                        where["uuid"], where["record"]),
    "accept_suggestion": _review,
    "set_retention": lambda mem, key, where, ask: mem.set_retention(_in_group(mem, key, where), ask,
                                                                    actor=key.name or key.id),
    "apply_retention": lambda mem, key, where, ask: mem.apply_retention(_in_group(mem, key, where),
                                                                        dry_run=ask.dry_run),
}


def register_writes(mcp: Any, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
                    call: Callable[[Callable[[], Any]], Any]) -> None:
    for case in WRITES:
        if case.has_mcp and case.name in RUN:  # reject_suggestion shares accept_suggestion's tool
            mcp_tool(mcp, case.mcp, case.mcp_request or case.request, MCP_ADDRESS[case.on], case.doc,
                     _runner(RUN[case.name], mem, key_of, call))


def _runner(write: Write, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
            call: Callable[[Callable[[], Any]], Any]) -> Callable[..., Any]:
    async def run(ctx: Any, where: dict[str, str], ask: Any) -> Any:
        return await call(lambda: answer_json(write(mem(), key_of(ctx), where, ask)))

    return run
