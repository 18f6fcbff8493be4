"""`strata reembed --group G`: a group's vectors made again by the configured embedder (STRATA_EMBEDDER)."""

from __future__ import annotations

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
err = Console(stderr=True, soft_wrap=True)


@app.command("reembed")
def reembed_command(
    group: str = typer.Option(..., "--group", help="The group to move."),
    rescore: bool = typer.Option(False, "--rescore", help="Also compute the rescoring model's vectors "
                                 "(STRATA_RESCORE_EMBEDDER) that the group's passages lack."),
    vectors: bool = typer.Option(True, "--vectors/--no-vectors", help="Re-embed the stored vectors (the default)."),
) -> None:
    """Embed every passage, fact and entity of the group again with STRATA_EMBEDDER, a page at a time, and record
    the embedder on the group. Stopped half-way, running it again carries on where it was."""
    from strata.memory import GROUP
    from strata.memory.reembed import reembed
    from strata.memory.runtime import build_runtime
    from strata.schema.errors import InputError
    from strata.schema.settings import Settings

    if not GROUP.match(group):
        raise InputError("invalid group id: letters, digits and _ . : - (at most 128)", {"group": group[:200]})
    with build_runtime(Settings(), migrate=True) as rt:
        result = reembed(rt, group, vectors=vectors, rescore=rescore,
                         progress=lambda kind, n: err.print(f"{kind}: {n}", highlight=False))
    if result.moved is not None:
        counts = ", ".join(f"{n} {kind}s" for kind, n in result.moved.counts.items())
        err.print(f"{group}: {counts} embedded by {result.moved.embedder}", highlight=False)
    if rescore:
        err.print(f"{group}: {result.rescore_filled} passages got rescoring vectors", highlight=False)
