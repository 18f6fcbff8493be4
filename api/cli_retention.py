"""`strata retention show|set|apply|purge`: a group's retention policy (docs/api.md, "Retention")."""

from __future__ import annotations

import getpass
import sys

import typer
from rich.console import Console

from strata.api.cli_query import read_command
from strata.api.cli_summaries import _group
from strata.api.cli_writes import option, write_command
from strata.schema.requests import RetentionRequest
from strata.schema.requests_write import ApplyRetentionRequest, PurgeRetentionRequest
from strata.schema.retention import RetentionPolicy
from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
retention_app = typer.Typer(help="Retention policies: how long a group keeps raw text, passages and history.",
                            no_args_is_help=True)
app.add_typer(retention_app, name="retention")
console = Console(soft_wrap=True)


@read_command("retention", on=retention_app)
def show(ask: RetentionRequest, group: str, as_json: bool) -> None:
    """The group's policy (null: keep forever) and when it last ran; ``--size``: what it holds, measured."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        status = mem.retention_status(_group(group), ask)
    if as_json:
        sys.stdout.write(status.model_dump_json() + "\n")
        return
    for name, value in status.policy.model_dump().items():
        console.print(f"{name}: {'keep forever' if value is None else value}", highlight=False)
    console.print(f"applied_at: {status.applied_at or 'never'}", highlight=False)
    measured = status.size
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


@write_command("purge_retention", retention_app, [option("group", "Group id.")], json_flag=False)
def purge(ask: PurgeRetentionRequest, group: str) -> None:
    """Remove for good what retention hid in the group (``--yes``: confirm, it cannot be undone)."""
    from strata.memory import open_memory

    with open_memory(Settings(), embedder=False) as mem:
        done = mem.purge_retention(_group(group))
    console.print(f"purged hidden values of {done.episodes} episodes, {done.passages} passages, {done.facts} facts",
                  highlight=False)
