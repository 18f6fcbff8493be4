"""Neo4j Browser's style sheet and guide: what the files hold, and how the API serves them without a key."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from strata.schema.neo4j_browser import guide_html, parse_grass, style_rules, style_sheet
from strata.schema.settings import Settings
from tests.support.browser_guide import runnable_blocks

ONTOLOGY_TYPES = ("Person", "Organization", "Place", "Event", "Object", "Concept", "Work", "Time", "Animal")
INTERNAL = ("Predicate", "MergeRecord", "Job", "ApiKey", "SchemaMigration")


@pytest.fixture(scope="module")
def client() -> TestClient:
    # No lifespan (no `with`): these routes touch no service.
    from strata.api.app import create_app

    return TestClient(create_app(Settings(_env_file=None)))


def _px(value: str) -> float:
    return float(value.removesuffix("px"))


def test_style_colours_and_sizes_every_entity_type_and_mutes_internal_labels() -> None:
    rules = style_rules()
    assert rules["node.Entity"]["caption"] == "{name}"
    assert rules["relationship.RELATES_TO"]["caption"] == "{predicate}"
    assert rules["node.Source"]["caption"] == "{name}" and "{seq}" in rules["node.Episode"]["caption"]
    assert rules["node.Quote"]["caption"] == "{text}"
    colours = {t: rules[f"node.{t}"]["color"] for t in ONTOLOGY_TYPES}
    assert len(set(colours.values())) == len(colours), colours  # every type its own colour
    assert _px(rules["node.Person"]["diameter"]) > _px(rules["node.Entity"]["diameter"])
    smallest_type = min(_px(rules[f"node.{t}"]["diameter"]) for t in ONTOLOGY_TYPES)
    for label in INTERNAL:
        assert _px(rules[f"node.{label}"]["diameter"]) < smallest_type
        assert rules[f"node.{label}"]["color"] == rules["node.Predicate"]["color"]  # one muted grey
    # Browser applies rules in order, later ones winning: a type's rule must follow the Entity rule it refines.
    order = list(rules)
    assert order[:2] == ["node", "relationship"]
    assert all(order.index(f"node.{t}") > order.index("node.Entity") for t in ONTOLOGY_TYPES)


def test_style_parser_reads_bindings_and_refuses_what_browser_would_drop() -> None:
    assert parse_grass('node.A { caption: "{name} #{seq}"; color: #FFF; }') == {
        "node.A": {"caption": "{name} #{seq}", "color": "#FFF"}}
    with pytest.raises(ValueError, match="one colon"):
        parse_grass("node.A { icon-code: url(http://x); }")
    with pytest.raises(ValueError, match="quote bindings"):
        parse_grass("node.A { caption: {name}; }")
    with pytest.raises(ValueError, match="ends inside"):
        parse_grass("node.A { color: #FFF;")


def test_guide_slides_each_hold_runnable_blocks_and_take_values_only_from_parameters() -> None:
    html = guide_html("http://localhost:8000")
    slides = runnable_blocks(html)
    assert len(slides) == 8 and all(slides), [len(s) for s in slides]
    assert html.count("<slide") == 8 and '<article class="guide">' in html and "<carousel" in html
    assert ":style http://localhost:8000/browser/style.grass" in slides[0]
    declared = re.fullmatch(r":params (\{.*\})", slides[1][0])
    assert declared, slides[1][0]
    names = set(re.findall(r"(\w+):", declared.group(1)))
    cypher = [b for slide in slides for b in slide if not b.startswith(":")]
    assert len(cypher) >= 9
    for query in cypher:
        assert set(re.findall(r"\$(\w+)", query)) <= names, query
    # One group at a time: every query but the listing of groups reads only $group.
    assert all("$group" in q for q in cypher if "AS some_sources" not in q)
    assert not re.search(r"<script|\son\w+=", html, re.I)  # Browser strips both; the guide needs neither


def test_guide_escapes_the_url_it_names() -> None:
    html = guide_html('http://x"><script>alert(1)</script>')
    assert "<script>" not in html and "&quot;&gt;&lt;script&gt;" in html


def test_api_serves_style_and_guide_without_a_key_to_any_origin(client: TestClient) -> None:
    style = client.get("/browser/style.grass")
    assert style.status_code == 200 and style.text == style_sheet()
    assert style.headers["content-type"].startswith("text/plain")
    assert style.headers["access-control-allow-origin"] == "*"
    guide = client.get("/browser/guide")
    assert guide.status_code == 200 and guide.headers["content-type"].startswith("text/html")
    assert guide.headers["access-control-allow-origin"] == "*"
    assert ":style http://testserver/browser/style.grass" in guide.text


def test_api_answers_the_preflight_play_causes(client: TestClient) -> None:
    # `:play` sends pragma and cache-control: Chromium asks first.
    asked = {"Origin": "http://127.0.0.1:7474", "Access-Control-Request-Method": "GET",
             "Access-Control-Request-Headers": "pragma,cache-control"}
    answer = client.options("/browser/guide", headers=asked)
    assert answer.status_code == 204
    assert answer.headers["access-control-allow-origin"] == "*"
    assert answer.headers["access-control-allow-headers"] == "pragma,cache-control"
    assert "GET" in answer.headers["access-control-allow-methods"]
    assert client.post("/browser/guide").status_code == 405
    assert "/browser/guide" in json.dumps(client.get("/openapi.json").json()["paths"])
