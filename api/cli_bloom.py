"""`strata bloom export`: a Neo4j Bloom perspective for one group (docs/browse.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
bloom_app = typer.Typer(help="Neo4j Bloom (Desktop, Aura Explore): perspectives generated from a group's schema.",
                        no_args_is_help=True)
app.add_typer(bloom_app, name="bloom")
err = Console(stderr=True, soft_wrap=True)


@bloom_app.command("export")
def export(group: str = typer.Option(..., "--group", help="The group whose schema the perspective shows."),
           out: Path | None = typer.Option(None, "--out", help="Write the JSON here (default: standard output).",
                                           dir_okay=False, writable=True)) -> None:
    """Write a Bloom 2.x perspective for the group: import it in Bloom's perspective gallery."""
    from strata.graph import Graph
    from strata.graph.bloom import browse_schema
    from strata.graph.keys import GROUP
    from strata.schema.bloom import build_perspective
    from strata.schema.errors import InputError
    from strata.schema.models import utcnow

    if not GROUP.match(group):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group[:200]})
    with Graph.from_settings(Settings()) as graph:
        schema = browse_schema(graph, group)
    text = json.dumps(build_perspective(schema, utcnow()).to_bloom(), ensure_ascii=False, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    out.write_text(text, encoding="utf-8")
    types = ", ".join(t.name for t in schema.entity_types) or "none yet"
    err.print(f"wrote {out}: perspective 'Strata {group}' (entity types: {types})", highlight=False)
