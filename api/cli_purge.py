"""`strata purge episode|source|group`: the hard delete of a data-removal request, as REST's ``purge=true`` does it
(docs/api.md, "Purge"). Prints the retraction's counts and the audit record as JSON, as REST answers."""

from __future__ import annotations

import sys

import typer

from strata.api.cli_edit import owned
from strata.api.cli_writes import argument, write_command
from strata.schema.errors import InputError
from strata.schema.requests_write import PurgeGroupRequest

app = typer.Typer(no_args_is_help=True)
purge_app = typer.Typer(help="Hard delete for data-removal requests (an audit record without content stays).",
                        no_args_is_help=True)
app.add_typer(purge_app, name="purge")
KEY_ID = "cli"


def _purge(kind: str, uuid: str, group: str | None) -> None:
    from strata.memory import open_memory

    with open_memory() as mem:  # the embedder: purged names leave the entities' name vectors too
        out = mem.retract(owned(mem, kind, uuid, group), kind, uuid, purge=True, key_id=KEY_ID)
    sys.stdout.write(out.model_dump_json() + "\n")


@purge_app.command("episode")
def purge_episode_cmd(uuid: str = typer.Argument(..., help="Episode uuid."),
                      group: str = typer.Option(None, "--group", help="Refuse unless the episode is of this group.")
                      ) -> None:
    """Retract the episode (if it was not) and delete it with everything derived only from it."""
    _purge("episode", uuid, group)


@purge_app.command("source")
def purge_source_cmd(uuid: str = typer.Argument(..., help="Source uuid."),
                     group: str = typer.Option(None, "--group", help="Refuse unless the source is of this group.")
                     ) -> None:
    """Delete a source, its episodes and job, and everything derived only from them."""
    _purge("source", uuid, group)


@write_command("purge_group", purge_app, [argument("group", "Group id.")], json_flag=False)
def purge_group_cmd(ask: PurgeGroupRequest, group: str) -> None:
    """Delete every node and relationship of a group (``--yes`` required); the audit record stays."""
    from strata.memory import GROUP, open_memory

    if not ask.purge:
        raise InputError("purging a whole group deletes all of it: add --yes")
    if not GROUP.match(group):
        raise InputError(f"invalid group id {group!r}")
    with open_memory(embedder=False) as mem:
        record = mem.purge_group(group, key_id=KEY_ID)
    sys.stdout.write(record.model_dump_json() + "\n")
