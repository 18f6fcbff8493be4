"""`strata retention show|set|apply|purge`: a group's retention policy (docs/api.md, "Retention")."""

from __future__ import annotations

import getpass
import json
import sys

import typer
from rich.console import Console

from strata.api.cli_summaries import _group
from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
retention_app = typer.Typer(help="Retention policies: how long a group keeps raw text, passages and history.",
                            no_args_is_help=True)
app.add_typer(retention_app, name="retention")
console = Console(soft_wrap=True)
GROUP = typer.Option(..., "--group", help="Group id.")
MAX_DAYS = 36_500


@retention_app.command("show")
def show(group: str = GROUP, size: bool = typer.Option(False, "--size", help="Also measure what the group holds."),
         as_json: bool = typer.Option(False, "--json")) -> None:
    """The group's policy (null: keep forever) and when it last ran."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        stored = mem.retention(_group(group))
        measured = mem.retention_size(group) if size else None
    out = {**stored.model_dump(mode="json"), "size": measured.model_dump() if measured else None}
    if as_json:
        sys.stdout.write(json.dumps(out) + "\n")
        return
    for name, value in stored.policy.model_dump().items():
        console.print(f"{name}: {'keep forever' if value is None else value}", highlight=False)
    console.print(f"applied_at: {stored.applied_at or 'never'}", highlight=False)
    if measured:
        console.print(f"bytes visible/hidden: raw text {measured.raw_text}/{measured.raw_text_hidden}, passages "
                      f"{measured.passages}/{measured.passages_hidden}, fact vectors "
                      f"{measured.fact_vectors}/{measured.fact_vectors_hidden}", highlight=False)


@retention_app.command("set")
def set_policy(group: str = GROUP,
               raw_text_days: int = typer.Option(None, "--raw-text-days", min=0, max=MAX_DAYS,
                                                 help="Keep episodes' raw text this many days."),
               passages_days: int = typer.Option(None, "--passages-days", min=0, max=MAX_DAYS,
                                                 help="Keep passages this many days."),
               compact_history_days: int = typer.Option(None, "--compact-history-days", min=0, max=MAX_DAYS,
                                                        help="Compact facts ended this many days ago."),
               salience_half_life_days: float = typer.Option(None, "--salience-half-life-days", min=0.001,
                                                             help="Halve unused memories' salience this often.")
               ) -> None:
    """Replace the group's policy (an option left out keeps that kind forever); `strata retention apply` runs it."""
    from strata.memory import open_memory
    from strata.schema.retention import policy_from

    policy = policy_from(raw_text_days=raw_text_days, passages_days=passages_days,
                         compact_history_days=compact_history_days, salience_half_life_days=salience_half_life_days)
    with open_memory(Settings(), embedder=False) as mem:
        stored = mem.set_retention(_group(group), policy, actor=f"cli:{getpass.getuser()}")
    console.print(f"retention of {group}: {stored.policy.model_dump(exclude_none=True) or 'keep everything'}",
                  highlight=False)


@retention_app.command("apply")
def apply(group: str = GROUP, dry_run: bool = typer.Option(False, "--dry-run", help="Count only; change nothing."),
          as_json: bool = typer.Option(False, "--json")) -> None:
    """Run the group's policy now: restore what it no longer makes due, hide what it does."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        run = mem.apply_retention(_group(group), dry_run=dry_run)
    if as_json:
        sys.stdout.write(run.model_dump_json() + "\n")
        return
    verb = "would change" if dry_run else "changed"
    console.print(f"{group} {verb} in {run.seconds:.2f}s: " + ", ".join(
        f"{k.replace('_', ' ')} {v}" for k, v in run.counts.model_dump().items()), highlight=False)


@retention_app.command("purge")
def purge(group: str = GROUP, yes: bool = typer.Option(False, "--yes", help="Confirm: this cannot be undone.")
          ) -> None:
    """Remove for good what retention hid in the group."""
    from strata.memory import open_memory
    from strata.schema.errors import InputError

    if not yes:
        raise InputError("a retention purge cannot be undone: pass --yes")
    with open_memory(Settings(), embedder=False) as mem:
        done = mem.purge_retention(_group(group))
    console.print(f"purged hidden values of {done.episodes} episodes, {done.passages} passages, {done.facts} facts",
                  highlight=False)
