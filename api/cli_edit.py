"""`strata retract` and `strata correct`: the writes REST's ``DELETE /episodes|sources/{uuid}`` and
``POST /facts/{uuid}:correct`` make, with the same answers (``--json``); options from the request models."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from strata.api.cli_writes import argument, option, write_command
from strata.schema.errors import InputError, NotFoundError
from strata.schema.requests_write import Correction, RetractRequest

app = typer.Typer(no_args_is_help=True)
console = Console(soft_wrap=True)
KEY_ID = "cli"  # who purged, in the audit record (as `strata purge`)


def owned(mem, kind: str, uuid: str, group: str | None) -> str:  # noqa: ANN001 (Memory, imported lazily)
    """The object's group; 404 when it does not exist or is not of ``group``."""
    if kind not in ("episode", "source", "fact"):
        raise InputError(f"{kind!r}: say episode or source", {"kind": kind})
    found = mem.group_of(kind, uuid)
    if found is None or (group is not None and found != group):
        raise NotFoundError(f"{kind} {uuid} not found" + (f" in group {group}" if group else ""))
    return found


@write_command("retract_episode", app, [argument("kind", "episode or source"),
                                        argument("uuid", "The episode's or source's uuid."),
                                        option("group", "Refuse unless it is of this group.", required=False)])
def retract_cmd(ask: RetractRequest, kind: str, uuid: str, group: str | None, as_json: bool) -> None:
    """Retract an episode or a source: facts only it supported expire (kept as history), facts it had closed
    reopen. Posting it again undoes the retraction; ``--purge`` (or `strata purge`) deletes instead."""
    from strata.memory import open_memory

    # a purge takes the embedder: purged names leave the entities' name vectors too
    with open_memory(embedder=ask.purge) as mem:
        done = mem.retract(owned(mem, kind, uuid, group), kind, uuid, purge=ask.purge,
                           key_id=KEY_ID if ask.purge else None)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    console.print(f"{'purged' if ask.purge else 'retracted'} {kind} {uuid}: {done.model_dump_json()}", highlight=False)


@write_command("correct", app, [argument("uuid", "The fact's uuid.", metavar="FACT"),
                                option("group", "Refuse unless the fact is of this group.", required=False)])
def correct_cmd(fix: Correction, uuid: str, group: str | None, as_json: bool) -> None:
    """Correct a fact: text or end in place; a new predicate, object or start makes a new version and keeps the
    old one as history."""
    from strata.memory import open_memory

    with open_memory(embedder=bool(fix.predicate)) as mem:
        done = mem.correct(owned(mem, "fact", uuid, group), uuid, fix)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    replaced = f" (a new version of {done.replaced})" if done.replaced else ""
    console.print(f"corrected: fact {done.uuid}{replaced}; {done.slot_updates} slot update(s)", highlight=False)
