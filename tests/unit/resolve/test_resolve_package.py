"""The public surface is chosen on purpose, and resolve/ stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

import strata.resolve as resolve

BANNED = {"neo4j", "celery", "fastapi", "redis", "openai", "httpx", "requests"}


def test_all_is_explicit_and_complete():
    assert sorted(resolve.__all__) == sorted(set(resolve.__all__))
    for name in resolve.__all__:
        assert hasattr(resolve, name), name
    public = {n for n in vars(resolve) if not n.startswith("_") and not isinstance(getattr(resolve, n), type(ast))}
    assert public == set(resolve.__all__)


def test_resolve_imports_no_services():
    root = Path(resolve.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in BANNED, (path.name, name)
        assert len(path.read_text(encoding="utf-8").splitlines()) < 400, path.name
