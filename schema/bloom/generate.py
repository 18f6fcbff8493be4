"""From a group's schema to a Bloom perspective. Pure: the static parts (what each kind shows, the search
phrases and scene actions) are this package's files; the group's types, predicates and type pairs come in.

Bloom search phrases take parameters only from what the user types, so the group is a constant of the
perspective: every query starts with ``WITH '<group>' AS group_id`` (a quoted, escaped literal built here from
a validated group id); what users type stays a Cypher parameter ($name, $date...), never text in a query.
"""

from __future__ import annotations

import colorsys
import json
import uuid
from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any

from strata.schema.bloom.models import (
    Caption,
    Category,
    CategoryProperty,
    GroupBrowseSchema,
    IndexInfo,
    IndexKey,
    LabelProperty,
    Metadata,
    Palette,
    PathSegment,
    Perspective,
    RelationshipType,
    SceneAction,
    StyleRule,
    Template,
    TemplateParam,
)

# The Bloom version whose export format this follows (the newest real export the shape was checked against).
BLOOM_VERSION = "2.21.0"
# Bloom's default palette, as its exports list it; no category gets its two greys (grey means ended).
PALETTE = ["#FFE081", "#C990C0", "#F79767", "#57C7E3", "#F16667", "#D9C8AE", "#8DCC93", "#ECB5C9", "#4C8EDA",
           "#FFC454", "#DA7194", "#569480", "#959AA1", "#D9D9D9"]
GREYS = {"#959AA1", "#D9D9D9"}
ENDED = "#B7B7B7"  # a fact whose valid time is over (invalid_at set)
RETRACTED = "#E4E4E4"  # a fact the graph no longer believes (expired_at set: retracted or superseded)
NEGATED = "#E9A3A3"  # a statement that something is not so
EXPIRED_ENTITY = "#E4E4E4"  # an entity merged into another or left unsupported by a retraction
# Predicates coloured one by one (the most frequent); the rest keep the RELATES_TO colour.
PREDICATE_COLOURS = 12
# Labels that are not entity types: an entity type spelled like one falls into the catch-all category.
RESERVED_LABELS = {"Entity", "Source", "Episode", "Passage", "Note", "Quote", "ApiKey", "Job", "SchemaMigration",
                   "MergeRecord", "Predicate"}
_NAMESPACE = uuid.UUID("6f0e7c1e-5a37-4c1b-9a54-2f1c3b7d9e10")


@cache
def _data(name: str) -> dict[str, Any]:
    return json.loads(resources.files("strata.schema.bloom").joinpath(name).read_text(encoding="utf-8"))


@cache
def query_body(name: str) -> str:
    """A search phrase's, scene action's or suggestion's Cypher as stored, before the group is bound."""
    return resources.files("strata.schema.bloom").joinpath(f"{name}.cypher").read_text(encoding="utf-8").strip()


def saved_cypher() -> dict[str, Any]:
    return _data("saved_cypher.json")


def cypher_literal(value: str) -> str:
    """``value`` as a Cypher string literal: quotes and backslashes escaped, control characters refused."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ValueError("a group id with control characters cannot be a Cypher literal")
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def scoped(body: str, group_id: str) -> str:
    """The query bound to one group: ``group_id`` is a variable every stored query filters on."""
    return f"WITH {cypher_literal(group_id)} AS group_id\n{body}"


def _hex(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"


def _colours(taken: set[str]):
    """Distinct category colours: Bloom's palette without its greys, then golden-angle hues."""
    for colour in PALETTE:
        if colour not in GREYS and colour not in taken:
            taken.add(colour)
            yield colour
    i = 0
    while True:
        colour = _hex((i * 0.618034) % 1.0, 0.45, 0.88)
        i += 1
        if colour not in taken:
            taken.add(colour)
            yield colour


def _rule(rule_id: int, prop: str, data_type: str, condition: str, colour: str, value: str | None = None,
          size: int | None = None) -> StyleRule:
    """``rule_id`` is unique in the perspective (Bloom numbers rules by their creation time)."""
    return StyleRule(id=f"rule:{rule_id}", based_on=f"{prop}_{data_type}", condition=condition, condition_value=value,
                     color=colour, size=size or 1, apply_size=size is not None)


def _category(cid: int, name: str, labels: list[str], spec: dict[str, Any], colour: str, icon: str,
              now_ms: int, rules: list[StyleRule]) -> Category:
    caption_keys = set(spec["caption"])
    props = [CategoryProperty(name=p, data_type=t) for p, t in spec["properties"]]
    props += [CategoryProperty(name=p, data_type=t, exclude=True) for p, t in spec["excluded"]]
    captions = [Caption(in_tooltip=False, is_caption=False, key=labels[0], type="label")]
    captions += [Caption(in_tooltip=p in caption_keys, is_caption=p in caption_keys, key=p, type="property",
                         is_gds_data=False) for p, _ in spec["properties"]]
    return Category(id=cid, name=name, labels=labels, properties=props, created_at=now_ms, last_edited_at=now_ms,
                    color=colour, icon=icon, captions=captions, style_rules=rules)


def _entity_types(schema: GroupBrowseSchema) -> list[str]:
    return [t.name for t in schema.entity_types if t.name and t.count > 0 and t.name not in RESERVED_LABELS]


def _relationship(spec: dict[str, Any], rules: list[StyleRule]) -> RelationshipType:
    name, caption = spec["type"], spec["caption"]
    captions = [Caption(in_tooltip=True, is_caption=caption is None, key=name, type="relationship")]
    if caption:
        captions.append(Caption(in_tooltip=True, is_caption=True, key=caption, type="property", is_gds_data=False))
    return RelationshipType(id=name, name=name, color=spec["color"], size=spec["size"], captions=captions,
                            properties=[LabelProperty(property_key=p, type=name, data_type=t)
                                        for p, t in spec["properties"]], style_rules=rules)


def _fact_rules(schema: GroupBrowseSchema, colours, first_id: int) -> list[StyleRule]:
    """Grey first: Bloom applies the first matching rule of an attribute, so an ended or retracted fact stays
    grey whatever its predicate's colour."""
    rules = [_rule(first_id, "expired_at", "DateTime", "is-not-null", RETRACTED, size=1),
             _rule(first_id + 1, "invalid_at", "DateTime", "is-not-null", ENDED),
             _rule(first_id + 2, "negated", "boolean", "is-true", NEGATED)]
    top = sorted((p for p in schema.predicates if p.count > 0), key=lambda p: (-p.count, p.name))
    for n, (pred, colour) in enumerate(zip(top[:PREDICATE_COLOURS], colours, strict=False), start=first_id + 3):
        rules.append(_rule(n, "predicate", "string", "equals", colour, value=pred.name))
    return rules


def _segments(schema: GroupBrowseSchema, kinds: dict[str, Any], entity_labels: list[str]) -> list[PathSegment]:
    own = set(entity_labels)

    def label(type_name: str) -> str:
        return type_name if type_name in own else "Entity"

    seen: dict[tuple[str, str, str], None] = {}
    for s in schema.segments:
        seen[(label(s.source), s.rel, label(s.target))] = None
    for source, rel, target in kinds["segments"]:
        seen[(source, rel, target)] = None
    for source, rel, target in kinds["entity_segments"]:
        for lab in [*entity_labels, "Entity"]:
            seen[(lab if source == "*" else source, rel, lab if target == "*" else target)] = None
    return [PathSegment(source=s, relationship_type=r, target=t) for s, r, t in seen]


def build_perspective(schema: GroupBrowseSchema, now: datetime) -> Perspective:
    """The perspective for one group: a category per entity type present (and a catch-all for the rest), the
    provenance kinds, RELATES_TO captioned by its predicate with ended and retracted facts greyed out, and the
    saved search phrases and scene actions bound to the group."""
    kinds, saved = _data("kinds.json"), saved_cypher()
    now_ms = int(now.timestamp() * 1000)
    group = schema.group_id
    fact_colour = next(r["color"] for r in kinds["relationships"] if r["type"] == "RELATES_TO")
    taken = {n["color"] for n in kinds["nodes"]} | {ENDED, RETRACTED, NEGATED, fact_colour}
    colours = _colours(taken)
    entity = kinds["entity"]
    types = [*_entity_types(schema), "Entity"]
    # Last of the entities, "Entity": untyped ones, types spelled like another kind, types that appear after
    # the export. An entity merged away or unsupported after a retraction (expired_at set) is drawn grey.
    categories = [_category(i, t, [t], entity, next(colours), entity["icons"].get(t, "no-icon"), now_ms,
                            [_rule(now_ms + i, "expired_at", "DateTime", "is-not-null", EXPIRED_ENTITY)])
                  for i, t in enumerate(types, start=1)]
    for spec in kinds["nodes"]:
        categories.append(_category(len(categories) + 1, spec["label"], [spec["label"]], spec, spec["color"],
                                    spec["icon"], now_ms, []))
    labels = {
        lab: [LabelProperty(property_key=p.name, type=lab, data_type=p.data_type) for p in c.properties
              if not p.exclude]
        for c in categories for lab in c.labels
    }
    relationships = [_relationship(spec, _fact_rules(schema, colours, now_ms + len(categories) + 1)
                                   if spec["type"] == "RELATES_TO" else [])
                     for spec in kinds["relationships"]]
    templates = [
        Template(name=t["name"], id=f"tmpl:{now_ms + i}", created_at=now_ms, text=t["text"],
                 cypher=scoped(query_body(t["file"]), group),
                 params=[TemplateParam(name=p["name"],
                                       cypher=scoped(query_body(f"suggest_{p['suggest']}"), group)
                                       if p.get("suggest") else None)
                         for p in t["params"]])
        for i, t in enumerate(saved["templates"])
    ]
    actions = [SceneAction(name=a["name"], id=str(uuid.uuid5(_NAMESPACE, f"{group}/{a['file']}")),
                           created_at=now_ms, cypher=scoped(query_body(a["file"]), group))
               for a in saved["scene_actions"]]
    metadata = Metadata(path_segments=_segments(schema, kinds, types[:-1]),
                        indexes=[IndexInfo(label=lab, property_keys=[IndexKey(key=k)]) for lab, k in kinds["indexes"]])
    return Perspective(
        name=f"Strata {group}", id=str(uuid.uuid5(_NAMESPACE, f"perspective/{group}")), categories=categories,
        labels=labels, relationship_types=relationships,
        palette=Palette(colors=PALETTE, current_index=len(categories) % len(PALETTE)),
        created_at=now_ms, last_edited_at=now_ms, templates=templates, scene_actions=actions,
        hidden_relationship_types=kinds["hidden_relationships"],
        # Nodes of no category (jobs, API keys, migrations, merge records, the predicate registry) stay hidden.
        hide_uncategorised_data=True, metadata=metadata, version=BLOOM_VERSION)
