"""The Bloom perspective generator on its own: structure against real exports, and what it shows and hides."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from strata.schema.bloom import GroupBrowseSchema, build_perspective, cypher_literal, saved_cypher, scoped
from strata.schema.bloom.generate import ENDED, GREYS, PALETTE, RETRACTED
from strata.schema.bloom.models import CategoryProperty, LabelProperty
from tests.unit.schema.bloom_export_shape import SHAPE

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
INTERNAL_LABELS = {"ApiKey", "Job", "SchemaMigration", "MergeRecord", "Predicate"}
KIND_LABELS = ["Source", "Episode", "Passage", "Note", "Quote", "Community"]


def schema(group: str = "demo", types: dict[str, int] | None = None) -> GroupBrowseSchema:
    types = {"Person": 5, "Place": 3, "Organization": 1} if types is None else types
    return GroupBrowseSchema(
        group_id=group, entity_types=[{"name": n, "count": c} for n, c in types.items()],
        predicates=[{"name": "lives_in", "count": 4}, {"name": "works_for", "count": 2},
                    {"name": "unused", "count": 0}],
        segments=[{"rel": "RELATES_TO", "source": "Person", "target": "Place"},
                  {"rel": "RELATES_TO", "source": "Person", "target": "Gadget"},  # a type with no category
                  {"rel": "INTERACTS_WITH", "source": "Person", "target": "Person"}])


def exported(s: GroupBrowseSchema | None = None) -> dict[str, Any]:
    return json.loads(json.dumps(build_perspective(s or schema(), NOW).to_bloom()))


def objects(p: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Every object of the export by kind, named as the reference shape names them."""
    cats, rels = p["categories"], p["relationshipTypes"]
    return {
        "perspective": [p], "category": cats,
        "categoryProperty": [x for c in cats for x in c["properties"]],
        "caption": [x for c in cats for x in c["captions"]],
        "labelProperty": [x for props in p["labels"].values() for x in props],
        "relationshipType": rels, "relationshipProperty": [x for r in rels for x in r["properties"]],
        "relationshipCaption": [x for r in rels for x in r["captions"]],
        "palette": [p["palette"]], "template": p["templates"],
        "templateParam": [x for t in p["templates"] for x in t["params"]],
        "sceneAction": p["sceneActions"],
        "styleRule": [x for c in [*cats, *rels] for x in c["styleRules"]],
        "metadata": [p["metadata"]], "pathSegment": p["metadata"]["pathSegments"],
        "index": p["metadata"]["indexes"],
        "indexPropertyKey": [x for i in p["metadata"]["indexes"] for x in i["propertyKeys"]],
    }


def json_type(value: Any) -> set[str]:
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    return {{float: "number", str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]}


def test_every_key_of_a_real_export_is_there_with_its_type() -> None:
    found = objects(exported())
    assert set(found) == set(SHAPE)
    for kind, keys in SHAPE.items():
        assert found[kind], f"the export has no {kind} to check"
        for obj in found[kind]:
            for key, types in keys.items():
                assert key in obj, (kind, key, obj)
                assert json_type(obj[key]) & set(types), (kind, key, obj[key], types)


def test_a_broken_shape_is_caught() -> None:
    """The structural check can fail: drop a key a real export has, or give it another type."""
    p = exported()
    del p["sceneActions"][0]["categories"]
    p["templates"][0]["createdAt"] = "yesterday"
    found = objects(p)
    missing = [k for k in SHAPE["sceneAction"] if k not in found["sceneAction"][0]]
    wrong = [k for k, t in SHAPE["template"].items() if not json_type(found["template"][0][k]) & set(t)]
    assert missing == ["categories"] and wrong == ["createdAt"]


def test_top_level_is_a_bloom_2_standard_perspective() -> None:
    p = exported()
    assert p["version"].startswith("2.") and p["type"] == "STANDARD_PERSPECTIVE"
    assert set(p["metadata"]) >= {"pathSegments", "indexes"}
    assert p["createdAt"] == int(NOW.timestamp() * 1000)
    assert p["name"] == "Strata demo"
    assert exported()["id"] == p["id"] != exported(schema("other"))["id"]  # stable per group


def test_a_category_per_entity_type_then_the_catch_all_then_the_provenance_kinds() -> None:
    types = {"Person": 5, "Place": 3, "Organization": 1, "Gone": 0, "Note": 2, "Entity": 4}
    p = exported(schema(types=types))
    names = [c["name"] for c in p["categories"]]
    # "Gone" has no live entity; "Note" is a kind's label (its entities fall into the catch-all).
    assert names == ["Person", "Place", "Organization", "Entity", *KIND_LABELS]
    assert [c["labels"] for c in p["categories"][:4]] == [["Person"], ["Place"], ["Organization"], ["Entity"]]
    assert [c["id"] for c in p["categories"]] == list(range(1, len(names) + 1))
    assert len({c["color"] for c in p["categories"]}) == len(names)
    assert ENDED not in {c["color"] for c in p["categories"]}
    for c in p["categories"][:4]:
        caption = [x["key"] for x in c["captions"] if x["isCaption"]]
        assert caption == ["name"], c["name"]
        assert c["icon"]
    assert p["categories"][0]["icon"] != "no-icon"  # Person has one


def test_many_types_keep_distinct_colours() -> None:
    p = exported(schema(types={f"Type{i}": 40 - i for i in range(40)}))
    colours = [c["color"] for c in p["categories"]]
    assert len(set(colours)) == len(colours) == 47
    assert all(re.fullmatch(r"#[0-9A-F]{6}", c) for c in colours)
    # Bloom's palette first, less its greys and the facts' own blue.
    assert colours[:11] == [c for c in PALETTE if c not in GREYS | {"#4C8EDA"}]


def test_no_embedding_property_anywhere() -> None:
    text = json.dumps(exported())
    assert "embedding" not in text.lower()
    with pytest.raises(ValidationError):
        CategoryProperty(name="name_embedding", data_type="array", exclude=True)
    with pytest.raises(ValidationError):
        LabelProperty(property_key="fact_embedding", type="RELATES_TO", data_type="array")


def test_internal_properties_are_excluded_everywhere() -> None:
    p = exported()
    internal = {"group_id", "group_tag", "key", "content_hash", "messages_json", "facts_json", "metadata_json"}
    for c in p["categories"]:
        for prop in c["properties"]:
            if prop["name"] in internal:
                assert prop["exclude"], (c["name"], prop)
        assert not internal & {x["key"] for x in c["captions"]}, c["name"]
    assert not internal & {x["propertyKey"] for props in p["labels"].values() for x in props}
    assert not internal & {x["propertyKey"] for r in p["relationshipTypes"] for x in r["properties"]}
    entity = next(c for c in p["categories"] if c["name"] == "Person")
    assert {x["name"] for x in entity["properties"] if x["exclude"]} == {
        "key", "group_id", "group_tag", "summary_stale", "summary_hash", "summary_method"}


def test_internal_labels_and_relationships_are_hidden() -> None:
    p = exported()
    assert p["hideUncategorisedData"] is True  # nodes of no category are not drawn
    assert not INTERNAL_LABELS & {lab for c in p["categories"] for lab in c["labels"]}
    assert not INTERNAL_LABELS & set(p["labels"])
    assert {"MERGED_INTO", "INCLUDES"} <= set(p["hiddenRelationshipTypes"])
    assert not set(p["hiddenRelationshipTypes"]) & {r["name"] for r in p["relationshipTypes"]}


def test_facts_are_captioned_by_predicate_and_ended_or_retracted_ones_are_grey() -> None:
    rel = next(r for r in exported()["relationshipTypes"] if r["name"] == "RELATES_TO")
    assert [c["key"] for c in rel["captions"] if c["isCaption"]] == ["predicate"]
    rules = rel["styleRules"]
    grey = {r["basedOn"]: r for r in rules if r["condition"] == "is-not-null"}
    assert set(grey) == {"invalid_at_DateTime", "expired_at_DateTime"}
    assert grey["invalid_at_DateTime"]["color"] == ENDED and grey["expired_at_DateTime"]["color"] == RETRACTED
    assert all(r["applyColor"] for r in grey.values())
    # Bloom applies the first matching rule of an attribute: the greys come before any predicate colour.
    first_colour = next(i for i, r in enumerate(rules) if r["basedOn"] == "predicate_string")
    assert max(rules.index(r) for r in grey.values()) < first_colour
    coloured = [r["conditionValue"] for r in rules if r["basedOn"] == "predicate_string"]
    assert coloured == ["lives_in", "works_for"]  # by count; unused predicates get none
    assert not {r["color"] for r in rules if r["basedOn"] == "predicate_string"} & {ENDED, RETRACTED}
    every = [r["id"] for c in [*exported()["categories"], *exported()["relationshipTypes"]] for r in c["styleRules"]]
    assert len(set(every)) == len(every) and all(re.fullmatch(r"rule:\d+", i) for i in every)


def test_every_query_is_bound_to_the_group_and_takes_user_input_as_parameters() -> None:
    p = exported(schema("team-7"))
    queries = [t["cypher"] for t in p["templates"]] + [a["cypher"] for a in p["sceneActions"]]
    queries += [x["cypher"] for t in p["templates"] for x in t["params"] if x["cypher"]]
    assert len(queries) >= 8 + 4 + 5
    for q in queries:
        first, body = q.split("\n", 1)
        assert first == "WITH 'team-7' AS group_id", q
        assert "group_id" in body and "team-7" not in body, q
    for t in p["templates"]:
        words = re.findall(r"\$\w+", t["text"])
        assert [x["name"] for x in t["params"]] == words, t["text"]
        for w in words:
            assert w in t["cypher"], (t["text"], w)
    phrases = {t["text"] for t in p["templates"]}
    assert {"facts about $name", "$name as of $date", "timeline of $name", "what did $name say",
            "facts from $source"} <= phrases
    actions = {a["name"]: a["cypher"] for a in p["sceneActions"]}
    assert {"expand current facts", "show evidence", "show history"} <= set(actions)
    assert "$nodes" in actions["expand current facts"] and "$relationships" in actions["show evidence"]


def test_the_group_literal_is_escaped_and_control_characters_are_refused() -> None:
    assert cypher_literal("a'b\\c") == "'a\\'b\\\\c'"
    assert scoped("RETURN group_id", "x").startswith("WITH 'x' AS group_id\n")
    with pytest.raises(ValueError):
        cypher_literal("a\nb")


def test_saved_cypher_files_ship_with_the_package() -> None:
    saved = saved_cypher()
    assert [t["file"] for t in saved["templates"]] and [a["file"] for a in saved["scene_actions"]]
    p = exported()
    assert all(t["cypher"].count("\n") >= 2 for t in p["templates"])


def test_path_segments_follow_the_groups_type_pairs() -> None:
    segments = {(s["source"], s["relationshipType"], s["target"]) for s in exported()["metadata"]["pathSegments"]}
    assert ("Person", "RELATES_TO", "Place") in segments
    assert ("Person", "RELATES_TO", "Entity") in segments  # a type without a category is drawn as Entity
    assert ("Person", "INTERACTS_WITH", "Person") in segments
    assert ("Source", "HAS_EPISODE", "Episode") in segments and ("Episode", "MENTIONS", "Place") in segments
    assert len(segments) == len(exported()["metadata"]["pathSegments"])
