"""MCP tools for a group's retention policy (docs/api.md, "Retention"), registered by api/mcp_server.py: reading
it here; setting and applying it are write use cases (api/usecases_write.py, api/mcp_writes.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver import Context

from strata.api.auth import check_group
from strata.memory import ApiKey, Memory


def register_retention_tools(mcp: Any, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
                             call: Callable[[Callable[[], Any]], Awaitable[Any]]) -> None:
    @mcp.tool()
    async def get_retention(group: str, ctx: Context) -> dict[str, Any]:
        """The group's retention policy (null fields: kept forever) and when it last ran."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            return mem().retention(group).model_dump(mode="json")

        return await call(run)
