"""Corrections keep transaction time: a read with ``known_at`` before a correction of a fact's end sees the end
believed then, after it the corrected one, across several corrections and the temporal rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

pytestmark = pytest.mark.integration


def mayor(holder: str, year: int) -> dict:
    return {"facts": [{"subject": holder, "subject_type": "Person", "predicate": "holds_office",
                       "object": "Mayor of Avalon", "object_type": "Office", "valid_at": f"{year}-01-01T00:00:00Z",
                       "functional": "object"}]}


def holders(client, group: str, headers: dict, as_of: str, known_at: datetime | None = None) -> list[str]:
    params = {"predicate": "holds_office", "as_of": as_of}
    if known_at is not None:
        params["known_at"] = known_at.isoformat()
    r = client.get(f"/v1/groups/{group}/facts", headers=headers, params=params)
    assert r.status_code == 200, r.text
    return sorted(f["subject_name"] for f in r.json()["items"])


def only_fact(client, group: str, headers: dict) -> dict:
    listing = client.get(f"/v1/groups/{group}/facts", headers=headers, params={"predicate": "holds_office"})
    return listing.json()["items"][0]


def correct(client, headers: dict, fact_uuid: str, end: str) -> datetime:
    r = client.post(f"/v1/facts/{fact_uuid}:correct", headers=headers, json={"invalid_at": end, "reason": "fix"})
    assert r.status_code == 200, r.text
    assert r.json() == {"uuid": fact_uuid, "replaced": None, "slot_updates": 0}
    return datetime.now(UTC)


def test_known_at_reads_the_end_believed_before_each_correction(client, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    assert client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=mayor("Ann Archer", 1990)).status_code == 202
    fact = only_fact(client, group_id, h)
    learned = datetime.now(UTC)
    first = correct(client, h, fact["uuid"], "2001-01-01T00:00:00Z")
    second = correct(client, h, fact["uuid"], "1999-01-01T00:00:00Z")

    # before any correction the term was open
    assert holders(client, group_id, h, "2005-06-01T00:00:00Z", learned) == ["Ann Archer"]
    # after the first: ended 2001
    assert holders(client, group_id, h, "2005-06-01T00:00:00Z", first) == []
    assert holders(client, group_id, h, "2000-06-01T00:00:00Z", first) == ["Ann Archer"]
    # after the second: ended 1999
    assert holders(client, group_id, h, "2000-06-01T00:00:00Z", second) == []
    assert holders(client, group_id, h, "2000-06-01T00:00:00Z") == []
    assert holders(client, group_id, h, "1998-06-01T00:00:00Z") == ["Ann Archer"]


def test_a_correction_and_a_successor_keep_their_order_in_transaction_time(client, group_id, make_key) -> None:
    """A stated end later closed earlier by a successor: before the successor was learned, the stated end."""
    h = make_key([group_id], "rw")
    client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=mayor("Ann Archer", 1990))
    fact = only_fact(client, group_id, h)
    corrected = correct(client, h, fact["uuid"], "2001-01-01T00:00:00Z")
    client.post(f"/v1/groups/{group_id}/episodes", headers=h, json=mayor("Ben Baker", 1995))
    succeeded = datetime.now(UTC)

    assert holders(client, group_id, h, "1997-06-01T00:00:00Z", corrected) == ["Ann Archer"]
    assert holders(client, group_id, h, "1997-06-01T00:00:00Z", succeeded) == ["Ben Baker"]
    assert holders(client, group_id, h, "2003-06-01T00:00:00Z", corrected) == []
