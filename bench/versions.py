"""Which code a bench measured: the commit, and whether the folders it reads differed from it."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def code_version(paths: tuple[str, ...], dirty_key: str) -> dict[str, Any]:
    """``{"commit": short sha, dirty_key: whether any of ``paths`` has uncommitted changes}``."""
    dirty = git("status", "--porcelain", "--", *paths)
    return {"commit": git("rev-parse", "--short", "HEAD") or None, dirty_key: bool(dirty)}
