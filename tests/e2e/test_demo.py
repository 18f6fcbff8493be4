"""`strata demo`'s run through Memory over an inline runtime: the samples (chat, offices, the committed
three-chapter story, so no shared data is needed) go in as jobs that end, and the printed answers are the
demo's promises: where Maya lives now and then, who was mayor, the history, a search, the interactions."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from strata.api.demo import SAMPLES, explorer_key, run_demo, write_perspective
from strata.memory import FactsRequest, open_memory

pytestmark = pytest.mark.integration


def test_the_demo_answers_what_it_promises(settings, graph, group_id, tmp_path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    with open_memory(settings, pipeline=True) as mem:
        run_demo(mem, console, SAMPLES / "harbour_book.txt", chapters=3, group=group_id)
        book = mem.facts(group_id, FactsRequest(subject="Tom Marlow", subject_type="Person", predicate="lives_in",
                                                include_history=True)).items
    text = out.getvalue()
    assert "ingested harbour_book.txt: chapters 1-3, " in text and " 0 failed" in text
    assert "Where does Maya live now? Berlin   ... on 2024-03-01? Lisbon" in text
    assert "Where does Sofia live now? Madrid   ... on 2024-03-01? Porto" in text
    assert "Mayor of Alvorada now: Marta Lopes" in text
    assert "Mayor of Alvorada on 2015-06-01: Rui Costa" in text
    assert "Maya lives_in Lisbon: 2024-01-15 -> 2024-06-03" in text
    assert "messages=['m-10" in text  # a search hit carries its chat message ids
    # the question's answer heads the search: the fact that holds now, before the turns that said older homes
    assert "search 'Where does Maya live?':\n  [answer " in text and "Maya lives in Berlin" in text
    assert "Whitby" in {f.object_name for f in book}  # the story was read as a book (chapter II: Tom moved)


def test_the_demo_key_and_perspective(settings, graph, tmp_path) -> None:
    with open_memory(settings, embedder=False) as mem:
        first, second = explorer_key(mem), explorer_key(mem)
        assert mem.verify_key(first) is None and mem.verify_key(second) is not None  # the older key is revoked
        path = write_perspective(mem, tmp_path / "perspective.json")
    assert path.read_text(encoding="utf-8").startswith("{")
