"""`strata` commands that correct who is who: merge, unmerge, and the review of suggested duplicates."""

from __future__ import annotations

import getpass
import sys
from collections.abc import Sequence

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from strata.api.cli_query import read_command
from strata.api.cli_writes import argument, option, write_command
from strata.schema.requests import MergesRequest, SuggestionsRequest
from strata.schema.requests_write import AcceptRequest, MergeRequest, RejectRequest, UndoRequest

app = typer.Typer(no_args_is_help=True)
suggestions_app = typer.Typer(help="Pairs of entities that may be the same: list, accept, reject.",
                              no_args_is_help=True)
app.add_typer(suggestions_app, name="suggestions")
console = Console(soft_wrap=True)
GROUP_OPT = option("group", "Group id.")


def _actor() -> str:
    return f"cli:{getpass.getuser()}"


def _json(value: BaseModel | Sequence[BaseModel]) -> None:
    if isinstance(value, BaseModel):
        sys.stdout.write(value.model_dump_json() + "\n")
    else:
        sys.stdout.write("[" + ",".join(v.model_dump_json() for v in value) + "]\n")


@write_command("merge", app, [argument("entity", "The entity that goes (uuid or exact name)."), GROUP_OPT])
def merge_cmd(ask: MergeRequest, entity: str, group: str, as_json: bool) -> None:
    """Merge one entity into another (``--into``: uuid or exact name); the old uuid redirects to the survivor
    from then on."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        done = mem.merge(group, mem.entity_id(group, entity), mem.entity_id(group, ask.into), actor=_actor(),
                         reason=ask.reason)
    if as_json:
        return _json(done)
    console.print(f"merged {done.merged} into {done.into}: {done.facts_moved} facts, {done.mentions_moved} mentions "
                  f"moved; undo with `strata unmerge {done.into} --record {done.record_uuid} --group {group}`",
                  highlight=False)


@write_command("unmerge", app, [argument("entity", "The survivor of the merge (uuid)."),
                                option("record", "The merge record (`strata merges ENTITY`)."), GROUP_OPT])
def unmerge_cmd(ask: UndoRequest, entity: str, record: str, group: str, as_json: bool) -> None:
    """Take back a merge: the merged entity comes back with its facts, mentions and quotes."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        done = mem.unmerge(group, entity, record)
    if as_json:
        return _json(done)
    console.print(f"restored {done.restored}: {done.facts_restored} facts, {done.mentions_restored} mentions",
                  highlight=False)


@read_command("merges", on=app, on_entity=True, entity="Entity uuid.")
def merges_cmd(ask: MergesRequest, entity: str, group: str, as_json: bool) -> None:
    """Why each name joined this entity: rule, score, forms, who merged it and when; undone ones marked."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        records = mem.merges(group, entity, ask)
    if as_json:
        return _json(records)
    for r in records:
        undone = f"  [undone {r.undone_at:%Y-%m-%d}]" if r.undone_at else ""
        who = f" by {r.actor}" if r.actor else ""
        console.print(escape(f"{r.uuid}  {r.created_at:%Y-%m-%d} {r.rule}{who}: {', '.join(r.forms)}"
                             f"{f' ({r.reason})' if r.reason else ''}{undone}"), highlight=False)


@read_command("suggestions", on=suggestions_app)
def suggestions_list(ask: SuggestionsRequest, group: str, as_json: bool) -> None:
    """Pending suggestions, strongest first."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.suggestions(group, ask)
    if as_json:
        return _json(found)
    for s in found:
        console.print(escape(f"{s.score or 0:.2f}  {s.entity_name} ({s.entity_mentions}) {s.entity_uuid}  ~  "
                             f"{s.candidate_name} ({s.candidate_mentions}) {s.candidate_uuid}"), highlight=False)
    if not found:
        console.print("no pending suggestions")


PAIR = [argument("entity", "One entity of the suggestion (uuid)."), argument("candidate", "The other (uuid)."),
        GROUP_OPT]


@write_command("accept_suggestion", suggestions_app, PAIR)
def suggestions_accept(ask: AcceptRequest, entity: str, candidate: str, group: str, as_json: bool) -> None:
    """Merge the pair (undoable with `strata unmerge`)."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        done = mem.accept_suggestion(group, entity, candidate, ask.into, actor=_actor())
    if as_json:
        return _json(done)
    console.print(f"merged {done.merged} into {done.into} (record {done.record_uuid})", highlight=False)


@write_command("reject_suggestion", suggestions_app, PAIR)
def suggestions_reject(ask: RejectRequest, entity: str, candidate: str, group: str, as_json: bool) -> None:
    """Not the same: never suggested again."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        done = mem.reject_suggestion(group, entity, candidate, actor=_actor(), reason=ask.reason)
    if as_json:
        return _json(done)
    console.print(f"rejected: {entity} and {candidate} are different", highlight=False)
