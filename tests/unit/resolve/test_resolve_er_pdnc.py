"""Entity resolution on the PDNC Pride and Prejudice alias list (read in place, never copied)."""

from __future__ import annotations

import csv
import itertools

import pytest

from strata.resolve.decide import decide
from strata.resolve.evaluate import AliasRecord, evaluate_aliases, parse_alias_cell
from strata.resolve.scoring import MERGE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MentionCandidate
from tests.support.shared_data import shared_path

CSV = ("entity_resolution", "pdnc", "PrideAndPrejudice", "character_info.csv")


@pytest.fixture(scope="module")
def records() -> list[AliasRecord]:
    with shared_path(*CSV).open(newline="", encoding="utf-8") as fh:
        return [AliasRecord(id=row["Character ID"], name=row["Main Name"], aliases=parse_alias_cell(row["Aliases"]))
                for row in csv.DictReader(fh)]


def test_every_alias_merges_right_or_is_ambiguous(records):
    report = evaluate_aliases(records)
    print("\nPDNC P&P, all names as candidates:", report.summary())
    assert report.wrong == 0, report.errors
    assert report.recall >= 0.95


# The list names some people twice (a spelling variant, a title and a full name; the same pairs as
# bench/pp_resolution.py KNOWN_DUPLICATES): with its own entry left out, an alias rightly lands on the twin.
TWINS = [{"Mr. Philips", "Mr. Phillips"}, {"Mrs. Philips", "Aunt Philips"}, {"Harriet", "Harriet Harrington"},
         {"Pen", "Pen Harrington"}, {"Mr. Darcy", "Mr. Darcy Of Pemberley"}, {"Ms. Reynolds", "Mrs. Reynolds"},
         {"Denny", "Mr. Denney"}]


def test_leave_one_out_never_merges_wrong(records):
    report = evaluate_aliases(records, leave_one_out=True)
    print("\nPDNC P&P, alias removed from its own character:", report.summary())
    name = {r.id: r.name for r in records}
    wrong = [e for e in report.errors if {name[e[1]], name[e[2]]} not in TWINS]
    assert wrong == [], wrong
    assert report.recall >= 0.6


BENNETS = {
    "mr": CandidateEntity(uuid="mr", name="Mr. Bennet", type="Person"),
    "mrs": CandidateEntity(uuid="mrs", name="Mrs. Bennet", type="Person"),
    "jane": CandidateEntity(uuid="jane", name="Jane Bennet", type="Person", aliases=["Miss Bennet"]),
    "elizabeth": CandidateEntity(uuid="elizabeth", name="Elizabeth Bennet", type="Person", aliases=["Lizzy"]),
    "mary": CandidateEntity(uuid="mary", name="Mary Bennet", type="Person"),
    "kitty": CandidateEntity(uuid="kitty", name="Catherine Bennet", type="Person", aliases=["Kitty"]),
    "lydia": CandidateEntity(uuid="lydia", name="Lydia Bennet", type="Person"),
}


def test_bennet_family_stays_distinct():
    # pairwise conflicts; only Mrs. Bennet vs a daughter's full name is a possible match (her given name is
    # unknown), and decide() below keeps those apart too
    for a, b in itertools.permutations(BENNETS.values(), 2):
        if "mrs" in (a.uuid, b.uuid) and "mr" not in (a.uuid, b.uuid):
            continue
        mention = MentionCandidate(name=a.name, type=a.type, aliases=a.aliases)
        score = score_pair(mention, b)
        assert score.conflict is not None and score.score < MERGE_THRESHOLD, (a.name, b.name)
    for key, entity in BENNETS.items():
        others = [c for k, c in BENNETS.items() if k != key]
        decision = decide(MentionCandidate(name=entity.name, type="Person"), others)
        assert decision.action != "merge", (entity.name, decision)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Lizzy", "elizabeth"), ("Eliza Bennet", "elizabeth"), ("Miss Lydia", "lydia"), ("Kitty Bennet", "kitty"),
     ("Mrs Bennet", "mrs"), ("Mr. Bennet", "mr"), ("Jane", "jane")],
)
def test_bennet_variants_resolve(name, expected):
    decision = decide(MentionCandidate(name=name, type="Person"), list(BENNETS.values()))
    assert (decision.action, decision.uuid) == ("merge", expected)


def test_bare_surname_is_ambiguous():
    decision = decide(MentionCandidate(name="Bennet", type="Person"), list(BENNETS.values()))
    assert decision.action == "ambiguous"
    assert {"mr", "mrs"} <= {s.candidate_uuid for s in decision.candidates}
