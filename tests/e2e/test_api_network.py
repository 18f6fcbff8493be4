"""The character network over HTTP: pairs from a posted text, bounded by position, and the group's access rule."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

TEXT = ("Mr. Thomas Hale walked with Miss Anna Grey along the river. Later Miss Anna Grey called on "
        "Mrs. Mary Stone at the rectory.")


def test_network_read_over_http(client, group_id, other_group, make_key) -> None:
    h = make_key([group_id], "rw")
    r = client.post(f"/v1/groups/{group_id}/episodes", headers=h,
                    json={"content": TEXT, "reference_time": "2024-01-01T00:00:00Z"})
    assert r.status_code == 202, r.text
    assert client.get(f"/v1/jobs/{r.json()['job_id']}", headers=h).json()["status"] == "done"

    net = client.get(f"/v1/groups/{group_id}/network", headers=h).json()
    pairs = {frozenset((i["a_name"], i["b_name"])): i for i in net["interactions"]}
    grey_hale = pairs[frozenset(("Miss Anna Grey", "Mr. Thomas Hale"))]
    assert grey_hale["scenes"] == 1 and grey_hale["weight"] == 1 and grey_hale["quotes"] == 0
    assert grey_hale["first"]["position"] == 0
    # a story cut needs a book in the group: this group has none
    assert client.get(f"/v1/groups/{group_id}/network", headers=h, params={"as_of_chapter": 1}).status_code == 404
    assert frozenset(("Miss Anna Grey", "Mrs. Mary Stone")) in pairs

    one = client.get(f"/v1/groups/{group_id}/network", headers=h, params={"limit": 1}).json()
    assert len(one["interactions"]) == 1
    assert client.get(f"/v1/groups/{group_id}/network", headers=h, params={"limit": 0}).status_code == 422
    stranger = make_key([other_group], "r")
    assert client.get(f"/v1/groups/{group_id}/network", headers=stranger).status_code in (403, 404)
