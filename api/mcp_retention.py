"""MCP tools for a group's retention policy (docs/api.md, "Retention"), registered by api/mcp_server.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver import Context

from strata.api.auth import check_group
from strata.memory import ApiKey, Memory
from strata.schema.retention import policy_from


def register_retention_tools(mcp: Any, mem: Callable[[], Memory], key_of: Callable[[Any], ApiKey],
                             call: Callable[[Callable[[], Any]], Awaitable[Any]]) -> None:
    @mcp.tool()
    async def get_retention(group: str, ctx: Context) -> dict[str, Any]:
        """The group's retention policy (null fields: kept forever) and when it last ran."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            return mem().retention(group).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def set_retention(group: str, ctx: Context, raw_text_days: int | None = None,
                            passages_days: int | None = None, compact_history_days: int | None = None,
                            salience_half_life_days: float | None = None) -> dict[str, Any]:
        """Replace the group's retention policy (an argument left out keeps that kind of memory forever); it
        runs on the schedule or with ``apply_retention``."""

        def run() -> dict[str, Any]:
            key = key_of(ctx)
            check_group(key, group, "w")
            policy = policy_from(raw_text_days=raw_text_days, passages_days=passages_days,
                                 compact_history_days=compact_history_days,
                                 salience_half_life_days=salience_half_life_days)
            return mem().set_retention(group, policy, actor=key.name or key.id).model_dump(
                mode="json")

        return await call(run)

    @mcp.tool()
    async def apply_retention(group: str, ctx: Context, dry_run: bool = False) -> dict[str, Any]:
        """Run the group's retention policy now (``dry_run``: only count what it would hide and restore)."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "w")
            return mem().apply_retention(group, dry_run=dry_run).model_dump(mode="json")

        return await call(run)
