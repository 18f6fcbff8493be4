"""`strata` commands that correct who is who: merge, unmerge, and the review of suggested duplicates."""

from __future__ import annotations

import getpass

import typer
from rich.console import Console
from rich.markup import escape

from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
suggestions_app = typer.Typer(help="Pairs of entities that may be the same: list, accept, reject.",
                              no_args_is_help=True)
app.add_typer(suggestions_app, name="suggestions")
console = Console(soft_wrap=True)
GROUP = typer.Option(..., "--group")


def _actor() -> str:
    return f"cli:{getpass.getuser()}"


@app.command("merge")
def merge_cmd(entity: str = typer.Argument(..., help="The entity that goes (uuid)."),
              into: str = typer.Option(..., "--into", help="The entity that stays (uuid)."), group: str = GROUP,
              reason: str = typer.Option(None, "--reason")) -> None:
    """Merge one entity into another; the old uuid redirects to the survivor from then on."""
    from strata.graph import Graph
    from strata.graph.edit import merge_entities
    from strata.resolve.timeline import recompute_timeline
    from strata.schema.models import utcnow

    with Graph.from_settings(Settings()) as graph:
        done = merge_entities(graph, group, entity, into, recompute_timeline, utcnow(), reason=reason,
                              actor=_actor())
    console.print(f"merged {done.merged} into {done.into}: {done.facts_moved} facts, {done.mentions_moved} mentions "
                  f"moved; undo with `strata unmerge {done.into} --record {done.record_uuid} --group {group}`",
                  highlight=False)


@app.command("unmerge")
def unmerge_cmd(entity: str = typer.Argument(..., help="The survivor of the merge (uuid)."),
                record: str = typer.Option(..., "--record", help="The merge record (`strata merges ENTITY`)."),
                group: str = GROUP) -> None:
    """Take back a merge: the merged entity comes back with its facts, mentions and quotes."""
    from strata.graph import Graph
    from strata.graph.undo import undo_record
    from strata.ingest.rules import split_rules
    from strata.schema.models import utcnow

    with Graph.from_settings(Settings()) as graph:
        done = undo_record(graph, group, entity, record, split_rules(), utcnow())
    console.print(f"restored {done.restored}: {done.facts_restored} facts, {done.mentions_restored} mentions",
                  highlight=False)


@app.command("merges")
def merges_cmd(entity: str = typer.Argument(..., help="Entity uuid."), group: str = GROUP) -> None:
    """Why each name joined this entity: rule, score, forms, who merged it and when; undone ones marked."""
    from strata.graph import Graph
    from strata.graph.read import merge_records

    with Graph.from_settings(Settings()) as graph:
        records = merge_records(graph, group, entity)
    for r in records:
        undone = f"  [undone {r.undone_at:%Y-%m-%d}]" if r.undone_at else ""
        who = f" by {r.actor}" if r.actor else ""
        console.print(escape(f"{r.uuid}  {r.created_at:%Y-%m-%d} {r.rule}{who}: {', '.join(r.forms)}"
                             f"{f' ({r.reason})' if r.reason else ''}{undone}"), highlight=False)


@suggestions_app.command("list")
def suggestions_list(group: str = GROUP, entity: str = typer.Option(None, "--entity"),
                     limit: int = typer.Option(50, "--limit", min=1, max=1000)) -> None:
    """Pending suggestions, strongest first."""
    from strata.graph import Graph
    from strata.graph.suggestions import pending_suggestions

    with Graph.from_settings(Settings()) as graph:
        found = pending_suggestions(graph, group, entity, 0, limit)
    for s in found:
        console.print(escape(f"{s.score or 0:.2f}  {s.entity_name} ({s.entity_mentions}) {s.entity_uuid}  ~  "
                             f"{s.candidate_name} ({s.candidate_mentions}) {s.candidate_uuid}"), highlight=False)
    if not found:
        console.print("no pending suggestions")


@suggestions_app.command("accept")
def suggestions_accept(entity: str = typer.Argument(...), candidate: str = typer.Argument(...), group: str = GROUP,
                       into: str = typer.Option(None, "--into", help="The survivor (default: the candidate).")) -> None:
    """Merge the pair (undoable with `strata unmerge`)."""
    from strata.graph import Graph
    from strata.graph.suggestions import accept_suggestion
    from strata.resolve.timeline import recompute_timeline
    from strata.schema.models import utcnow

    with Graph.from_settings(Settings()) as graph:
        done = accept_suggestion(graph, group, entity, candidate, into, recompute_timeline, utcnow(), actor=_actor())
    console.print(f"merged {done.merged} into {done.into} (record {done.record_uuid})", highlight=False)


@suggestions_app.command("reject")
def suggestions_reject(entity: str = typer.Argument(...), candidate: str = typer.Argument(...), group: str = GROUP,
                       reason: str = typer.Option(None, "--reason")) -> None:
    """Not the same: never suggested again."""
    from strata.graph import Graph
    from strata.graph.suggestions import reject_suggestion
    from strata.schema.models import utcnow

    with Graph.from_settings(Settings()) as graph:
        reject_suggestion(graph, group, entity, candidate, utcnow(), actor=_actor(), reason=reason)
    console.print(f"rejected: {entity} and {candidate} are different", highlight=False)
