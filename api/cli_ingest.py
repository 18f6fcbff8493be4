"""`strata ingest`, `strata jobs show`, `strata episodes retry --failed`, `strata worker`."""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from strata.api.cli_query import _fail
from strata.api.cli_writes import flag, option, write_command
from strata.api.derive import KW
from strata.schema.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from strata.ingest.sources import SourceDocument
    from strata.memory import Memory
from strata.schema.models import Episode
from strata.schema.requests_write import BatchIn, ConsolidateRequest, EpisodeIn, SourceRequest
from strata.schema.settings import Settings
from strata.schema.usage import LLMUsage

app = typer.Typer(no_args_is_help=True)
jobs_app = typer.Typer(help="Batch ingestion jobs.", no_args_is_help=True)
episodes_app = typer.Typer(help="Episodes: re-drive failed ones.", no_args_is_help=True)
app.add_typer(jobs_app, name="jobs")
app.add_typer(episodes_app, name="episodes")
console = Console(soft_wrap=True)


def _files(path: Path) -> list[Path]:
    """A file, or every file of a folder (one format: all files must share one extension)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder", {"path": str(path)})
    if path.is_file():
        return [path]
    files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError(f"{path}: the folder has no files", {"path": str(path)})
    suffixes = sorted({p.suffix.lower() or "(none)" for p in files})
    if len(suffixes) > 1:
        raise InputError(f"{path}: the folder mixes file types ({', '.join(suffixes)}); ingest one format at a time",
                         {"path": str(path), "suffixes": suffixes})
    return files


def _load(path: Path, ask: SourceRequest, group: str, cfg: Settings) -> SourceDocument:
    """One file segmented as an upload of it is; named ``ask.name`` if given, else by its file name."""
    from strata.ingest.sources import SourceOptions, load_source, parse_source_bytes
    from strata.ingest.sources.readers import read_bytes

    options = SourceOptions(book_window_tokens=cfg.book_window_tokens, chat_window_messages=cfg.chat_window_messages,
                            max_episode_chars=cfg.max_episode_chars)
    if ask.name:
        return parse_source_bytes(read_bytes(path), ask.format, name=ask.name, uri=path.resolve().as_uri(),
                                  group_id=group, agent=ask.agent, options=options)
    return load_source(path, ask.format, group_id=group, agent=ask.agent, book_window_tokens=cfg.book_window_tokens,
                       chat_window_messages=cfg.chat_window_messages, max_episode_chars=cfg.max_episode_chars)


INGEST = [inspect.Parameter("path", KW, annotation=Path,
                            default=typer.Argument(..., help="A file, or a folder of files in one format.")),
          option("group", "Group id to write into."),
          flag("wait", "Show progress until the job ends."),
          flag("inline", "Run in this process, without a broker (small runs)."),
          flag("estimate", "Print episodes, expected LLM calls and prompt tokens; submit nothing.")]


@write_command("add_source", app, INGEST, json_flag=False)
def ingest(ask: SourceRequest, path: Path, group: str, wait: bool, inline: bool, estimate: bool) -> None:
    """Segment PATH, store it and its episodes, enqueue them and print the job id."""
    from strata.memory import open_memory

    cfg = Settings()
    files, agent = _files(path), ask.agent
    if ask.name and len(files) > 1:
        raise InputError(f"{path}: --name names one file, the folder holds {len(files)}", {"path": str(path)})
    # Parse everything first: a bad file stops the run before anything is stored.
    docs = [_load(f, ask, group, cfg) for f in files]
    if estimate:
        _print_estimate(cfg, [e for d in docs for e in d.episodes])
        return
    with open_memory(cfg, embedder=False, pipeline=inline, celery=not inline) as mem:
        jobs = []
        for doc in docs:
            for warning in doc.warnings:
                typer.echo(f"warning: {doc.source.name}: {warning}", err=True)
            if inline:
                console.print(f"{doc.source.name}: {len(doc.episodes)} episodes, running inline")
            info = mem.add_document(doc, agent)
            note = f" (already submitted: job {info.duplicate_of})" if info.duplicate_of else ""
            console.print(f"job {info.uuid}: {doc.source.name}, {info.total} episodes{note}")
            jobs.append(info.uuid)
        if wait and not inline:
            _follow(mem, jobs)
        _summary(mem, jobs)


def _print_estimate(cfg: Settings, episodes: list[Episode]) -> None:
    """Nothing runs and nothing is stored: segmentation, the cache lookups and a token count."""
    from strata.ingest.estimate import estimate
    from strata.ingest.extractors.cache import make_cache

    est = estimate(episodes, cfg, make_cache(cfg))
    console.print(f"episodes: {est.episodes} ({est.llm_episodes} for an extractor call, "
                  f"{est.episodes - est.llm_episodes} structured)")
    console.print(f"LLM calls expected ({est.model}): {est.calls} extraction ({est.cached} of {est.llm_episodes} "
                  f"episodes already in the LLM cache), plus at most {est.max_adjudication_calls} adjudication")
    console.print(f"prompt tokens: ~{est.prompt_tokens:,} ({est.tokenizer}; instructions and episodes, without the "
                  f"roster of up to {est.max_context_entities} entities and the summary of up to "
                  f"{est.max_summary_words} words each call also carries)")
    if cfg.extractor != "llm":
        console.print(f"the configured extractor is {cfg.extractor}: it makes no LLM call; the figures above are "
                      "for STRATA_EXTRACTOR=llm")


def _usage_line(u: LLMUsage) -> str:
    return (f"LLM: {u.calls} calls ({u.extraction_calls} extraction, {u.adjudication_calls} adjudication, "
            f"{u.summary_calls} summary), "
            f"{u.prompt_tokens:,} prompt + {u.completion_tokens:,} completion tokens, "
            f"{u.cache_hits} answers from the cache")


def _follow(mem: Memory, jobs: list[str], poll_s: float = 0.5) -> None:
    infos = [mem.job(j) for j in jobs]
    total = sum(i.total for i in infos)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("failed {task.fields[failed]} · facts {task.fields[facts]} · {task.fields[rate]}/s"),
               TimeElapsedColumn(), TimeRemainingColumn())
    started, first_done = time.monotonic(), sum(i.done + i.failed for i in infos)
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("episodes", total=total, failed=0, facts=0, rate="0.0")
        while True:
            infos = [mem.job(j) for j in jobs]
            finished = sum(i.done + i.failed for i in infos)
            rate = (finished - first_done) / max(1e-6, time.monotonic() - started)
            progress.update(task, completed=finished, failed=sum(i.failed for i in infos),
                            facts=sum(i.facts for i in infos), rate=f"{rate:.1f}")
            if all(i.status != "running" for i in infos):
                break
            time.sleep(poll_s)


def _summary(mem: Memory, jobs: list[str]) -> None:
    failed = False
    for j in jobs:
        i = mem.job(j)
        failed = failed or i.status == "failed"
        console.print(f"job {i.uuid}: {i.status}; {i.done} done, {i.failed} failed, {i.queued + i.processing} "
                      f"pending of {i.total}; {i.facts} facts")
        if i.llm.calls or i.llm.cache_hits:
            console.print(f"  {_usage_line(i.llm)}")
    if failed:
        raise typer.Exit(2)


@jobs_app.command("show")
def jobs_show(job_id: str = typer.Argument(...), as_json: bool = typer.Option(False, "--json")) -> None:
    """A job's counts (the same numbers as GET /v1/jobs/{id})."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        info = mem.job(job_id)
    if as_json:
        sys.stdout.write(info.model_dump_json() + "\n")
        return
    console.print(f"job {info.uuid} ({info.group_id}): [bold]{info.status}[/]\n"
                  f"  episodes: {info.total} total, {info.done} done, {info.failed} failed, {info.queued} queued, "
                  f"{info.processing} processing\n  facts written: {info.facts}\n  {_usage_line(info.llm)}\n"
                  f"  created: {info.created_at}")


@write_command("add_episode", episodes_app, [option("group", "Group id to write into.")])
def episodes_add(body: EpisodeIn, group: str, as_json: bool) -> None:
    """Queue one episode (``--content``, or chat ``--messages``, or structured ``--facts``, both JSON), as
    ``POST /v1/groups/{group}/episodes`` does; prints its uuid and job."""
    from strata.memory import open_memory

    with open_memory(embedder=False, celery=True) as mem:
        try:
            done = mem.add_episode(group, body, body.agent)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    console.print(f"episode {done.episode_uuid}: job {done.job_id}, {done.status}", highlight=False)


@write_command("add_episodes", episodes_app, [option("group", "Group id to write into.")])
def episodes_add_batch(batch: BatchIn, group: str, as_json: bool) -> None:
    """Queue several episodes (``--episodes``: a JSON list, each as ``episodes add`` takes one) as one job."""
    from strata.memory import open_memory

    with open_memory(embedder=False, celery=True) as mem:
        try:
            done = mem.add_episodes(group, list(batch.episodes), None)
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    if as_json:
        sys.stdout.write(done.model_dump_json() + "\n")
        return
    console.print(f"job {done.job_id}: {len(done.episode_uuids)} episodes queued", highlight=False)


@episodes_app.command("retry")
def episodes_retry(
    failed: bool = typer.Option(False, "--failed", help="Re-drive failed episodes (required)."),
    group: str = typer.Option(None, "--group", help="Only this group."),
    job: str = typer.Option(None, "--job", help="Only this job."),
    inline: bool = typer.Option(False, "--inline", help="Run them in this process."),
) -> None:
    """Queue failed episodes again (their error is cleared when they succeed)."""
    from strata.memory import open_memory

    if not failed:
        raise InputError("say which episodes: --failed")
    with open_memory(embedder=False, pipeline=inline, celery=not inline) as mem:
        uuids = mem.retry_failed(group, job)
    console.print(f"re-queued {len(uuids)} failed episode(s)")


@app.command("worker")
def worker(
    concurrency: int = typer.Option(0, "--concurrency", "-c", min=0, help="Processes (default: CPU count)."),
    queue: str = typer.Option(None, "--queue", "-Q", help="Queue(s) to consume (default: STRATA_CELERY_QUEUE)."),
    pool: str = typer.Option("prefork", "--pool", help="prefork (CPU-bound spaCy) or threads (LLM-bound)."),
    beat: bool = typer.Option(False, "--beat", help="Also run the periodic tasks: the stuck sweep, stale "
                                                   "summaries, communities (one worker per cluster; recovery does "
                                                   "not need it: every worker re-drives dead workers' episodes)."),
    metrics_port: int = typer.Option(0, "--metrics-port", help="Serve Prometheus /metrics on this port."),
    loglevel: str = typer.Option("INFO", "--loglevel"),
) -> None:
    """Start a Celery worker for ingestion tasks (acks late, one task prefetched per process)."""
    cfg = Settings()
    env = dict(os.environ)
    if metrics_port:
        folder = tempfile.mkdtemp(prefix="strata-metrics-")
        env.update(PROMETHEUS_MULTIPROC_DIR=folder, STRATA_METRICS_MULTIPROC_DIR=folder,
                   STRATA_WORKER_METRICS_PORT=str(metrics_port))
    argv = [sys.executable, "-m", "celery", "-A", "strata.memory.worker", "worker", f"--pool={pool}",
            "-Q", queue or cfg.celery_queue, f"--loglevel={loglevel}", "--without-gossip", "--without-mingle"]
    processes = concurrency or os.cpu_count() or 1
    argv.append(f"--concurrency={processes}")
    if processes > 1 and pool == "prefork" and not cfg.embedding_threads:
        # several processes each running ONNX on every core oversubscribe the CPU: one thread per process
        env["STRATA_EMBEDDING_THREADS"] = "1"
    if beat:
        argv += ["--beat", "--schedule", str(Path(tempfile.gettempdir()) / "strata-beat-schedule")]
    os.execve(sys.executable, argv, env)


@write_command("consolidate", app, [option("group", "Group id."),
                                    flag("undo", "Take back the pass's merges instead (newest first).")],
               json_flag=False)
def consolidate(ask: ConsolidateRequest, group: str, undo: bool) -> None:
    """Run the cast consolidation pass (merges with records, suggestions) over a group's books."""
    from strata.memory import open_memory

    with open_memory(embedder=False) as mem:
        if undo:
            console.print(f"undid {len(mem.undo_consolidation(group, ask.source))} merge(s)")
            return
        results = mem.consolidate(group, ask)
    for r in results:
        console.print(f"source {r.source_uuid}: {r.cast} persons, {len(r.splits)} split(s), {len(r.merges)} merge(s), "
                      f"{r.suggestions} suggestion(s), {r.skipped} skipped")
        for sp in r.splits:
            console.print(f"  {sp.rule}: {', '.join(sp.forms)} from {sp.entity} -> {sp.into} (record {sp.record_uuid})")
        for m in r.merges:
            console.print(f"  {m.rule}: {', '.join(m.forms) or '(no new names)'} -> {m.into} (record {m.record_uuid})")
