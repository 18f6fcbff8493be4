"""Deterministic identifiers: the same input always gives the same uuid, so retries are idempotent."""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime

_NAMESPACE = uuid.UUID("6f1c2a7e-3b4d-5e6f-8a9b-0c1d2e3f4a5b")


def stable_uuid(*parts: object) -> str:
    """uuid5 over the parts joined with a separator that cannot occur in normal text."""
    key = "\x1f".join([_text(p) for p in parts])
    return str(uuid.uuid5(_NAMESPACE, key))


def _text(part: object) -> str:
    if part is None:
        return ""
    return part.isoformat() if isinstance(part, datetime) else str(part)


def content_hash(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def source_uuid(group_id: str, source_hash: str) -> str:
    return stable_uuid("source", group_id, source_hash)


def episode_uuid(group_id: str, source_hash: str, seq: int) -> str:
    return stable_uuid("episode", group_id, source_hash, seq)


def entity_uuid(group_id: str, key: str) -> str:
    return stable_uuid("entity", group_id, key)


def fact_uuid(
    group_id: str, subject_uuid: str, predicate: str, object_uuid: str, valid_at: datetime | None,
    role: str | None = None,
) -> str:
    # A role joins the identity only when there is one, so facts without roles keep their ids.
    if role:
        return stable_uuid("fact", group_id, subject_uuid, predicate, object_uuid, valid_at, role)
    return stable_uuid("fact", group_id, subject_uuid, predicate, object_uuid, valid_at)
