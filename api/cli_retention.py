"""`strata retention show|set|apply|purge`: a group's retention policy (docs/api.md, "Retention")."""

from __future__ import annotations

import getpass
import json
import sys

import typer
from rich.console import Console

from strata.api.cli_summaries import _group
from strata.api.cli_writes import option, write_command
from strata.schema.requests_write import ApplyRetentionRequest
from strata.schema.retention import RetentionPolicy
from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
retention_app = typer.Typer(help="Retention policies: how long a group keeps raw text, passages and history.",
                            no_args_is_help=True)
app.add_typer(retention_app, name="retention")
console = Console(soft_wrap=True)
GROUP = typer.Option(..., "--group", help="Group id.")


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


@write_command("set_retention", retention_app, [option("group", "Group id.")])
def set_policy(policy: RetentionPolicy, group: str, as_json: bool) -> None:
    """Replace the group's policy (an option left out keeps that kind forever); `strata retention apply` runs it."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        stored = mem.set_retention(_group(group), policy, actor=f"cli:{getpass.getuser()}")
    if as_json:
        sys.stdout.write(stored.model_dump_json() + "\n")
        return
    console.print(f"retention of {group}: {stored.policy.model_dump(exclude_none=True) or 'keep everything'}",
                  highlight=False)


@write_command("apply_retention", retention_app, [option("group", "Group id.")])
def apply(ask: ApplyRetentionRequest, group: str, as_json: bool) -> None:
    """Run the group's policy now: restore what it no longer makes due, hide what it does."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        run = mem.apply_retention(_group(group), dry_run=ask.dry_run)
    if as_json:
        sys.stdout.write(run.model_dump_json() + "\n")
        return
    verb = "would change" if ask.dry_run else "changed"
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
