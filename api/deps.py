"""What the routers share: the application service the lifespan built, typed."""

from __future__ import annotations

from fastapi import Request

from strata.api.memory import Memory


def memory(request: Request) -> Memory:
    return request.app.state.memory
