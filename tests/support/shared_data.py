"""The project's shared data folder (beside the checkout, never copied in) and the skip for tests that read it:
a clone without the folder skips them with the path it looked for."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO.parent / "shared" / "data"


def _reason(path: Path) -> str:
    return f"needs the shared data folder beside the checkout: {path} is missing"


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """A skip marker for a test that reads ``SHARED_DATA/<parts>``."""
    path = SHARED_DATA.joinpath(*parts)
    return pytest.mark.skipif(not path.exists(), reason=_reason(path))


def shared_path(*parts: str) -> Path:
    """``SHARED_DATA/<parts>``, or skip the calling test (or fixture) when it is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(_reason(path))
    return path
