"""What the routers share: the application service the lifespan built, typed."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request

from strata.memory import GROUP, Memory

# A group id as the server checks it, declared so the OpenAPI document says what is accepted.
GroupId = Annotated[str, Path(description="Group id", examples=["demo"], max_length=128, pattern=GROUP.pattern)]


def memory(request: Request) -> Memory:
    return request.app.state.memory
