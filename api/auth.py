"""API keys at the boundary: ``Authorization: Bearer stk_...`` or ``X-API-Key: stk_...``.

A key is scoped to groups with rights ``r``, ``w`` or ``rw``. A group the key does not hold answers 403; an
object (entity, episode, job...) of another group answers 404, exactly as if it did not exist.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from strata.api.deps import GroupId, memory
from strata.api.errors import ForbiddenError, UnauthorizedError
from strata.memory import GROUP, ApiKey, Memory
from strata.schema.errors import InputError, NotFoundError

_bearer = HTTPBearer(auto_error=False, description="An API key created with `strata keys create`.")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same API key, as a header.")


class AllAccess(ApiKey):
    """Used only when settings.auth_disabled is set (local development)."""

    def holds(self, group_id: str) -> bool:
        return True

    def can(self, group_id: str, right: str) -> bool:
        return True


LOCAL = AllAccess.model_construct(id="local", groups=[], rights="rw", name="auth disabled")


def authenticate(mem: Memory, token: str | None) -> ApiKey:
    if mem.settings.auth_disabled:
        return LOCAL
    if not token:
        raise UnauthorizedError("an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    key = mem.verify_key(token)
    if key is None:
        raise UnauthorizedError("the API key is invalid or revoked")
    return key


def principal(request: Request, bearer: HTTPAuthorizationCredentials | None = Security(_bearer),
              header: str | None = Security(_header)) -> ApiKey:
    token = bearer.credentials if bearer else header
    return authenticate(memory(request), token)


def check_group(key: ApiKey, group_id: str, right: str) -> None:
    if not GROUP.match(group_id):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group_id[:200]})
    if not key.can(group_id, right):
        verb = "write to" if right == "w" else "read"
        raise ForbiddenError(f"this API key may not {verb} group {group_id!r}",
                             {"group": group_id, "right": right, "key_id": key.id})


def group_access(right: str) -> Callable[..., str]:
    """A dependency giving the path's ``group`` once the key may use it with ``right``."""

    def dep(group: GroupId, key: ApiKey = Depends(principal)) -> str:
        check_group(key, group, right)
        return group

    return dep


def owned_group(mem: Memory, key: ApiKey, kind: str, uuid: str, right: str) -> str:
    """The group of an object the key may use with ``right`` (``r``, ``w``, or ``any`` of them); 404 when it
    does not exist or belongs to a group the key does not hold, 403 when the key holds the group without the
    right."""
    group_id = mem.group_of(kind, uuid)
    if group_id is None or not key.holds(group_id):
        raise NotFoundError(f"{kind} {uuid} not found")
    if right != "any":
        check_group(key, group_id, right)
    return group_id


read_group = group_access("r")
write_group = group_access("w")


def owned_pair(mem: Memory, key: ApiKey, uuid: str, other: str, right: str = "w") -> str:
    """The group of two entities of one group the key may use with ``right``; 404 when they are not."""
    group = owned_group(mem, key, "entity", uuid, right)
    if owned_group(mem, key, "entity", other, right) != group:
        raise NotFoundError(f"entity {other} not found")
    return group


def actor(key: ApiKey) -> str:
    """Who a key's writes are recorded as (merges, reviews)."""
    return key.name or key.id
