"""How deep a short vector channel asks again: sized to its first ask's yield, within bounds."""

from __future__ import annotations

import pytest

from strata.graph import search as search_module
from strata.graph.read import MAX_INDEX_DEPTH
from strata.graph.search import _deeper


def test_the_second_ask_is_as_deep_as_the_yield_says_with_the_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "DEEPEN_MARGIN", 2.0)
    # 100 entries read, 15 kept: 60 hits need 400 entries, twice that with the margin.
    assert _deeper(raw=100, kept=15, need=60) == 800
    # a yield from few hits still asks at least twice as deep, and never deeper than allowed
    assert _deeper(raw=100, kept=19, need=20) == 211
    assert _deeper(raw=100, kept=90, need=60) == 200
    assert _deeper(raw=100, kept=0, need=60) == MAX_INDEX_DEPTH
    assert _deeper(raw=100, kept=3, need=60) == MAX_INDEX_DEPTH


def test_without_a_margin_the_second_ask_is_as_deep_as_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "DEEPEN_MARGIN", None)
    assert _deeper(raw=100, kept=15, need=60) == MAX_INDEX_DEPTH
