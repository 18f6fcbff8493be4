"""`strata bloom export`: a Neo4j Bloom perspective for one group (docs/browse.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

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
    from strata.memory import GROUP, open_memory
    from strata.schema.errors import InputError

    if not GROUP.match(group):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group[:200]})
    with open_memory(embedder=False) as mem:
        perspective = mem.perspective(group)
        types = ", ".join(t.name for t in mem.schema(group).entity_types if t.name) or "none yet"
    text = json.dumps(perspective.to_bloom(), ensure_ascii=False, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    out.write_text(text, encoding="utf-8")
    err.print(f"wrote {out}: perspective 'Strata {group}' (entity types: {types})", highlight=False)
