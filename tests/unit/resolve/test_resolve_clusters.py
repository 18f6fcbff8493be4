"""Within-episode collapse and union-find."""

from __future__ import annotations

from strata.resolve.clusters import UnionFind, canonical_name, collapse_mentions
from strata.schema.models import ExtractedEntity, Span


def test_union_find_joins_chained_pairs():
    uf = UnionFind(5)
    for a, b in [(0, 1), (2, 3), (1, 2)]:
        uf.union(a, b)
    assert uf.groups() == [[0, 1, 2, 3], [4]]


def E(name: str, type: str = "Person", **kw) -> ExtractedEntity:
    return ExtractedEntity(name=name, type=type, **kw)


def test_collapse_bennets_and_darcys():
    ents = [E("Mr. Bennet"), E("Mrs. Bennet"), E("Elizabeth Bennet", spans=[Span(start=5, end=10)]),
            E("Lizzy", spans=[Span(start=0, end=5)]), E("Jane Bennet"), E("Jane", "Entity"), E("Darcy"),
            E("Mr. Darcy"), E("Fitzwilliam Darcy"), E("Bennet"), E("Paris", "Place"), E("Paris", "Person"),
            E("Kitty"), E("Catherine Bennet"), E("mr bennet")]
    groups = {g.name: g for g in collapse_mentions(ents)}
    assert set(groups) == {"Mr. Bennet", "Mrs. Bennet", "Elizabeth Bennet", "Jane Bennet", "Fitzwilliam Darcy",
                           "Darcy", "Mr. Darcy", "Bennet", "Paris", "Catherine Bennet"}
    assert groups["Mr. Bennet"].members == [0, 14]
    assert groups["Elizabeth Bennet"].aliases == ["Lizzy"]
    assert [s.start for s in groups["Elizabeth Bennet"].spans] == [0, 5]
    # "Darcy" matches both "Mr. Darcy" and "Fitzwilliam Darcy", which are only possibly one person
    assert groups["Fitzwilliam Darcy"].aliases == [] and groups["Darcy"].members == [6]
    assert groups["Catherine Bennet"].aliases == ["Kitty"]
    assert len(collapse_mentions(ents)) == 11  # two "Paris": a place and a person


def test_surname_joins_unique_full_name_only_with_compatible_honorific():
    assert len(collapse_mentions([E("Miss Bingley"), E("Caroline Bingley"), E("Bingley")])) == 3
    assert len(collapse_mentions([E("Bingley"), E("Charles Bingley")])) == 1
    assert len(collapse_mentions([E("Darcy"), E("Mr. Darcy")])) == 1
    assert len(collapse_mentions([E("Bennet"), E("Mr. Bennet"), E("Mrs. Bennet")])) == 3
    groups = collapse_mentions([E("Lizzy"), E("Elizabeth Bennet"), E("Eliza Bennet"), E("Miss Eliza")])
    assert [(g.name, g.members) for g in groups] == [("Elizabeth Bennet", [0, 1, 2, 3])]


def test_collapse_is_independent_of_input_order():
    ents = [E("Lizzy"), E("Elizabeth Bennet"), E("Mr. Darcy"), E("Darcy"), E("Jane")]
    names = sorted((g.name, tuple(sorted(g.aliases))) for g in collapse_mentions(ents))
    assert names == sorted((g.name, tuple(sorted(g.aliases))) for g in collapse_mentions(ents[::-1]))


def test_canonical_name_rule():
    assert canonical_name(["Mr. Darcy", "Darcy", "Fitzwilliam Darcy"]) == "Fitzwilliam Darcy"
    assert canonical_name(["Bennet", "Mr. Bennet"]) == "Mr. Bennet"
    assert canonical_name(["My dear Jane", "Jane"]) == "Jane"
