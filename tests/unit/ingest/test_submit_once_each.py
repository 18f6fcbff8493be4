"""One submission: the same episode twice is one episode; one uuid naming two contents is refused."""

from __future__ import annotations

import pytest

from strata.ingest.submit import once_each
from strata.schema.errors import InputError
from strata.schema.models import Episode, utcnow


def _episode(uuid: str, content: str) -> Episode:
    return Episode(uuid=uuid, group_id="g", kind="text", source_name="s", reference_time=utcnow(), content=content,
                   content_hash=f"hash-of-{content}")


def test_the_same_episode_twice_is_kept_once_in_order() -> None:
    a, b = _episode("u1", "one"), _episode("u2", "two")
    assert [e.uuid for e in once_each("g", [a, b, a])] == ["u1", "u2"]


def test_one_uuid_with_two_contents_is_refused() -> None:
    with pytest.raises(InputError, match="two different contents"):
        once_each("g", [_episode("u1", "one"), _episode("u1", "other")])
