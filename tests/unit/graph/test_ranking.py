"""The ranking stage: relevance to the query decides, not how many channels agree."""

from __future__ import annotations

from datetime import UTC, datetime

from strata.graph.ranking import Candidate, RankWeights, rank
from strata.schema.models import TimeWindow

PASSAGE_TEXT = {"episode": ["passage_fulltext"], "fact": ["fact_fulltext"]}


def _sim(cosine: float) -> float:
    """A cosine as the indexes score it."""
    return (1.0 + cosine) / 2.0


def test_a_hit_many_channels_reach_weakly_ranks_below_one_that_answers() -> None:
    # The person's generic fact: every channel returns it (it is the best each has), but it says little.
    generic = Candidate(kind="fact", uuid="generic", channels=["fact_fulltext", "fact_vector", "fact_expansion"],
                        text={"fact_fulltext": 1.0}, semantic=[_sim(0.25)], fusion=3 / 61)
    # The turn that answers: found by its own channels with a strong match.
    answer = Candidate(kind="episode", uuid="answer", channels=["passage_fulltext", "passage_vector"],
                       text={"passage_fulltext": 8.0}, semantic=[_sim(0.62), _sim(0.55)],
                       episode="e1", fusion=2 / 61)
    ranked = rank([generic, answer], RankWeights(), PASSAGE_TEXT)
    assert [c.uuid for c in ranked] == ["answer", "generic"]
    assert ranked[0].score > ranked[1].score


def test_a_channel_that_did_not_return_a_hit_counts_zero_for_it() -> None:
    text_channels = {"fact": ["fact_fulltext", "other_fulltext"]}
    both = Candidate(kind="fact", uuid="both", text={"fact_fulltext": 4.0, "other_fulltext": 4.0},
                     semantic=[_sim(0.4)])
    one = Candidate(kind="fact", uuid="one", text={"fact_fulltext": 4.0}, semantic=[_sim(0.4)])
    ranked = rank([one, both], RankWeights(), text_channels)
    assert [c.uuid for c in ranked] == ["both", "one"]
    assert ranked[0].features["text"] == 1.0 and ranked[1].features["text"] == 0.5


def test_an_episode_with_several_good_passages_lifts_them() -> None:
    def passage(uuid: str, episode: str, cosine: float) -> Candidate:
        return Candidate(kind="episode", uuid=uuid, semantic=[_sim(cosine), _sim(cosine)], episode=episode)

    alone = passage("alone", "e1", 0.50)
    together = [passage("t1", "e2", 0.48), passage("t2", "e2", 0.47), passage("t3", "e2", 0.47)]
    weak = passage("weak", "e3", 0.10)  # what the channels found at the bottom: the floor for missing passages
    without = rank([alone, *together, weak], RankWeights(episode=0.0), {})
    assert without[0].uuid == "alone"
    lifted = rank([alone, *together, weak], RankWeights(episode=1.0, episode_top=3), {})
    assert [c.uuid for c in lifted[:2]] == ["t1", "t2"]


def test_the_time_the_question_names_ranks_what_was_said_then_higher() -> None:
    def said(uuid: str, when: datetime) -> Candidate:
        return Candidate(kind="episode", uuid=uuid, semantic=[_sim(0.5), _sim(0.5)], episode=uuid, said_at=when)

    january, march = said("jan", datetime(2024, 1, 10, tzinfo=UTC)), said("mar", datetime(2024, 3, 10, tzinfo=UTC))
    assert {c.uuid for c in rank([january, march], RankWeights(), {})} == {"jan", "mar"}
    window = TimeWindow(start=datetime(2024, 3, 1, tzinfo=UTC), end=datetime(2024, 4, 1, tzinfo=UTC))
    ranked = rank([january, march], RankWeights(), {}, window)
    assert [c.uuid for c in ranked] == ["mar", "jan"] and ranked[0].features["time"] == 1.0
    # A passage said within the slack after the window still speaks of it; a fact must fall inside.
    late = said("late", datetime(2024, 4, 5, tzinfo=UTC))
    fact = Candidate(kind="fact", uuid="f", semantic=[_sim(0.5)], said_at=datetime(2024, 4, 5, tzinfo=UTC))
    assert [c.features["time"] for c in rank([late, fact], RankWeights(), {}, window)] == [1.0, 0.0]


def test_without_query_text_or_vectors_the_fusion_order_decides() -> None:
    first = Candidate(kind="fact", uuid="b", fusion=1 / 61)
    second = Candidate(kind="fact", uuid="a", fusion=1 / 62)
    assert [c.uuid for c in rank([second, first], RankWeights(), {})] == ["b", "a"]


def test_ranking_again_with_other_weights_starts_from_the_channel_findings() -> None:
    def found() -> list[Candidate]:
        return [Candidate(kind="fact", uuid="x", text={"fact_fulltext": 2.0}, semantic=[_sim(0.5)]),
                Candidate(kind="episode", uuid="p", semantic=[_sim(0.6), _sim(0.4)], episode="e")]

    once = found()
    rank(once, RankWeights(text=1.0), PASSAGE_TEXT)
    ranked = rank(once, RankWeights(), PASSAGE_TEXT)
    fresh = rank(found(), RankWeights(), PASSAGE_TEXT)
    assert [(c.uuid, c.score, c.features) for c in ranked] == [(c.uuid, c.score, c.features) for c in fresh]


def test_salience_only_moves_what_retention_decayed() -> None:
    fresh = Candidate(kind="fact", uuid="a-fresh", text={"fact_fulltext": 4.0}, semantic=[_sim(0.4)])
    stale = Candidate(kind="fact", uuid="b-stale", text={"fact_fulltext": 4.5}, semantic=[_sim(0.4)], salience=0.25)
    ranked = rank([stale, fresh], RankWeights(), {"fact": ["fact_fulltext"]})
    assert [c.uuid for c in ranked] == ["a-fresh", "b-stale"]  # two half-lives unused outweigh a little text
    assert ranked[1].features["salience"] == -2.0 and ranked[0].features["salience"] == 0.0
    undecayed = Candidate(kind="fact", uuid="b-stale", text={"fact_fulltext": 4.5}, semantic=[_sim(0.4)])
    again = rank([undecayed, Candidate(kind="fact", uuid="a-fresh", text={"fact_fulltext": 4.0},
                                       semantic=[_sim(0.4)])], RankWeights(), {"fact": ["fact_fulltext"]})
    assert [c.uuid for c in again] == ["b-stale", "a-fresh"]  # without decay (salience 1) the text decides
