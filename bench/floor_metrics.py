"""The figures of issue 33, measured from whatever ``strata`` is importable (run on a copy for "before"):
the parity table (use case x front-end: the parameters each of REST, MCP and the CLI takes), the import
cycles between modules (grimp), functions over 8 parameters and modules over 500 lines, and line counts.
mypy's error count per package is counted by ``--mypy``.

    .venv/bin/python -m bench.floor_metrics [--mypy] [--out bench/results/floor.json] [--label after]
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

# use case -> (REST "METHOD path", MCP tool, CLI command path); None where a front-end has none
USE_CASES: dict[str, tuple[str | None, str | None, str | None]] = {
    "search": ("GET /v1/groups/{group}/search", "search", "search"),
    "context": ("GET /v1/groups/{group}/context", "get_context", "context"),
    "resolve": ("GET /v1/groups/{group}/entities", "resolve_entity", "entity"),
    "facts": ("GET /v1/groups/{group}/facts", "list_facts", "facts"),
    "entity": ("GET /v1/entities/{uuid}", "get_entity", "entity"),
    "neighborhood": ("GET /v1/entities/{uuid}/neighborhood", "neighborhood", "neighborhood"),
    "timeline": ("GET /v1/entities/{uuid}/timeline", "entity_timeline", "timeline"),
    "notes": ("GET /v1/entities/{uuid}/notes", "entity_notes", "notes"),
    "fact": ("GET /v1/facts/{uuid}", "get_fact", "fact"),
    "paths": ("GET /v1/groups/{group}/paths", "paths", "paths"),
    "quotes": ("GET /v1/groups/{group}/quotes", "list_quotes", "quotes"),
    "network": ("GET /v1/groups/{group}/network", "network", "network"),
    "agents": ("GET /v1/groups/{group}/agents", "list_agents", "agents"),
    "schema": ("GET /v1/groups/{group}/schema", "group_schema", "schema show"),
    "clock": ("GET /v1/groups/{group}/clock", "group_clock", "clock"),
    "communities": ("GET /v1/groups/{group}/communities", "communities", "communities list"),
    "merges": ("GET /v1/entities/{uuid}/merges", "list_merges", "merges"),
    "suggestions": ("GET /v1/groups/{group}/suggestions", "list_suggestions", "suggestions list"),
    "merge": ("POST /v1/entities/{uuid}:merge", "merge_entities", "merge"),
    "unmerge": ("POST /v1/entities/{uuid}/merges/{record}/undo", "undo_merge", "unmerge"),
    "correct": ("POST /v1/facts/{uuid}:correct", "correct_fact", "correct"),
    "retract_episode": ("DELETE /v1/episodes/{uuid}", "retract_episode", "retract"),
    "add_episode": ("POST /v1/groups/{group}/episodes", "add_episode", "episodes add"),
    "add_episodes": ("POST /v1/groups/{group}/episodes:batch", "add_episodes", "episodes add-batch"),
    "retract_source": ("DELETE /v1/sources/{uuid}", "retract_source", "retract"),
    "accept_suggestion": ("POST /v1/entities/{uuid}/suggestions/{candidate}:accept", "review_suggestion",
                          "suggestions accept"),
    "reject_suggestion": ("POST /v1/entities/{uuid}/suggestions/{candidate}:reject", "review_suggestion",
                          "suggestions reject"),
    "set_retention": ("PUT /v1/groups/{group}/retention", "set_retention", "retention set"),
    "apply_retention": ("POST /v1/groups/{group}/retention:apply", "apply_retention", "retention apply"),
    "add_source": ("POST /v1/groups/{group}/sources", "add_source", "ingest"),
    "job": ("GET /v1/jobs/{uuid}", "get_job", "jobs show"),
    # the maintenance use cases (session 16b): no MCP tool on purpose, which their rows declare ("mcp:*")
    "retention": ("GET /v1/groups/{group}/retention", "get_retention", "retention show"),
    "purge_retention": ("POST /v1/groups/{group}/retention:purge", None, "retention purge"),
    "purge_group": ("DELETE /v1/groups/{group}", None, "purge group"),
    "consolidate": ("POST /v1/groups/{group}/consolidate", None, "consolidate"),
    "refresh_summaries": ("POST /v1/groups/{group}/summaries:refresh", None, "summaries refresh"),
    "refresh_communities": ("POST /v1/groups/{group}/communities:refresh", None, "communities refresh"),
}
# The same parameter under another name in one front-end (the CLI's short flags, MCP's "query").
SYNONYMS = {"query": "q", "history": "include_history", "obj": "object", "position": "as_of_position",
            "chapter": "as_of_chapter", "budget": "budget_tokens", "to": "addressee", "from_": "from",
            "source_entity": "from", "target_entity": "to_", "expired": "include_expired",
            "include_expired": "include_expired"}
# A CLI flag that stands for a field of another name in one use case (the purges' --yes).
SYNONYMS_BY_CASE = {"purge_retention": {"yes": "confirm"}, "purge_group": {"yes": "purge"},
                    "refresh_communities": {"budget": "budget_s"}}
# Not parameters of the use case: who and where (the group, the entity addressed) and output flags.
IGNORED = {"group", "uuid", "ctx", "as_json", "json", "entity_or_name", "name_or_uuid"}
# What addresses the object in a front-end that names it otherwise (the CLI's ENTITY argument, REST's path).
ADDRESS = {"entity": {"entity", "name", "limit"}, "neighborhood": {"entity"}, "timeline": {"entity"},
           "notes": {"entity"}, "merges": {"entity"}, "merge": {"entity"}, "unmerge": {"entity", "record"},
           "job": {"job_id"}, "retract_episode": {"kind"}, "retract_source": {"kind"},
           "accept_suggestion": {"entity", "candidate"}, "reject_suggestion": {"entity", "candidate"}}
# The table first measured 25 use cases (all but the six write rows named here); their count is kept as
# ``parameters_lacking_25`` so runs stay comparable with the first figures.
FIRST_25 = [c for c in USE_CASES if c not in ("add_episodes", "retract_source", "accept_suggestion",
                                               "reject_suggestion", "set_retention", "apply_retention",
                                               "retention", "purge_retention", "purge_group", "consolidate",
                                               "refresh_summaries", "refresh_communities")]


def _norm(name: str, use_case: str) -> str:
    name = name.lstrip("-").replace("-", "_")
    if use_case == "paths" and name == "to":
        return "to_"
    if name in SYNONYMS_BY_CASE.get(use_case, {}):
        return SYNONYMS_BY_CASE[use_case][name]
    return SYNONYMS.get(name, name)


def _properties(doc: dict[str, Any], schema: dict[str, Any] | None) -> set[str]:
    """A body schema's property names, through ``$ref`` and ``allOf`` (a form model beside an upload)."""
    if not schema:
        return set()
    ref = schema.get("$ref", "")
    if ref:
        return _properties(doc, doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1]))
    names = set(schema.get("properties", {}))
    for part in schema.get("allOf", []):
        names |= _properties(doc, part)
    return names


def declared() -> dict[str, set[str]]:
    """Per use case, the "front:parameter" exceptions its row declares (api/usecases*.py; none in old code)."""
    try:
        from strata.api.usecases import READS
    except ImportError:
        return {}
    rows = list(READS)
    try:
        from strata.api.usecases_write import WRITES
    except ImportError:
        pass
    else:
        rows += list(WRITES)
    return {r.name: {*getattr(r, "exceptions", {}), *(f"cli:{n}" for n in r.cli_skip)} for r in rows}


def rest_params(app: Any) -> dict[str, set[str]]:
    doc = app.openapi()
    out: dict[str, set[str]] = {}
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            names = {p["name"] for p in op.get("parameters", []) if p.get("in") == "query"}
            body = op.get("requestBody", {}).get("content", {})
            for media in body.values():
                names |= _properties(doc, media.get("schema"))
            out[f"{method.upper()} {path}"] = names
    return out


def mcp_params(app: Any) -> dict[str, set[str]]:
    from strata.api.mcp_server import build_mcp

    tools = asyncio.run(build_mcp(app).list_tools())
    return {t.name: set(t.input_schema.get("properties", {})) for t in tools}


def cli_params() -> dict[str, set[str]]:
    import typer

    from strata.api.cli import app

    out: dict[str, set[str]] = {}

    def walk(cmd: Any, prefix: str) -> None:
        if hasattr(cmd, "commands"):  # typer may ship its own click: duck-typed
            for name, sub in cmd.commands.items():
                walk(sub, f"{prefix} {name}".strip())
            return
        names = set()
        for p in cmd.params:
            if getattr(p, "param_type_name", "") == "option":
                names.add(max(p.opts, key=len))
            elif p.name:
                names.add(p.name)
        out[prefix] = names

    walk(typer.main.get_command(app), "")
    return out


def parity() -> dict[str, Any]:
    from strata.api.app import create_app
    from strata.schema.settings import Settings

    app = create_app(Settings(_env_file=None))  # type: ignore[call-arg]
    fronts = {"rest": rest_params(app), "mcp": mcp_params(app), "cli": cli_params()}
    table: dict[str, Any] = {}
    excused = declared()
    lacking_total = lacking_25 = undeclared_total = 0
    for case, names in USE_CASES.items():
        row: dict[str, Any] = {}
        for front, name in zip(("rest", "mcp", "cli"), names, strict=True):
            found = fronts[front].get(name) if name else None
            row[front] = (None if found is None
                          else sorted({_norm(n, case) for n in found} - IGNORED - ADDRESS.get(case, set())))
        union = set().union(*(set(v) for v in row.values() if v is not None))
        row["lacking"] = {f: sorted(union - set(v)) if v is not None else "no such command"
                          for f, v in row.items() if v is None or union - set(v)}
        n = sum(len(v) if isinstance(v, list) else len(union) for v in row["lacking"].values())
        lacking_total += n
        lacking_25 += n if case in FIRST_25 else 0
        # a lack is excused when the row declares it: this front-end cannot take it ("cli:name"), or the
        # parameter is another front-end's own ("rest:file": the upload)
        allowed = excused.get(case, set())
        row["declared"] = sorted(allowed)
        row["lacking_undeclared"] = {
            f: [x for x in v if f"{f}:{x}" not in allowed
                and not any(f"{g}:{x}" in allowed and x in (row[g] or []) for g in ("rest", "mcp", "cli"))]
            for f, v in row["lacking"].items() if isinstance(v, list)}
        row["lacking_undeclared"] = {f: v for f, v in row["lacking_undeclared"].items() if v}
        # a front-end without the use case at all is excused only by "front:*" (no MCP tool, on purpose)
        row["lacking_undeclared"] |= {f: v for f, v in row["lacking"].items()
                                      if not isinstance(v, list) and f"{f}:*" not in allowed}
        undeclared_total += sum(len(v) if isinstance(v, list) else len(union)
                                for v in row["lacking_undeclared"].values())
        table[case] = row
    return {"use_cases": table, "parameters_lacking": lacking_total, "parameters_lacking_25": lacking_25,
            "parameters_lacking_undeclared": undeclared_total,
            "declared_exceptions": sum(len(r["declared"]) for r in table.values())}


def import_cycles() -> dict[str, Any]:
    """Cycles of every import (type-only ones included), and of the imports that run (``runtime_*``)."""
    found = _cycles(type_only=True)
    runtime = _cycles(type_only=False)
    found["runtime_cycles"], found["runtime_cycle_count"] = runtime["cycles"], runtime["cycle_count"]
    return found


def _cycles(type_only: bool) -> dict[str, Any]:
    import grimp

    graph = grimp.build_graph("strata", exclude_type_checking_imports=not type_only)
    modules = sorted(graph.modules)
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in graph.modules} for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    sccs: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for m in modules:
        if m not in index:
            strong(m)
    # a package's __init__ importing its own modules is how packages re-export; count cycles without those
    floors = {m.split(".")[1] for m in modules if m.count(".") >= 1}
    layer_edges = sorted({(a.split(".")[1], b.split(".")[1]) for a, bs in edges.items() for b in bs
                          if a.count(".") and b.count(".") and a.split(".")[1] != b.split(".")[1]})
    return {"modules": len(modules), "cycles": sccs, "cycle_count": len(sccs),
            "modules_in_cycles": sum(len(c) for c in sccs), "floors": sorted(floors),
            "floor_edges": [f"{a} -> {b}" for a, b in layer_edges]}


PACKAGES = ["api", "memory", "ingest", "schema", "graph", "resolve", "services"]


def code_shape(root: Path) -> dict[str, Any]:
    lines: dict[str, int] = {}
    big: dict[str, int] = {}
    wide: list[str] = []
    for pkg in PACKAGES:
        total = 0
        for path in sorted((root / pkg).rglob("*.py")) if (root / pkg).is_dir() else []:
            text = path.read_text(encoding="utf-8")
            n = text.count("\n")
            total += n
            rel = str(path.relative_to(root))
            if n > 500:
                big[rel] = n
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    a = node.args
                    params = [p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]]
                    params = [p for p in params if p not in ("self", "cls")]
                    if len(params) > 8:
                        wide.append(f"{rel}:{node.lineno} {node.name} ({len(params)})")
        lines[pkg] = total
    return {"lines": lines, "modules_over_500": big, "functions_over_8_params": wide,
            "functions_over_8_count": len(wide)}


def mypy_counts(root: Path) -> dict[str, int]:
    """One mypy run over every package; errors counted by the folder of the file they are in."""
    argv = [sys.executable, "-m", "mypy", "--no-incremental"]
    for pkg in PACKAGES:
        if (root / pkg).is_dir():
            argv += ["-p", f"strata.{pkg}"]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True)
    out = {pkg: 0 for pkg in PACKAGES if (root / pkg).is_dir()}
    for line in done.stdout.splitlines():
        found = re.match(r"(?:src/strata/)?(\w+)/\S+:\d+: error:", line)
        if found and found.group(1) in out:
            out[found.group(1)] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path)
    ap.add_argument("--label", default="after")
    ap.add_argument("--mypy", action="store_true")
    args = ap.parse_args()
    import strata

    root = Path(strata.__file__).resolve().parent.parent.parent
    result: dict[str, Any] = {"strata": strata.__file__, "parity": parity(), "imports": import_cycles(),
                              "shape": code_shape(root)}
    if args.mypy:
        result["mypy_errors"] = mypy_counts(root)
    if args.out:
        saved = json.loads(args.out.read_text()) if args.out.exists() else {}
        saved[args.label] = result
        args.out.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
