"""Fixtures for ingest unit tests: the wire-format OpenAI server (tests/support) and book text.

tests/support is a plain folder (no package), so the server module is loaded by path.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SUPPORT = Path(__file__).resolve().parents[2] / "support"
BOOKS = Path(__file__).resolve().parents[4] / "shared" / "data" / "books"


def load_openai_server_module() -> ModuleType:
    name = "strata_tests_openai_server"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SUPPORT / "openai_server.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look the module up while the class is built
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="session")
def wire() -> ModuleType:
    """The openai_server module: ``wire.Reply``, ``wire.OpenAIServer``, ``wire.count_tokens``."""
    return load_openai_server_module()


@pytest.fixture
def openai_server(wire: ModuleType) -> Iterator[object]:
    with wire.OpenAIServer() as server:
        yield server


@pytest.fixture(scope="session")
def pride_and_prejudice() -> str:
    path = BOOKS / "pride_and_prejudice_pg1342.txt"
    if not path.exists():
        pytest.skip(f"shared book missing: {path}")
    return path.read_text(encoding="utf-8-sig")
