"""DialogRE bench scoring on hand-made pairs: the table's directions, inverses, speaker names, P/R/F1."""

from __future__ import annotations

import pytest

from bench.dialogre import (
    Dialogue,
    Pair,
    Statement,
    episode_body,
    predictions,
    score,
    speakers_of,
    split_turn,
)


def names(*xs: str) -> frozenset[str]:
    return frozenset(x.casefold() for x in xs)


DIALOGUE = Dialogue(index=7, turns=("Speaker 1: Hey mom.", "Speaker 1, Speaker 2: Hi!"), pairs=(
    Pair("Speaker 1", "Speaker 2", ("per:parents",), "PER", "PER"),
    Pair("Speaker 2", "Speaker 1", ("per:children",), "PER", "PER"),
    Pair("Speaker 2", "Judy", ("per:alternate_names",), "PER", "PER"),
    Pair("Speaker 2", "honey", ("per:alternate_names",), "PER", "STRING"),
    Pair("Speaker 1", "Carol", ("per:spouse",), "PER", "PER"),
    Pair("Carol", "Speaker 1", ("per:spouse",), "PER", "PER"),
    Pair("Speaker 1", "Speaker 2", ("unanswerable",), "PER", "PER"),
    Pair("Speaker 1", "paleontologist", ("per:title",), "PER", "STRING"),
))


def test_scoring_counts_pairs_through_the_table_inverses_and_speaker_names():
    statements = [
        # parent_of(Judy, Speaker 1): Judy is named, and Judy is Speaker 2's name -> (Speaker 1, Speaker 2) parents
        # and its inverse (Speaker 2, Speaker 1) children.
        Statement(names("Judy"), "parent_of", names("Speaker 1", "Ross")),
        # spouse_of is symmetric: both gold directions from one fact.
        Statement(names("Speaker 1"), "spouse_of", names("Carol")),
        Statement(names("Speaker 1"), "sibling_of", names("Monica")),  # wrong: no such gold pair (x2: symmetric)
        Statement(names("Speaker 1"), "says", names("Speaker 2")),  # not in the table: counts for nothing
    ]
    predicted = predictions(7, statements, {"Speaker 2": ["Judy", "Mrs. Geller"]})
    result = score([DIALOGUE], predicted)

    rel = result["per_relation"]
    assert rel["per:parents"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "predicted": 1, "correct": 1,
                                  "gold": 1, "found": 1}
    assert rel["per:children"]["found"] == 1
    assert rel["per:spouse"]["correct"] == 2 and rel["per:spouse"]["found"] == 2
    assert rel["per:siblings"]["predicted"] == 2 and rel["per:siblings"]["correct"] == 0
    # alternate names: "Judy" right, "Mrs. Geller" wrong, "honey" missed
    assert rel["per:alternate_names"]["predicted"] == 2 and rel["per:alternate_names"]["correct"] == 1
    assert rel["per:alternate_names"]["gold"] == 2 and rel["per:alternate_names"]["found"] == 1
    assert rel["per:title"]["gold"] == 1 and rel["per:title"]["found"] == 0
    assert "unanswerable" not in rel

    micro = result["micro"]  # 8 predictions, 5 right; 7 gold pairs, 5 found
    assert (micro["predicted"], micro["correct"], micro["gold"], micro["found"]) == (8, 5, 7, 5)
    assert micro["precision"] == pytest.approx(0.625) and micro["recall"] == pytest.approx(0.7143)
    assert micro["f1"] == pytest.approx(2 * 0.625 * 0.7143 / (0.625 + 0.7143), abs=1e-4)
    facts_only = result["micro_facts"]
    assert (facts_only["predicted"], facts_only["correct"], facts_only["gold"]) == (6, 4, 5)


def test_a_nickname_is_not_a_speakers_name_and_the_wrong_dialogue_does_not_count():
    # "honey" is a STRING alternate name: an entity called honey is not Speaker 2.
    wrong = predictions(7, [Statement(names("honey"), "parent_of", names("Speaker 1"))], {})
    other = predictions(8, [Statement(names("Speaker 2"), "parent_of", names("Speaker 1"))], {})
    result = score([DIALOGUE], wrong + other)
    assert result["micro"]["correct"] == 0 and result["micro"]["predicted"] == 2


def test_client_of_puts_the_provider_first():
    d = Dialogue(index=1, turns=(), pairs=(Pair("Estelle", "Speaker 1", ("per:client",), "PER", "PER"),))
    predicted = predictions(1, [Statement(names("Speaker 1", "Joey"), "client_of", names("Estelle"))], {})
    assert score([d], predicted)["per_relation"]["per:client"]["f1"] == 1.0


def test_turns_become_chat_messages():
    assert split_turn("Speaker 12: Hi: there") == ("Speaker 12", "Hi: there")
    assert split_turn("Speaker 1, Speaker 2: Hi!") == ("Speaker 1, Speaker 2", "Hi!")
    body = episode_body(DIALOGUE)
    assert [m["speaker"] for m in body["messages"]] == ["Speaker 1", "Speaker 1, Speaker 2"]
    assert speakers_of(DIALOGUE) == ["Speaker 1", "Speaker 2"]
