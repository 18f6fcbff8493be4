"""A write-only key does what the docs say a writer does: post, poll its job, retract, correct; it reads nothing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def test_write_only_key(client, group_id, make_key, other_group) -> None:
    writer = make_key([group_id], "w")
    body = {"kind": "facts", "reference_time": "2024-01-01T00:00:00Z",
            "facts": [{"subject": "Ann Archer", "predicate": "lives_in", "object": "Bath"}]}
    posted = client.post(f"/v1/groups/{group_id}/episodes", headers=writer, json=body)
    assert posted.status_code == 202, posted.text
    job = client.get(f"/v1/jobs/{posted.json()['job_id']}", headers=writer)
    assert job.status_code == 200 and job.json()["status"] == "done", job.text

    assert client.get(f"/v1/groups/{group_id}/facts", headers=writer).status_code == 403
    assert client.get(f"/v1/episodes/{posted.json()['episode_uuid']}", headers=writer).status_code == 403
    retracted = client.delete(f"/v1/episodes/{posted.json()['episode_uuid']}", headers=writer)
    assert retracted.status_code == 200, retracted.text

    stranger = make_key([other_group], "rw")
    assert client.get(f"/v1/jobs/{posted.json()['job_id']}", headers=stranger).status_code == 404
