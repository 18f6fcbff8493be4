"""`strata` commands for query: search, context, facts, serve, keys."""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, NoReturn, TypeVar

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from strata.api.derive import KW, cli_command
from strata.api.usecases import BY_NAME
from strata.schema.errors import InputError, NotFoundError
from strata.schema.queries import MAX_FACT_PAGE
from strata.schema.requests import (
    ClockRequest,
    ContextRequest,
    FactsRequest,
    NeighborhoodRequest,
    NetworkRequest,
    NotesRequest,
    PathsRequest,
    QuotesRequest,
    ResolveRequest,
    SearchRequest,
    TimelineRequest,
)
from strata.schema.settings import Settings

if TYPE_CHECKING:
    from strata.memory import Memory

T = TypeVar("T")
app = typer.Typer(no_args_is_help=True)
keys_app = typer.Typer(help="API keys scoped to groups.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")
console = Console(soft_wrap=True)


def _day(value: date | None) -> str:
    """An end as a day (the start is printed so), '' while it holds."""
    return f"{value:%Y-%m-%d}" if value else ""


def _json_out(value: BaseModel) -> None:
    sys.stdout.write(value.model_dump_json() + "\n")


def _fail(exc: Exception) -> NoReturn:
    """A caller's mistake (several books, no such chapter) as a message, not a traceback."""
    console.print(f"[red]{escape(str(exc))}[/]")
    raise typer.Exit(2)


def _about_entity(group: str, entity: str, read: Callable[[Memory, str], T]) -> T:
    """``read(memory, entity uuid)`` for an entity given by uuid or name (a merged-away one answers for its
    survivor); a caller's mistake as a message."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        try:
            return read(mem, mem.entity_id(group, entity))
        except (InputError, NotFoundError) as exc:
            _fail(exc)


GROUP = inspect.Parameter("group", KW, annotation=str, default=typer.Option(..., "--group", help="Group id."))
ENTITY = inspect.Parameter("entity", KW, annotation=str,
                           default=typer.Argument(..., help="Entity uuid or exact name."))


def read_command(case: str, *, on: typer.Typer | None = None, on_entity: bool = False, entity: str | None = None
                 ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the CLI command of read use case ``case`` (api/usecases.py): its options from the request
    model, ``--group`` (and an ENTITY argument for reads of one entity) and ``--json``."""
    row = BY_NAME[case]
    address = [ENTITY, GROUP] if on_entity else [GROUP]
    if entity is not None:
        address[0] = inspect.Parameter("entity", KW, annotation=str, default=typer.Argument(..., help=entity))
    return cli_command(on or app, row, address=address, on_invalid=_fail)


def _arrow(f) -> str:
    """"Doug McMillon -[holds_office: CEO]-> Walmart": an office's role beside its predicate."""
    from strata.memory import role_label

    role = f": {role_label(f.role)}" if getattr(f, "role", None) else ""
    return f"{f.subject_name} -[{f.predicate}{role}]-> {f.object_name}"


def _story_where(f) -> str:
    if f.story_at is None:
        return ""
    until = f" until {f.story_until}" if f.story_until is not None else ""
    return f"  [story {f.story_at}{until}, chapter {f.story_chapter}]"


@read_command("search")
def search_cmd(ask: SearchRequest, group: str, as_json: bool) -> None:
    """Hybrid search in a group; prints hits with their provenance."""
    from strata.memory import open_memory

    with open_memory() as mem:
        try:
            result = mem.search(group, ask)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json:
        _json_out(result)
        return
    if result.degraded:
        console.print(f"[yellow]partial answer: no {', '.join(result.degraded)} channels (embedder unreachable)[/]")
    for hit in result.hits:
        what = (_arrow(hit.fact) + (f"  ({hit.superseded})" if hit.superseded else "") if hit.fact else
                f"{hit.entity.name} ({hit.entity.type})" if hit.entity else hit.episode.text if hit.episode else "")
        kind = "answer" if hit.answer else hit.kind
        where = hit.provenance[0] if hit.provenance else None
        src = f"  [{where.source_name or where.episode_uuid} #{where.seq}]" if where else ""
        console.print(escape(f"{hit.score:.4f} {kind:7} {what}{src}"), highlight=False)


@read_command("context")
def context_cmd(ask: ContextRequest, group: str, as_json: bool) -> None:
    """A ready-to-paste memory block about QUERY within the token budget (what an agent's prompt takes)."""
    from strata.memory import open_memory

    with open_memory() as mem:
        block = mem.context(group, ask)
    if as_json:
        _json_out(block)
        return
    if block.degraded:
        console.print(f"[yellow]partial answer: no {', '.join(block.degraded)} channels (embedder unreachable)[/]")
    sys.stdout.write(block.text + "\n")
    console.print(f"[dim]{block.tokens} of {block.budget_tokens} tokens, {len(block.hits)} hits[/]")


@read_command("facts")
def facts_cmd(ask: FactsRequest, group: str, as_json: bool) -> None:
    """Every fact of a group (optionally one subject, predicate, object, or one agent's), as of a date or a point
    of a book's story; pages through the complete listing, or gives one page (as REST) with --limit/--cursor."""
    from strata.memory import open_memory

    with open_memory(embedder=bool(ask.predicate)) as mem:
        try:
            if ask.model_fields_set & {"limit", "cursor"}:
                page = mem.facts(group, ask)
                more = f"--cursor {page.next_cursor}" if page.next_cursor else None
                return _page(page, page.items, more, as_json)
            total = 0
            for f in mem.all_facts(group, ask.model_copy(update={"limit": MAX_FACT_PAGE})):
                total += 1
                if as_json:
                    _json_out(f)
                else:
                    _print_fact(f)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if not as_json:
        console.print(f"{total} facts")


def _print_fact(f) -> None:
    console.print(escape(f"{_arrow(f)}  {f.valid_at:%Y-%m-%d}..{_day(f.invalid_at)}{_story_where(f)}"),
                  highlight=False)


def _page(page: BaseModel, items: list, more: str | None, as_json: bool) -> None:
    """One page of a listing: its JSON as REST answers it, or its items and how to ask for the next."""
    if as_json:
        return _json_out(page)
    for x in items:
        if hasattr(x, "predicate"):
            _print_fact(x)
        else:
            _print_quote(x)
    console.print(f"{len(items)} shown" + (f"; next page: {more}" if more else ""), highlight=False)


@read_command("network")
def network_cmd(ask: NetworkRequest, group: str, as_json: bool) -> None:
    """Who appears with whom and who speaks to whom, strongest first; as of a chapter of a book."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        try:
            net = mem.network(group, ask)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json:
        sys.stdout.write(net.model_dump_json(indent=2) + "\n")
        return
    for i in net.interactions:
        seen = ""
        if i.first and i.last:
            seen = f"{i.first.chapter or i.first.position} .. {i.last.chapter or i.last.position}"
        console.print(escape(f"{i.weight:5d}  {i.a_name} - {i.b_name}: {i.scenes} scenes, "
                             f"{i.a_to_b} -> / {i.b_to_a} <- quotes  {seen}"), highlight=False)


@read_command("quotes")
def quotes_cmd(ask: QuotesRequest, group: str, as_json: bool) -> None:
    """What characters said to whom (by uuid or name), in reading order; pages through the complete listing, or
    gives one page (as REST) with --limit/--offset."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        if ask.model_fields_set & {"limit", "offset"}:
            page = mem.quotes(group, ask)
            more = f"--offset {page.next_offset}" if page.next_offset is not None else None
            return _page(page, page.items, more, as_json)
        offset: int | None = 0
        total = 0
        while offset is not None:
            page = mem.quotes(group, ask.model_copy(update={"offset": offset, "limit": 1000}))
            for x in page.items:
                if as_json:
                    sys.stdout.write(x.model_dump_json() + "\n")
                else:
                    _print_quote(x)
            total += len(page.items)
            offset = page.next_offset
    if not as_json:
        console.print(f"{total} quotes")


def _print_quote(x) -> None:
    to = f" to {', '.join(x.addressees)}" if x.addressees else ""
    console.print(escape(f"{x.speaker or '?'}{to}: \"{x.text}\""), highlight=False)


@read_command("timeline", on_entity=True)
def timeline_cmd(ask: TimelineRequest, entity: str, group: str, as_json: bool) -> None:
    """Every fact about an entity in (valid time, story) order; with a story cut, what the book stated by then.
    A merged-away entity answers for the entity it was merged into."""
    timeline = _about_entity(group, entity, lambda mem, uuid: mem.timeline(group, uuid, ask))
    if as_json:
        _json_out(timeline)
        return
    for f in timeline.facts:
        console.print(escape(f"{_arrow(f)}  {f.valid_at:%Y-%m-%d}.."
                             f"{_day(f.invalid_at)}{_story_where(f)}"), highlight=False)


@read_command("resolve")
def entity_cmd(ask: ResolveRequest, group: str, as_json: bool) -> None:
    """An entity by uuid (a merged-away one answers with its survivor), or the entities a name may mean, best
    first (exact key, full text and name vector, as `GET /groups/{group}/entities?name=`)."""
    from strata.memory import UUID, open_memory

    with open_memory() as mem:
        found = mem.entity(group, ask.name) if UUID.match(ask.name) else mem.resolve(group, ask)
    if as_json:
        _json_out(found)
        return
    for c in getattr(found, "candidates", [found]):
        aliases = f"  aka {', '.join(c.aliases)}" if c.aliases else ""
        score = f"{c.score:.3f} " if hasattr(c, "score") else ""
        console.print(escape(f"{score}{c.name} ({c.type}) {c.uuid}{aliases}"), highlight=False)


@read_command("neighborhood", on_entity=True)
def neighborhood_cmd(ask: NeighborhoodRequest, entity: str, group: str, as_json: bool) -> None:
    """Entities and facts within DEPTH hops of an entity, over the facts true at --as-of (default: now)."""
    found = _about_entity(group, entity, lambda mem, uuid: mem.neighborhood(group, uuid, ask))
    if as_json:
        _json_out(found)
        return
    for f in found.facts:
        console.print(escape(f"{_arrow(f)}"), highlight=False)


@read_command("notes", on_entity=True)
def notes_cmd(ask: NotesRequest, entity: str, group: str, as_json: bool) -> None:
    """The memory notes about an entity (its statements rewritten to stand alone), latest said first."""
    found = _about_entity(group, entity, lambda mem, uuid: mem.notes(group, uuid, ask))
    if as_json:
        _json_out(found)
        return
    for n in found.notes:
        console.print(escape(n.text), highlight=False)


@read_command("paths")
def paths_cmd(ask: PathsRequest, group: str, as_json: bool) -> None:
    """Shortest paths between two entities over the facts true at --as-of (default: now)."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.paths(group, ask)
    if as_json:
        _json_out(found)
        return
    for p in found.paths:
        console.print(escape(" / ".join(f"{_arrow(f)}" for f in p.facts)),
                      highlight=False)


@read_command("clock")
def clock_cmd(ask: ClockRequest, group: str, as_json: bool) -> None:
    """The group's clocks: the days a current fact starts or ends, and each book's chapters."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.clock(group, ask)
    if as_json:
        _json_out(found)
        return
    console.print(f"{len(found.days)} days: {_day(found.days[0]) if found.days else ''} .. "
                  f"{_day(found.days[-1]) if found.days else ''}", highlight=False)
    for b in found.books:
        chapters = f"chapters {b.first_chapter}..{b.last_chapter}, " if b.first_chapter is not None else ""
        console.print(escape(f"{b.name}: {chapters}{b.length} characters"), highlight=False)


@app.command("fact")
def fact_cmd(uuid: str = typer.Argument(..., help="Fact uuid."), group: str = typer.Option(..., "--group"),
             as_json: bool = typer.Option(False, "--json")) -> None:
    """One fact (current, ended or retracted) with its provenance: the spans, messages and speakers behind it."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        try:
            hit = mem.fact(group, uuid)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json or hit.fact is None:
        _json_out(hit)
        return
    console.print(escape(f"{_arrow(hit.fact)}  {hit.fact.valid_at:%Y-%m-%d}..{_day(hit.fact.invalid_at)}"),
                  highlight=False)
    for p in hit.provenance:
        console.print(escape(f"  [{p.source_name or p.episode_uuid} #{p.seq}] {p.text or ''}"), highlight=False)


@app.command("agents")
def agents_cmd(group: str = typer.Option(..., "--group"), as_json: bool = typer.Option(False, "--json")) -> None:
    """Who wrote to the group: each agent's episodes and current facts (`strata facts --agent` lists them)."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.agents(group)
    if as_json:
        sys.stdout.write("[" + ",".join(a.model_dump_json() for a in found) + "]\n")
        return
    for a in found:
        console.print(escape(f"{a.agent}: {a.episodes} episodes, {a.facts} current facts"), highlight=False)


@app.command("serve")
def serve(host: str = typer.Option(None, "--host"), port: int = typer.Option(None, "--port"),
          workers: int = typer.Option(None, "--workers", min=0, max=64,
                                      help="API processes (default STRATA_API_WORKERS; 0 = one per CPU core)."),
          inline: bool = typer.Option(False, "--inline", help="Commit episodes in the API process (no worker; "
                                                              "one process).")) -> None:
    """Run the HTTP API (REST under /v1, MCP at /mcp) in one or more processes."""
    import os

    import uvicorn

    from strata.api.app import create_app
    from strata.api.serving import serve_processes

    cfg = Settings()
    count = cfg.api_workers if workers is None else workers
    count = count or os.cpu_count() or 1
    host, port = host or cfg.api_host, port or cfg.api_port
    if inline or count == 1:
        uvicorn.run(create_app(cfg, inline=inline), host=host, port=port)
    else:
        console.print(f"serving on http://{host}:{port} with {count} processes")
        serve_processes(host, port, count)


@keys_app.command("create")
def keys_create(group: list[str] = typer.Option(..., "--group", help="Repeat for several groups."),
                rights: str = typer.Option("r", "--rights", help="r, w or rw"),
                name: str = typer.Option(None, "--name")) -> None:
    """Create an API key; the secret is printed once and stored only as a hash."""
    from strata.memory import open_memory

    with open_memory(embedder=False, migrate=True) as mem:
        created = mem.create_key(group, rights, name)
    sys.stdout.write(json.dumps({"id": created.key.id, "groups": created.key.groups, "rights": created.key.rights,
                                 "token": created.token}) + "\n")


@keys_app.command("revoke")
def keys_revoke(key_id: str = typer.Argument(...)) -> None:
    """Revoke an API key by id."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        mem.revoke_key(key_id)
    console.print(f"revoked {key_id}")
