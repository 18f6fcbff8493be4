"""API keys at the boundary: ``Authorization: Bearer stk_...`` or ``X-API-Key: stk_...``.

A key is scoped to groups with rights ``r``, ``w`` or ``rw``. A group the key does not hold answers 403; an
object (entity, episode, job...) of another group answers 404, exactly as if it did not exist.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from strata.api.deps import GroupId, Runtime, runtime
from strata.api.errors import ForbiddenError, UnauthorizedError
from strata.graph.keys import GROUP, ApiKey, verify_token
from strata.graph.traverse import group_of
from strata.schema.errors import InputError, NotFoundError

KEY_CACHE_SECONDS = 10.0
_bearer = HTTPBearer(auto_error=False, description="An API key created with `strata keys create`.")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same API key, as a header.")


class AllAccess(ApiKey):
    """Used only when settings.auth_disabled is set (local development)."""

    def holds(self, group_id: str) -> bool:
        return True

    def can(self, group_id: str, right: str) -> bool:
        return True


LOCAL = AllAccess.model_construct(id="local", groups=[], rights="rw", name="auth disabled")


def authenticate(rt: Runtime, token: str | None) -> ApiKey:
    if rt.settings.auth_disabled:
        return LOCAL
    if not token:
        raise UnauthorizedError("an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    now = time.monotonic()
    cached = rt.key_cache.get(token)
    if cached and cached[0] > now:
        return cached[1]
    key = verify_token(rt.graph, token)
    if key is None:
        raise UnauthorizedError("the API key is invalid or revoked")
    if len(rt.key_cache) > 10_000:
        rt.key_cache.clear()
    rt.key_cache[token] = (now + KEY_CACHE_SECONDS, key)
    return key


def principal(request: Request, bearer: HTTPAuthorizationCredentials | None = Security(_bearer),
              header: str | None = Security(_header)) -> ApiKey:
    token = bearer.credentials if bearer else header
    return authenticate(runtime(request), token)


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


def owned_group(rt: Runtime, key: ApiKey, kind: str, uuid: str, right: str) -> str:
    """The group of an object the key may use with ``right`` (``r``, ``w``, or ``any`` of them); 404 when it
    does not exist or belongs to a group the key does not hold, 403 when the key holds the group without the
    right."""
    group_id = group_of(rt.graph, kind, uuid)
    if group_id is None or not key.holds(group_id):
        raise NotFoundError(f"{kind} {uuid} not found")
    if right != "any":
        check_group(key, group_id, right)
    return group_id


read_group = group_access("r")
write_group = group_access("w")
