"""Fixtures for ingest unit tests: the wire-format OpenAI server (strata.ingest.testing) and book text."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from strata.ingest.testing import openai_server as wire_module
from tests.support.shared_data import shared_path


@pytest.fixture(scope="session")
def wire() -> ModuleType:
    """The openai_server module: ``wire.Reply``, ``wire.OpenAIServer``, ``wire.count_tokens``."""
    return wire_module


@pytest.fixture
def openai_server(wire: ModuleType) -> Iterator[object]:
    with wire.OpenAIServer() as server:
        yield server


@pytest.fixture(scope="session")
def pride_and_prejudice() -> str:
    path = shared_path("books", "pride_and_prejudice_pg1342.txt")
    return path.read_text(encoding="utf-8-sig")
