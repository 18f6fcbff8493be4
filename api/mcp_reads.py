"""The read tools of the MCP server, one per row of api/usecases.py: arguments and input schema from the use
case's request model, the key checked against the group (or the entity's group) as REST does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from strata.api.auth import check_group, owned_group
from strata.api.derive import mcp_tool
from strata.api.usecases import READS, UseCase
from strata.memory import ApiKey, Memory

ADDRESS = {"group": {"group": "Group id."}, "entity": {"uuid": "Entity uuid."}}


def answer_json(value: BaseModel | Sequence[BaseModel]) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return {"result": [v.model_dump(mode="json") for v in value]}


def register_reads(mcp: Any, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
                   call: Callable[[Callable[[], Any]], Any]) -> None:
    for case in (c for c in READS if c.has_mcp):
        mcp_tool(mcp, case.mcp, case.request, ADDRESS[case.on], case.doc, _runner(case, mem, key_of, call),
                 legacy=case.mcp_legacy)


def _runner(case: UseCase, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
            call: Callable[[Callable[[], Any]], Any]) -> Callable[..., Any]:
    async def run(ctx: Any, where: dict[str, str], ask: BaseModel) -> Any:
        def answer() -> Any:
            key = key_of(ctx)
            if case.on == "group":
                check_group(key, where["group"], "r")
                return answer_json(getattr(mem(), case.run)(where["group"], ask))
            group = owned_group(mem(), key, "entity", where["uuid"], "r")
            return answer_json(getattr(mem(), case.run)(group, where["uuid"], ask))

        return await call(answer)

    return run
