"""Book-aware resolution: prominence among rivals, name-ranked lookup, merge records from the planner."""

from __future__ import annotations

from datetime import UTC, datetime

from strata.resolve.decide import PROMINENCE_MIN, PROMINENCE_RATIO, decide
from strata.resolve.lookup import rank_by_name
from strata.resolve.planner import build_plan
from strata.resolve.types import CandidateEntity, MentionCandidate
from strata.schema.models import Episode, ExtractedEntity, Extraction, ExtractorInfo, Span


def person(uuid: str, name: str, *aliases: str, mentions: int = 0) -> CandidateEntity:
    return CandidateEntity(uuid=uuid, name=name, type="Person", aliases=list(aliases), mentions=mentions)


def resolve(name: str, *candidates: CandidateEntity) -> tuple[str, str | None]:
    decision = decide(MentionCandidate(name=name, type="Person"), list(candidates))
    return decision.action, decision.uuid


# --- a bare name several entities answer to names the prominent one, if far ahead -----------------------

def test_a_bare_surname_names_the_far_more_prominent_bearer():
    hero = person("mr", "Mr. Fairbairn", mentions=int(PROMINENCE_MIN * PROMINENCE_RATIO))
    sister = person("miss", "Miss Fairbairn", mentions=PROMINENCE_MIN)
    assert resolve("Fairbairn", hero, sister) == ("merge", "mr")


def test_close_prominence_stays_ambiguous():
    assert resolve("Fairbairn", person("mr", "Mr. Fairbairn", mentions=40),
                   person("mrs", "Mrs. Fairbairn", mentions=30))[0] == "ambiguous"


def test_prominence_needs_enough_mentions():
    assert resolve("Fairbairn", person("mr", "Mr. Fairbairn", mentions=PROMINENCE_MIN - 1),
                   person("miss", "Miss Fairbairn", mentions=0))[0] == "ambiguous"


def test_prominence_never_overrides_a_conflict():
    # "Mrs. Fairbairn" conflicts with Mr. Fairbairn whatever his mentions: she is the other candidate or new
    assert resolve("Mrs. Fairbairn", person("mr", "Mr. Fairbairn", mentions=500)) == ("create", None)


# --- lookup: the entity a typed name can mean, not the most similar string ------------------------------

def _rank(name: str, *candidates: CandidateEntity) -> list[str]:
    return [candidates[i].uuid for i, _ in rank_by_name(name, list(candidates), [0.5] * len(candidates))]


def test_lookup_prefers_the_prominent_of_two_exact_matches():
    stray = person("stray", "Nell", mentions=1)
    heroine = person("heroine", "Eleanor Marsh", "Nell", "Eleanor", mentions=80)
    assert _rank("Nell", stray, heroine)[0] == "heroine"
    assert _rank("My dear Nell", stray, heroine)[0] == "heroine"


def test_lookup_leaves_out_what_the_name_rules_out():
    assert _rank("Mrs. Ashdown", person("mr", "Mr. Ashdown", mentions=50)) == []
    assert _rank("the late Mr. Ashdown", person("mr", "Mr. Ashdown")) == []
    assert _rank("Mrs. Ashdown", person("mr", "Mr. Ashdown"), person("wife", "Ruth Grey", "Mrs. Ashdown")) == ["wife"]


def test_lookup_keeps_rule_matches_ahead_of_channel_order():
    ranked = rank_by_name("Miss Nell", [person("other", "Nelson Park"), person("her", "Eleanor Marsh", "Nell")],
                          [0.9, 0.2])
    assert ranked[0][0] == 1


def test_lookup_drops_unrelated_names_the_channels_found_only_faintly():
    officer, inn = person("officer", "Mr. Denton", mentions=9), person("inn", "The Bell Inn")
    # no name rule relates "Porter" to either: only a close vector match is worth listing
    ranked = rank_by_name("Porter", [officer, inn], [0.69, 0.85])
    assert [i for i, _ in ranked] == [1]
    assert rank_by_name("Porter", [officer], [0.69]) == []
    # a description ("The Porter") lists only what the name rules relate, however close the channel found it
    assert rank_by_name("The Porter", [officer, inn], [0.69, 0.85]) == []


# --- merge records: which rule joined which names ------------------------------------------------------

def _episode(content: str) -> Episode:
    return Episode(uuid="00000000-0000-5000-8000-000000000001", group_id="g", seq=0, kind="text", content=content,
                   reference_time=datetime(2020, 1, 1, tzinfo=UTC), content_hash="h")


def _plan(names: list[str], found: list[CandidateEntity]):
    content = " ".join(names)
    ents = [ExtractedEntity(name=n, type="Person", spans=[Span(start=content.index(n), end=content.index(n) + len(n))])
            for n in names]
    ext = Extraction(episode_uuid=_episode(content).uuid, extractor=ExtractorInfo(name="test"), entities=ents)
    plan, _ = build_plan(_episode(content), ext, lookup=lambda g, qs: {q.index: found for q in qs}, predicates=[])
    return plan


def test_a_merge_by_rule_is_recorded_with_its_evidence():
    plan = _plan(["Eleanor"], [person("e", "Eleanor Marsh")])
    assert [(m.entity_uuid, m.forms, m.rule) for m in plan.merges] == [("e", ["Eleanor"], "partial")]
    assert plan.merges[0].candidate_form == "Eleanor Marsh" and plan.merges[0].episode_uuid == plan.episode.uuid


def test_names_joined_within_an_episode_are_recorded_as_a_collapse():
    plan = _plan(["Elizabeth Marsh", "Lizzy"], [])
    assert [(m.forms, m.rule) for m in plan.merges] == [(["Lizzy"], "collapse")]


def test_an_exact_match_adding_nothing_records_nothing():
    assert _plan(["Lizzy"], [person("e", "Elizabeth Marsh", "Lizzy")]).merges == []


def test_a_titled_name_no_rule_relates_finds_nothing() -> None:
    from strata.resolve.lookup import rank_by_name
    from strata.resolve.types import CandidateEntity

    cands = [CandidateEntity(uuid="f", name="Colonel Forster", type="Person", mentions=12),
             CandidateEntity(uuid="d", name="Mr. Darcy", type="Person", mentions=90)]
    # "the late Mr. Darcy" conflicts with Mr. Darcy and is unrelated to Colonel Forster: no candidate
    assert rank_by_name("The Late Mr. Darcy", cands, [0.9, 0.8]) == []
    # an untitled name keeps the channels' unrelated candidates below the related ones
    assert [i for i, _ in rank_by_name("Pemberley", cands, [0.9, 0.8])] == [0, 1]
    assert [i for i, _ in rank_by_name("Mr. Darcy", cands, [0.9, 0.8])] == [1]


def test_a_nickname_against_a_rank_and_given_name_is_only_possible() -> None:
    from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
    from strata.resolve.types import CandidateEntity, MentionCandidate

    def s(a: str, b: str) -> float:  # one scene writes both: the evidence a nickname needs (issue 30)
        candidate = CandidateEntity(uuid="x", name=b, type="Person")
        return score_pair(MentionCandidate(name=a, type="Person"), candidate, scene=True).score

    assert POSSIBLE_THRESHOLD <= s("Kitty", "Lady Catherine") < MERGE_THRESHOLD
    assert s("Kitty", "Catherine") >= MERGE_THRESHOLD  # no rank: the diminutive stands
    assert s("Lizzy", "Miss Elizabeth") >= MERGE_THRESHOLD  # a plain title is no rank
