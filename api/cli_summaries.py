"""`strata summaries refresh` and `strata communities refresh|list`, derived from their use-case rows
(api/usecases_write.py, api/usecases.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from strata.api.cli_query import read_command
from strata.api.cli_writes import option, write_command
from strata.schema.requests import CommunitiesRequest
from strata.schema.requests_write import RefreshCommunitiesRequest, RefreshSummariesRequest
from strata.schema.summaries import SummaryRefresh

if TYPE_CHECKING:
    from strata.memory import Memory

app = typer.Typer(no_args_is_help=True)
summaries_app = typer.Typer(help="Entity summaries: what the graph says about each entity, in a few sentences.",
                            no_args_is_help=True)
communities_app = typer.Typer(help="Communities: groups of closely related entities (Leiden).", no_args_is_help=True)
app.add_typer(summaries_app, name="summaries")
app.add_typer(communities_app, name="communities")
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
# what the CLI adds up over the runs of one refresh
SUMMED = ("examined", "changed", "llm_calls", "prompt_tokens", "completion_tokens", "llm_cache_hits", "fallbacks",
          "seconds")


def _group(group: str) -> str:
    from strata.memory import GROUP
    from strata.schema.errors import InputError

    if not GROUP.match(group):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group[:200]})
    return group


@write_command("refresh_summaries", summaries_app, [option("group", "Group id.")])
def summaries_refresh(ask: RefreshSummariesRequest, group: str, as_json: bool) -> None:
    """Summarise every entity of a group again from what the graph says now, with a progress bar; past
    ``--budget-s`` a run goes on from where it stopped, until the whole group is done."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem, Progress(
            TextColumn("summaries"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
            transient=True, disable=as_json) as bar:
        summarizer = mem.summarizer()
        task = bar.add_task("entities", total=None)
        result = _refresh_all(mem, _group(group), ask,
                              lambda done, total: bar.update(task, completed=done, total=total))
    if as_json:
        sys.stdout.write(result.model_dump_json() + "\n")
        return
    console.print(f"{result.examined} entities summarised ({summarizer.method}) in {result.seconds:.1f}s: "
                  f"{result.changed} changed, {result.llm_calls} LLM call(s), {result.llm_cache_hits} cached, "
                  f"{result.fallbacks} fallback(s)", highlight=False)


def _refresh_all(mem: Memory, group: str, ask: RefreshSummariesRequest, progress: Callable[[int, int], Any]
                 ) -> SummaryRefresh:
    """REST's refresh, one budget at a time, each going on from where the last stopped, summed: the CLI waits."""
    parts: list[SummaryRefresh] = []
    done = [0, 0]  # entities of the runs before, of the run in hand

    def tick(n: int, total: int) -> None:
        done[1] = n
        progress(done[0] + n, done[0] + total)

    while True:
        part = mem.refresh_summaries(group, ask, tick)
        parts.append(part)
        if part.complete or not part.next_cursor:
            break
        done[0], done[1] = done[0] + done[1], 0
        ask = ask.model_copy(update={"after": part.next_cursor})
    return part.model_copy(update={k: sum(getattr(p, k) for p in parts) for k in SUMMED})


@write_command("refresh_communities", communities_app, [option("group", "Group id.")])
def communities_refresh(ask: RefreshCommunitiesRequest, group: str, as_json: bool) -> None:
    """Recompute a group's communities and their titles and summaries."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        run = mem.refresh_communities(_group(group), ask)
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
