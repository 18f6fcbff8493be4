"""Neo4j Browser assets (package data under schema/browser/): the GraSS style sheet and the guide.

Both hold no data, only how to look at it: the API serves them without a key and the local Neo4j applies the
style when Browser connects (services/neo4j.py).
"""

from __future__ import annotations

import html
from importlib import resources

STYLE_FILE = "style.grass"
GUIDE_FILE = "guide.html"
# Where the guide names the API serving it (its ":style <url>" block); replaced when it is served.
API_URL_MARK = "{{api_url}}"


def _read(name: str) -> str:
    return resources.files("strata.schema").joinpath("browser", name).read_text(encoding="utf-8")


def style_sheet() -> str:
    return _read(STYLE_FILE)


def guide_html(api_url: str) -> str:
    return _read(GUIDE_FILE).replace(API_URL_MARK, html.escape(api_url.rstrip("/"), quote=True))


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Selector -> properties, read the way Browser 5 reads a GraSS sheet (grassUtils.parseGrassCSS).

    Quotes delimit strings and are dropped; braces outside strings open and close a rule; a property is
    `key: value`. Browser silently drops a property with no colon or a second one; here it is an error, so a
    sheet that parses here loses nothing there. Comments are not part of the format.
    """
    rules: dict[str, str] = {}
    selector, body, in_string, in_body = "", "", False, False
    for c in text:
        if c in "'\"":
            in_string = not in_string
        elif c == "{" and not in_string:
            if in_body:
                raise ValueError(f"unexpected '{{' in the rule for {selector!r} (quote bindings such as \"{{name}}\")")
            in_body = True
        elif c == "}" and not in_string:
            if not in_body:
                raise ValueError("'}' without a rule")
            rules[selector], selector, body, in_body = body, "", "", False
        elif in_body:
            body += c
        elif not c.isspace():
            selector += c
    if in_body or in_string or selector:
        raise ValueError("the style sheet ends inside a rule or a string")
    parsed: dict[str, dict[str, str]] = {}
    for sel, props in rules.items():
        parsed[sel] = {}
        for prop in (p.strip() for p in props.split(";")):
            if not prop:
                continue
            parts = prop.split(":")
            if len(parts) != 2:
                raise ValueError(f"{sel}: {prop!r} is not `key: value` with one colon")
            parsed[sel][parts[0].strip()] = parts[1].strip()
    return parsed


def style_rules() -> dict[str, dict[str, str]]:
    return parse_grass(style_sheet())
