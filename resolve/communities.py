"""Communities: groups of closely related entities, found by Leiden (igraph + leidenalg) on a weighted graph.

The same edges give the same communities: vertices and edges enter in sorted order and the seed is fixed, so
a refresh over an unchanged graph is a no-op (the community ids are uuid5 of the sorted members).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from strata.schema import ids

SEED = 42
TITLE_MEMBERS = 3


class Cluster(BaseModel):
    uuid: str
    members: list[tuple[str, float]]  # (entity uuid, weighted degree inside the cluster), strongest first


def partition(edges: Sequence[tuple[str, str, float]], group_id: str, resolution: float = 1.0,
              min_size: int = 2, level: int = 0) -> list[Cluster]:
    """Leiden on the weighted, undirected graph of ``edges`` (a, b, weight); clusters of ``min_size`` or more,
    largest first. ``resolution`` 1.0 is modularity; higher gives smaller communities."""
    import igraph
    import leidenalg

    merged: dict[tuple[str, str], float] = {}
    for a, b, w in edges:
        if a != b and w > 0:
            key = (a, b) if a < b else (b, a)
            merged[key] = merged.get(key, 0.0) + float(w)
    if not merged:
        return []
    vertices = sorted({v for pair in merged for v in pair})
    index = {v: k for k, v in enumerate(vertices)}
    pairs = sorted(merged)
    graph = igraph.Graph(n=len(vertices), edges=[(index[a], index[b]) for a, b in pairs], directed=False)
    graph.es["weight"] = [merged[p] for p in pairs]
    found = leidenalg.find_partition(graph, leidenalg.RBConfigurationVertexPartition, weights="weight",
                                     resolution_parameter=resolution, n_iterations=-1, seed=SEED)
    membership = found.membership
    strength: dict[str, float] = {v: 0.0 for v in vertices}
    for (a, b), w in merged.items():
        if membership[index[a]] == membership[index[b]]:
            strength[a] += w
            strength[b] += w
    groups: dict[int, list[str]] = {}
    for v in vertices:
        groups.setdefault(membership[index[v]], []).append(v)
    clusters = []
    for members in groups.values():
        if len(members) < min_size:
            continue
        ranked = sorted(members, key=lambda v: (-strength[v], v))
        clusters.append(Cluster(uuid=ids.stable_uuid("community", group_id, level, *sorted(members)),
                                members=[(v, round(strength[v], 4)) for v in ranked]))
    clusters.sort(key=lambda c: (-len(c.members), c.uuid))
    return clusters


def title(names: Sequence[str]) -> str:
    """A community's title: its top members' names ("Elizabeth Bennet, Darcy, Jane Bennet")."""
    return ", ".join(list(dict.fromkeys(names))[:TITLE_MEMBERS])


def members_line(names: Sequence[str], size: int, shown: int = 8) -> str:
    """ "12 members: Elizabeth Bennet, Darcy, ... and 4 more." (names make a community findable by full text)"""
    listed = list(dict.fromkeys(names))[:shown]
    more = size - len(listed)
    tail = f" and {more} more" if more > 0 else ""
    return f"{size} members: {', '.join(listed)}{tail}."
