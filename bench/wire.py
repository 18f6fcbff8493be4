"""The wire-format OpenAI test server (tests/support/openai_server.py), loaded by path for the benches."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SERVER = Path(__file__).resolve().parent.parent / "tests" / "support" / "openai_server.py"


def load_wire() -> ModuleType:
    name = "bench_openai_server"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SERVER)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look the module up while the class is built
        spec.loader.exec_module(module)
    return sys.modules[name]
