"""API keys scoped to groups with read/write rights, stored hashed in Neo4j.

A key reads ``stk_<id>_<secret>``: the id finds the record, the secret is checked against its SHA-256
(secrets are 256 random bits, so a fast hash is enough) with a constant-time comparison.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from pydantic import BaseModel, Field, field_validator

from strata.graph.driver import Graph
from strata.graph.queries import keys as q
from strata.schema.errors import InputError, NotFoundError
from strata.schema.models import utcnow

PREFIX = "stk"
_TOKEN = re.compile(r"^stk_([0-9a-f]{16})_([A-Za-z0-9_-]{20,100})$")
GROUP = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$")


class ApiKey(BaseModel):
    id: str
    groups: list[str]
    rights: str = Field(pattern=r"^(r|w|rw)$")
    name: str | None = None

    @field_validator("groups")
    @classmethod
    def _groups(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("a key needs at least one group")
        for g in value:
            if not GROUP.match(g):
                raise ValueError(f"invalid group id {g!r}")
        return sorted(set(value))

    def can(self, group_id: str, right: str) -> bool:
        return group_id in self.groups and right in self.rights

    @property
    def agent(self) -> str:
        """Who a write through this key asserts by default: its name, else its id."""
        return self.name or f"key:{self.id}"


class CreatedKey(BaseModel):
    key: ApiKey
    token: str


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(graph: Graph, groups: list[str], rights: str, name: str | None = None) -> CreatedKey:
    try:
        key = ApiKey(id=secrets.token_hex(8), groups=groups, rights=rights, name=name)
    except ValueError as exc:
        raise InputError(f"invalid key: {exc}") from exc
    secret = secrets.token_urlsafe(32)
    graph.query(q.CREATE_KEY, id=key.id, hash=_hash(secret), groups=key.groups, rights=key.rights, name=name,
                now=utcnow())
    return CreatedKey(key=key, token=f"{PREFIX}_{key.id}_{secret}")


def verify_token(graph: Graph, token: str) -> ApiKey | None:
    match = _TOKEN.match(token.strip())
    if not match:
        return None
    key_id, secret = match.groups()
    rows = graph.query(q.GET_KEY, id=key_id)
    if not rows or not hmac.compare_digest(rows[0]["hash"], _hash(secret)):
        return None
    row = rows[0]
    return ApiKey(id=row["id"], groups=row["groups"], rights=row["rights"], name=row["name"])


def revoke_key(graph: Graph, key_id: str) -> None:
    if not graph.query(q.REVOKE_KEY, id=key_id, now=utcnow()):
        raise NotFoundError(f"api key {key_id} not found")


def list_keys(graph: Graph) -> list[ApiKey]:
    return [ApiKey(id=r["id"], groups=r["groups"], rights=r["rights"], name=r["name"])
            for r in graph.query(q.LIST_KEYS)]
