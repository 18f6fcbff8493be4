"""`strata export`, `strata import`, `strata maintain`: a first load of a new store through neo4j-admin, and the
vector indexes rebuilt after bulk loads (docs/scaling.md, "First load and maintenance")."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)


@app.command("export")
def export_cmd(group: str = typer.Argument(..., help="The group to write out."),
               out: Path = typer.Option(..., "--out", help="A new folder for the import files.")) -> None:
    """Write a group of the configured store as import files (streamed, every property) for `strata import`."""
    from strata.memory.admin_load import export_files

    manifest = export_files(Settings(), group, out)
    sys.stdout.write(f"{manifest.counts.get('nodes', 0)} nodes, {manifest.counts.get('relationships', 0)} "
                     f"relationships in {out}\n")


@app.command("import")
def import_cmd(folder: Path = typer.Argument(..., help="Import files (`strata export`, or a bench's)."),
               replace: bool = typer.Option(False, "--replace", help="Delete what the store holds first."),
               timeout_s: int = typer.Option(7200, "--timeout", help="Seconds to wait for index population.")
               ) -> None:
    """First load of an empty local store through neo4j-admin (the server is stopped and started again), then
    the schema and its indexes. Later writes go through ingestion as usual."""
    from strata.memory.admin_load import first_load

    sys.stdout.write(first_load(Settings(), folder, timeout_s, replace).model_dump_json() + "\n")


@app.command("maintain")
def maintain_cmd(index: list[str] = typer.Option(None, "--index", help="Only these vector indexes (repeatable).")
                 ) -> None:
    """Rebuild the vector indexes in one piece (few Lucene segments, faster asks) after bulk loads. Each index
    answers no query while it populates: run it before serving or in a quiet window."""
    from strata.memory.admin_load import rebuild_vectors

    sys.stdout.write(rebuild_vectors(Settings(), index or None).model_dump_json() + "\n")
