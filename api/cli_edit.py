"""`strata retract` and `strata correct`: the writes REST's ``DELETE /episodes|sources/{uuid}`` and
``POST /facts/{uuid}:correct`` make, with the same answers (``--json``)."""

from __future__ import annotations

import sys
from datetime import datetime

import typer
from rich.console import Console

from strata.schema.errors import InputError, NotFoundError

app = typer.Typer(no_args_is_help=True)
console = Console(soft_wrap=True)


def owned(mem, kind: str, uuid: str, group: str | None) -> str:  # noqa: ANN001 (Memory, imported lazily)
    """The object's group; 404 when it does not exist or is not of ``group``."""
    if kind not in ("episode", "source", "fact"):
        raise InputError(f"{kind!r}: say episode or source", {"kind": kind})
    found = mem.group_of(kind, uuid)
    if found is None or (group is not None and found != group):
        raise NotFoundError(f"{kind} {uuid} not found" + (f" in group {group}" if group else ""))
    return found


@app.command("retract")
def retract_cmd(kind: str = typer.Argument(..., help="episode or source"),
                uuid: str = typer.Argument(..., help="The episode's or source's uuid."),
                group: str = typer.Option(None, "--group", help="Refuse unless it is of this group."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Retract an episode or a source: facts only it supported expire (kept as history), facts it had closed
    reopen. Posting it again undoes the retraction; `strata purge` deletes instead."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        done = mem.retract(owned(mem, kind, uuid, group), kind, uuid)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    console.print(f"retracted {kind} {uuid}: {done.model_dump_json()}", highlight=False)


@app.command("correct")
def correct_cmd(fact: str = typer.Argument(..., help="The fact's uuid."),
                group: str = typer.Option(None, "--group", help="Refuse unless the fact is of this group."),
                text: str = typer.Option(None, "--text", help="The fact's sentence."),
                predicate: str = typer.Option(None, "--predicate", help="As statements write it."),
                obj: str = typer.Option(None, "--object", help="The new object's uuid."),
                valid_at: datetime = typer.Option(None, "--valid-at", help="When it became true."),
                invalid_at: datetime = typer.Option(None, "--invalid-at", help="When it ended."),
                reason: str = typer.Option(None, "--reason"),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Correct a fact: text or end in place; a new predicate, object or start makes a new version and keeps the
    old one as history."""
    from strata.memory import Correction, open_memory

    asked = {"fact": text, "predicate": predicate, "object_uuid": obj, "valid_at": valid_at,
             "invalid_at": invalid_at, "reason": reason}
    fix = Correction.model_validate({k: v for k, v in asked.items() if v is not None})
    with open_memory(embedder=bool(predicate)) as mem:
        done = mem.correct(owned(mem, "fact", fact, group), fact, fix)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    replaced = f" (a new version of {done.replaced})" if done.replaced else ""
    console.print(f"corrected: fact {done.uuid}{replaced}; {done.slot_updates} slot update(s)", highlight=False)
