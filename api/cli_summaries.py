"""`strata summaries refresh` and `strata communities refresh|list`."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from strata.api.cli_query import read_command
from strata.schema.requests import CommunitiesRequest

app = typer.Typer(no_args_is_help=True)
summaries_app = typer.Typer(help="Entity summaries: what the graph says about each entity, in a few sentences.",
                            no_args_is_help=True)
communities_app = typer.Typer(help="Communities: groups of closely related entities (Leiden).", no_args_is_help=True)
app.add_typer(summaries_app, name="summaries")
app.add_typer(communities_app, name="communities")
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _group(group: str) -> str:
    from strata.memory import GROUP
    from strata.schema.errors import InputError

    if not GROUP.match(group):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group[:200]})
    return group


@summaries_app.command("refresh")
def summaries_refresh(group: str = typer.Option(..., "--group", help="Group id."),
                      force: bool = typer.Option(False, "--force", help="Write every summary again, even one whose "
                                                                         "input did not change."),
                      batch: int = typer.Option(0, "--batch", min=0, max=1000,
                                                help="Entities per round trip (default STRATA_SUMMARY_BATCH)."),
                      as_json: bool = typer.Option(False, "--json")) -> None:
    """Summarise every entity of a group again from what the graph says now, with a progress bar."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem, Progress(
            TextColumn("summaries"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
            transient=True, disable=as_json) as bar:
        summarizer = mem.summarizer()
        if summarizer is not None and batch:
            summarizer.batch = batch
        task = bar.add_task("entities", total=None)
        result = mem.refresh_summaries(_group(group), force=force,
                                       progress=lambda done, total: bar.update(task, completed=done, total=total))
    if as_json:
        sys.stdout.write(result.model_dump_json() + "\n")
        return
    console.print(f"{result.examined} entities summarised ({summarizer.method}) in {result.seconds:.1f}s: "
                  f"{result.changed} changed, {result.llm_calls} LLM call(s), {result.llm_cache_hits} cached, "
                  f"{result.fallbacks} fallback(s)", highlight=False)


@communities_app.command("refresh")
def communities_refresh(group: str = typer.Option(..., "--group", help="Group id."),
                        budget: float = typer.Option(0.0, "--budget", min=0,
                                                     help="Time budget in seconds (default "
                                                          "STRATA_COMMUNITY_TIME_BUDGET_S)."),
                        as_json: bool = typer.Option(False, "--json")) -> None:
    """Recompute a group's communities and their titles and summaries."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        run = mem.refresh_communities(_group(group), budget or None)
    if as_json:
        sys.stdout.write(run.model_dump_json() + "\n")
        return
    if run.stopped:
        console.print(f"[yellow]stopped: {escape(run.stopped)}[/] after {run.seconds:.1f}s; the previous "
                      "communities stay")
        raise typer.Exit(1)
    console.print(f"{run.communities} communities (largest {run.largest}) over {run.entities} entities and "
                  f"{run.edges} weighted pairs in {run.seconds:.1f}s", highlight=False)


@read_command("communities", on=communities_app)
def communities_list(ask: CommunitiesRequest, group: str, as_json: bool) -> None:
    """A group's communities, largest first (or best matching ``--q`` first), with their summaries."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.communities(_group(group), ask).communities
    if as_json:
        sys.stdout.write("[" + ",".join(c.model_dump_json() for c in found) + "]\n")
        return
    for c in found:
        console.print(f"[bold]{escape(c.title)}[/] ({c.size})  {c.uuid}")
        if c.summary:
            console.print(f"  {escape(c.summary)}", highlight=False)
