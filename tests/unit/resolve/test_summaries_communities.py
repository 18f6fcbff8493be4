"""Extractive summaries (salience, grouping, the length limit, the fingerprint) and Leiden communities, pure."""

from __future__ import annotations

from datetime import UTC, datetime

from strata.resolve.communities import members_line, partition, title
from strata.resolve.summaries import extractive_summary, fingerprint, fit, ranked_sentences, sentences
from strata.schema.summaries import DigestFact, DigestNote, EntityDigest

T = datetime(2024, 1, 1, tzinfo=UTC)


def _fact(k: int, predicate: str, obj: str, sentence: str = "", evidence: int = 1, functional: str | None = None,
          outgoing: bool = True, subject: str = "Maya") -> DigestFact:
    return DigestFact(uuid=f"f{k}", predicate=predicate, sentence=sentence, subject_name=subject if outgoing else obj,
                      object_name=obj if outgoing else subject, outgoing=outgoing, other_uuid=f"e-{obj}",
                      functional=functional, evidence=evidence, valid_at=T)


def test_functional_slots_first_then_often_stated_relations_then_notes_then_generic_verbs() -> None:
    digest = EntityDigest(uuid="m", name="Maya", type="Person", facts=[
        _fact(1, "take", "Umbrella", "Maya took Umbrella", evidence=1),
        _fact(2, "sibling_of", "Sofia", "Maya is the sister of Sofia", evidence=3),
        _fact(3, "lives_in", "Berlin", "Maya moved to Berlin", functional="subject"),
    ], notes=[DigestNote(uuid="n1", text="Maya is training for a marathon", said_at=T)])
    assert ranked_sentences(digest) == ["Maya moved to Berlin.", "Maya is the sister of Sofia.",
                                        "Maya is training for a marathon.", "Maya took Umbrella."]


def test_one_relation_to_several_is_said_once_and_interlocutors_are_ranked() -> None:
    digest = EntityDigest(uuid="j", name="Jane", facts=[
        _fact(1, "sibling_of", "Elizabeth", subject="Jane"), _fact(2, "sibling_of", "Lydia", subject="Jane"),
        _fact(3, "spoke_to", "Bingley", 'Jane said to Bingley: "..."', evidence=5, subject="Jane"),
        _fact(4, "spoke_to", "Elizabeth", evidence=9, outgoing=False, subject="Jane"),
        _fact(5, "lives_in", "Longbourn", outgoing=False, subject="Jane"),
        _fact(6, "lives_in", "Netherfield", outgoing=False, subject="Jane"),
    ])
    # (an incoming lives_in would be odd for a person; it shows the plural of an incoming group)
    sentences = ranked_sentences(digest)
    assert "Jane talks most with Elizabeth and Bingley." in sentences  # quotes either way, most first
    assert "Jane is a sibling of Elizabeth and Lydia." in sentences
    assert "Longbourn and Netherfield live in Jane." in sentences
    assert not any('"' in s for s in sentences)  # quotes are not repeated in a summary


def test_the_summary_keeps_within_its_length_and_skips_what_does_not_fit() -> None:
    long = "Maya " + "very " * 60 + "long sentence"
    digest = EntityDigest(uuid="m", name="Maya", facts=[
        _fact(1, "lives_in", "Berlin", "Maya moved to Berlin", functional="subject"),
        _fact(2, "likes", "Jazz", long, evidence=8),
        _fact(3, "employed_by", "Northwind", "Maya works at Northwind", evidence=2)])
    text = extractive_summary(digest, 120)
    assert len(text) <= 120
    assert text == "Maya moved to Berlin. Maya likes Jazz. Maya works at Northwind."  # a long sentence said short


def test_the_fingerprint_changes_with_what_the_summary_says_not_with_its_order_of_reading() -> None:
    a = EntityDigest(uuid="m", name="Maya", facts=[_fact(1, "lives_in", "Berlin", functional="subject"),
                                                     _fact(2, "likes", "Jazz")])
    b = a.model_copy(update={"facts": list(reversed(a.facts))})
    c = a.model_copy(update={"facts": [_fact(1, "lives_in", "Porto", functional="subject"), a.facts[1]]})
    assert fingerprint(a, "extractive", 300) == fingerprint(b, "extractive", 300)
    assert fingerprint(a, "extractive", 300) != fingerprint(c, "extractive", 300)
    assert fingerprint(a, "extractive", 300) != fingerprint(a, "llm:m", 300)


def test_fit_cuts_at_a_sentence_or_a_word() -> None:
    assert fit("One two three four. Five six seven eight nine.", 30) == "One two three four."
    assert fit("One two. Three four five six.", 20) == "One two. Three ..."  # a sentence end too early: words
    assert fit("Onetwothree fourfivesix seveneight", 20) == "Onetwothree ..."
    assert fit("short", 20) == "short"
    assert fit("Mr. Darcy met J. Smith at Pemberley. Then he left for London at once.", 40) == \
        "Mr. Darcy met J. Smith at Pemberley."


def test_titles_and_initials_do_not_end_a_sentence() -> None:
    assert sentences("Mrs. Bennet talks with Mr. Bennet. Jane is well! Is she? Yes.") == [
        "Mrs. Bennet talks with Mr. Bennet.", "Jane is well!", "Is she?", "Yes."]


def _clique(names: list[str], w: float = 1.0) -> list[tuple[str, str, float]]:
    return [(a, b, w) for k, a in enumerate(names) for b in names[k + 1:]]


def test_two_cliques_with_one_weak_link_are_two_communities_whatever_the_edge_order() -> None:
    edges = _clique(["a", "b", "c", "d"]) + _clique(["e", "f", "g", "h"]) + [("d", "e", 0.2), ("x", "x", 5.0)]
    found = partition(edges, "g1")
    assert [sorted(v for v, _ in c.members) for c in found] in ([["a", "b", "c", "d"], ["e", "f", "g", "h"]],
                                                                  [["e", "f", "g", "h"], ["a", "b", "c", "d"]])
    again = partition(list(reversed(edges)), "g1")
    assert [c.uuid for c in again] == [c.uuid for c in found]  # same members, same ids
    assert partition(edges, "g2")[0].uuid not in {c.uuid for c in found}  # ids are per group
    assert partition([], "g1") == []


def test_titles_name_the_top_members() -> None:
    assert title(["Elizabeth Bennet", "Darcy", "Jane Bennet", "Bingley"]) == "Elizabeth Bennet, Darcy, Jane Bennet"
    assert members_line(["A", "B"], 5, shown=2) == "5 members: A, B and 3 more."
