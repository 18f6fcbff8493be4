"""`strata` commands for query: search, context, facts, serve, keys."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING, NoReturn

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from strata.schema.errors import InputError, NotFoundError
from strata.schema.settings import Settings

if TYPE_CHECKING:
    from strata.api.memory import StoryAsk

app = typer.Typer(no_args_is_help=True)
keys_app = typer.Typer(help="API keys scoped to groups.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")
console = Console(soft_wrap=True)


def _when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _day(value: datetime | None) -> str:
    """An end as a day (the start is printed so), '' while it holds."""
    return f"{value:%Y-%m-%d}" if value else ""


def _json_out(value: BaseModel) -> None:
    sys.stdout.write(value.model_dump_json() + "\n")


POSITION = typer.Option(None, "--as-of-position", min=0, help="Story time: the book read up to this offset.")
CHAPTER = typer.Option(None, "--as-of-chapter", min=0, help="Story time: the book read to the end of this chapter.")
BOOK = typer.Option(None, "--source", help="The book (source uuid or file name) when the group holds several.")


def _story(position: int | None, chapter: int | None, source: str | None) -> StoryAsk:
    from strata.api.memory import StoryAsk

    return StoryAsk(as_of_position=position, as_of_chapter=chapter, source=source)


def _fail(exc: Exception) -> NoReturn:
    """A caller's mistake (several books, no such chapter) as a message, not a traceback."""
    console.print(f"[red]{escape(str(exc))}[/]")
    raise typer.Exit(2)


def _arrow(f) -> str:
    """"Doug McMillon -[holds_office: CEO]-> Walmart": an office's role beside its predicate."""
    from strata.api.memory import role_label

    role = f": {role_label(f.role)}" if getattr(f, "role", None) else ""
    return f"{f.subject_name} -[{f.predicate}{role}]-> {f.object_name}"


def _story_where(f) -> str:
    if f.story_at is None:
        return ""
    until = f" until {f.story_until}" if f.story_until is not None else ""
    return f"  [story {f.story_at}{until}, chapter {f.story_chapter}]"


KNOWN_AT = typer.Option(None, "--known-at", help="Transaction time: what the graph believed then (ISO date).")


@app.command("search")
def search_cmd(query: str = typer.Argument(...), group: str = typer.Option(..., "--group"),
               as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."), known_at: str = KNOWN_AT,
               limit: int = typer.Option(10, "--limit", min=1, max=100),
               position: int = POSITION, chapter: int = CHAPTER, source: str = BOOK,
               as_json: bool = typer.Option(False, "--json")) -> None:
    """Hybrid search in a group; prints hits with their provenance."""
    from strata.api.memory import SearchQuery, open_memory

    ask = SearchQuery(q=query, limit=limit, as_of=_when(as_of), known_at=_when(known_at))
    with open_memory() as mem:
        try:
            result = mem.search(group, ask, _story(position, chapter, source))
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


@app.command("context")
def context_cmd(query: str = typer.Argument(...), group: str = typer.Option(..., "--group"),
                budget: int = typer.Option(1000, "--budget", min=50, max=32_000, help="Token budget."),
                as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """A ready-to-paste memory block about QUERY within the token budget (what an agent's prompt takes)."""
    from strata.api.memory import open_memory

    with open_memory() as mem:
        block = mem.context(group, query, budget, as_of=_when(as_of))
    if as_json:
        _json_out(block)
        return
    if block.degraded:
        console.print(f"[yellow]partial answer: no {', '.join(block.degraded)} channels (embedder unreachable)[/]")
    sys.stdout.write(block.text + "\n")
    console.print(f"[dim]{block.tokens} of {block.budget_tokens} tokens, {len(block.hits)} hits[/]")


@app.command("facts")
def facts_cmd(group: str = typer.Option(..., "--group"),
              predicate: str = typer.Option(None, "--predicate",
                                            help="As statements write it (plays_for, 'works at'): normalized as on "
                                                 "ingest."),
              subject: str = typer.Option(None, "--subject", help="Entity uuid or exact name."),
              obj: str = typer.Option(None, "--object", help="Entity uuid or exact name, or an office ('CEO of "
                                                             "Walmart')."),
              role: str = typer.Option(None, "--role", help="An office's role (CEO, prime minister)."),
              as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."), known_at: str = KNOWN_AT,
              history: bool = typer.Option(False, "--history", help="Also ended facts."),
              position: int = POSITION, chapter: int = CHAPTER,
              source: str = BOOK, agent: str = typer.Option(None, "--agent", help="Only what this agent asserted."),
              as_json: bool = typer.Option(False, "--json")) -> None:
    """Every fact of a group (optionally one subject, predicate, object, or one agent's), as of a date or a point
    of a book's story; pages through the complete listing."""
    from strata.api.memory import FactQuery, open_memory

    query = FactQuery(subject=subject, predicate=predicate, object=obj, role=role, as_of=_when(as_of),
                      known_at=_when(known_at),
                      include_history=history, agent=agent, limit=1000)
    total = 0
    with open_memory(embedder=bool(predicate)) as mem:
        try:
            for f in mem.all_facts(group, query, _story(position, chapter, source)):
                total += 1
                if as_json:
                    _json_out(f)
                else:
                    console.print(escape(f"{_arrow(f)}  "
                                  f"{f.valid_at:%Y-%m-%d}..{_day(f.invalid_at)}{_story_where(f)}"),
                                  highlight=False)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if not as_json:
        console.print(f"{total} facts")


@app.command("network")
def network_cmd(group: str = typer.Option(..., "--group"), position: int = POSITION, chapter: int = CHAPTER,
                source: str = BOOK, limit: int = typer.Option(20, "--limit", min=1, max=500),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Who appears with whom and who speaks to whom, strongest first; as of a chapter of a book."""
    from strata.api.memory import open_memory

    with open_memory(embedder=False) as mem:
        try:
            net = mem.network(group, _story(position, chapter, source), limit=limit)
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


@app.command("quotes")
def quotes_cmd(group: str = typer.Option(..., "--group"), speaker: str = typer.Option(None, "--speaker"),
               addressee: str = typer.Option(None, "--to", help="Whom the quotes were said to."),
               as_json: bool = typer.Option(False, "--json")) -> None:
    """What characters said to whom (by uuid or name), in reading order; pages through the complete listing."""
    from strata.api.memory import open_memory

    offset: int | None = 0
    total = 0
    with open_memory(embedder=False) as mem:
        while offset is not None:
            page = mem.quotes(group, speaker=speaker, addressee=addressee, offset=offset, limit=1000)
            for x in page.items:
                if as_json:
                    sys.stdout.write(x.model_dump_json() + "\n")
                else:
                    to = f" to {', '.join(x.addressees)}" if x.addressees else ""
                    console.print(escape(f"{x.speaker or '?'}{to}: \"{x.text}\""), highlight=False)
            total += len(page.items)
            offset = page.next_offset
    if not as_json:
        console.print(f"{total} quotes")


@app.command("timeline")
def timeline_cmd(entity: str = typer.Argument(..., help="Entity uuid or exact name."),
                 group: str = typer.Option(..., "--group"),
                 expired: bool = typer.Option(False, "--include-expired", help="Also retracted facts."),
                 position: int = POSITION, chapter: int = CHAPTER, source: str = BOOK,
                 as_json: bool = typer.Option(False, "--json")) -> None:
    """Every fact about an entity in (valid time, story) order; with a story cut, what the book stated by then.
    A merged-away entity answers for the entity it was merged into."""
    from strata.api.memory import open_memory

    with open_memory(embedder=False) as mem:
        try:
            uuid = mem.entity_id(group, entity)
            timeline = mem.timeline(group, mem.survivor(group, uuid) or uuid, expired,
                                    _story(position, chapter, source))
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json:
        _json_out(timeline)
        return
    for f in timeline.facts:
        console.print(escape(f"{_arrow(f)}  {f.valid_at:%Y-%m-%d}.."
                             f"{_day(f.invalid_at)}{_story_where(f)}"), highlight=False)


@app.command("entity")
def entity_cmd(name: str = typer.Argument(..., help="A name, or an entity uuid."),
               group: str = typer.Option(..., "--group"), limit: int = typer.Option(10, "--limit", min=1, max=50),
               as_json: bool = typer.Option(False, "--json")) -> None:
    """An entity by uuid (a merged-away one answers with its survivor), or the entities a name may mean, best
    first (exact key, full text and name vector, as `GET /groups/{group}/entities?name=`)."""
    from strata.api.memory import UUID, open_memory

    with open_memory() as mem:
        found = (mem.entity(group, name, follow=True) if UUID.match(name)
                 else mem.resolve(group, name, limit))
    if as_json:
        _json_out(found)
        return
    for c in getattr(found, "candidates", [found]):
        aliases = f"  aka {', '.join(c.aliases)}" if c.aliases else ""
        score = f"{c.score:.3f} " if hasattr(c, "score") else ""
        console.print(escape(f"{score}{c.name} ({c.type}) {c.uuid}{aliases}"), highlight=False)


@app.command("neighborhood")
def neighborhood_cmd(entity: str = typer.Argument(..., help="Entity uuid or exact name."),
                     group: str = typer.Option(..., "--group"), depth: int = typer.Option(1, "--depth", min=1, max=3),
                     as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."),
                     known_at: str = KNOWN_AT, as_json: bool = typer.Option(False, "--json")) -> None:
    """Entities and facts within DEPTH hops of an entity, over the facts true at --as-of (default: now)."""
    from strata.api.memory import open_memory

    with open_memory(embedder=False) as mem:
        uuid = mem.entity_id(group, entity)
        found = mem.neighbourhood(group, mem.survivor(group, uuid) or uuid, depth, as_of=_when(as_of),
                                  known_at=_when(known_at))
    if as_json:
        _json_out(found)
        return
    for f in found.facts:
        console.print(escape(f"{_arrow(f)}"), highlight=False)


@app.command("paths")
def paths_cmd(source_entity: str = typer.Argument(..., help="Entity uuid or exact name."),
              target_entity: str = typer.Argument(..., help="Entity uuid or exact name."),
              group: str = typer.Option(..., "--group"), max_depth: int = typer.Option(4, "--max-depth", min=1, max=6),
              as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."),
              as_json: bool = typer.Option(False, "--json")) -> None:
    """Shortest paths between two entities over the facts true at --as-of (default: now)."""
    from strata.api.memory import open_memory

    with open_memory(embedder=False) as mem:
        found = mem.paths(group, source_entity, target_entity, max_depth, as_of=_when(as_of))
    if as_json:
        _json_out(found)
        return
    for p in found.paths:
        console.print(escape(" / ".join(f"{_arrow(f)}" for f in p.facts)),
                      highlight=False)


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
    from strata.api.memory import open_memory

    with open_memory(embedder=False, migrate=True) as mem:
        created = mem.create_key(group, rights, name)
    sys.stdout.write(json.dumps({"id": created.key.id, "groups": created.key.groups, "rights": created.key.rights,
                                 "token": created.token}) + "\n")


@keys_app.command("revoke")
def keys_revoke(key_id: str = typer.Argument(...)) -> None:
    """Revoke an API key by id."""
    from strata.api.memory import open_memory

    with open_memory(embedder=False) as mem:
        mem.revoke_key(key_id)
    console.print(f"revoked {key_id}")
