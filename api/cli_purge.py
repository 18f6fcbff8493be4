"""`strata purge episode|source|group`: the hard delete of a data-removal request, as REST's ``purge=true`` does it
(docs/api.md, "Purge"). Prints the audit record as JSON."""

from __future__ import annotations

import sys

import typer

from strata.schema.errors import InputError, NotFoundError
from strata.schema.models import utcnow
from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
purge_app = typer.Typer(help="Hard delete for data-removal requests (an audit record without content stays).",
                        no_args_is_help=True)
app.add_typer(purge_app, name="purge")
KEY_ID = "cli"


def _rules(cfg: Settings):
    from strata.ingest.embedders import make_embedder
    from strata.ingest.rules import purge_rules

    return purge_rules(make_embedder(cfg).embed)


def _group(graph, kind: str, uuid: str, group: str | None) -> str:
    from strata.graph.traverse import group_of

    found = group_of(graph, kind, uuid)
    if found is None or (group is not None and found != group):
        raise NotFoundError(f"{kind} {uuid} not found" + (f" in group {group}" if group else ""))
    return found


@purge_app.command("episode")
def purge_episode_cmd(uuid: str = typer.Argument(..., help="Episode uuid."),
                      group: str = typer.Option(None, "--group", help="Refuse unless the episode is of this group.")
                      ) -> None:
    """Retract the episode (if it was not) and delete it with everything derived only from it."""
    from strata.graph import Graph
    from strata.graph.purge import purge_episode

    cfg = Settings()
    with Graph.from_settings(cfg) as graph:
        out = purge_episode(graph, _group(graph, "episode", uuid, group), uuid, _rules(cfg), utcnow(), key_id=KEY_ID)
    sys.stdout.write(out.model_dump_json() + "\n")


@purge_app.command("source")
def purge_source_cmd(uuid: str = typer.Argument(..., help="Source uuid."),
                     group: str = typer.Option(None, "--group", help="Refuse unless the source is of this group.")
                     ) -> None:
    """Delete a source, its episodes and job, and everything derived only from them."""
    from strata.graph import Graph
    from strata.graph.purge import purge_source

    cfg = Settings()
    with Graph.from_settings(cfg) as graph:
        out = purge_source(graph, _group(graph, "source", uuid, group), uuid, _rules(cfg), utcnow(), key_id=KEY_ID)
    sys.stdout.write(out.model_dump_json() + "\n")


@purge_app.command("group")
def purge_group_cmd(group: str = typer.Argument(..., help="Group id."),
                    yes: bool = typer.Option(False, "--yes", help="Required: every node of the group goes.")) -> None:
    """Delete every node and relationship of a group; the audit record stays."""
    from strata.graph import Graph
    from strata.graph.keys import GROUP
    from strata.graph.purge import purge_group

    if not yes:
        raise InputError("purging a whole group deletes all of it: add --yes")
    if not GROUP.match(group):
        raise InputError(f"invalid group id {group!r}")
    with Graph.from_settings(Settings()) as graph:
        record = purge_group(graph, group, utcnow(), key_id=KEY_ID)
    sys.stdout.write(record.model_dump_json() + "\n")
