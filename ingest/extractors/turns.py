"""Who speaks each turn of an exchange: an exact best-path search over the people present.

A run of quotes paragraph after paragraph is a conversation. Each turn brings evidence about its own speaker
(a speech tag, the narration next to it, a name it addresses), and conversation has a shape: a new paragraph
is a new speaker, two people take turns, the person just addressed answers, and "she went on" is the same
speaker again. An assignment of speakers to turns scores the evidence of every turn plus the shape between
neighbouring turns; the best assignment is found exactly by dynamic programming over (previous speaker,
speaker) pairs, so a tag late in the run fixes the untagged turns before it as well as after it.

Pure logic over names; the caller gathers the evidence (quotes.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from strata.resolve.lexicon import Gender

# Weights, in one unit: a named speech tag outweighs any shape of the conversation; shapes outweigh the
# faint preference for whoever was active last.
GENDER_MISMATCH = 8.0  # "said she" for a man
GENDER_UNKNOWN = 1.0  # "said she" for someone whose gender the text never told
SELF_ADDRESS = 6.0  # nobody addresses themself by name
NEW_PARAGRAPH = 3.0  # a quote in the next paragraph is another speaker's...
NEW_PARAGRAPH_AFTER_NARRATION = 1.0  # ...less surely when narration came between
CONTINUES = 4.0  # "he went on", "she added": the previous speaker again
ANSWER = 3.0  # the person the previous quote addressed answers it
ADDRESSED_NEXT = 1.0  # the person the next quote addresses most likely spoke just before
ALTERNATE = 2.0  # two people take turns: the speaker two turns back speaks again
ENTER_UNTAGGED = 2.0  # a third person does not break into two people's exchange without a tag or narration
ADDRESS_GENDER = 1.5  # "Yes, sir": the one it answers and the one who answers it are men, when known
SAME_SPEECH = 12.0  # a quote left open at a paragraph's end goes on in the next: the printed convention, surer
# than a named tag


@dataclass
class Turn:
    """What one quote tells about its speaker; ``votes`` are evidence for (or against) named people."""

    votes: dict[str, float] = field(default_factory=dict)
    gender: Gender | None = None  # a pronoun ("said she") or a gendered noun ("cried the lady") in its tag
    gender_weight: float = GENDER_MISMATCH
    addressed: frozenset[str] = frozenset()  # people the quote speaks to (a vocative, "to him")
    called: str | None = None  # the one it speaks to last, who most likely answers
    continues: bool = False  # the tag says the previous speaker goes on
    adjacent: bool = True  # no narration paragraph between this turn and the one before
    same_speech: bool = False  # it carries on the previous turn's speech, whose quote was left open
    called_gender: Gender | None = None  # the gender its forms of address ("sir", "madam") tell for its hearer
    bare: bool = False  # no tag, no narration next to it: only the shape of the exchange tells its speaker


def _unary(turns: Sequence[Turn], i: int, person: str, genders: Mapping[str, Gender | None],
           prior: Mapping[str, float]) -> float:
    turn = turns[i]
    score = turn.votes.get(person, 0.0) + prior.get(person, 0.0)
    if turn.gender is not None:
        known = genders.get(person)
        if known is None:
            score -= min(GENDER_UNKNOWN, turn.gender_weight)
        elif known != turn.gender:
            score -= turn.gender_weight
    if person in turn.addressed:
        score -= SELF_ADDRESS
    if i + 1 < len(turns) and person == turns[i + 1].called:
        score += ADDRESSED_NEXT
    return score


def _step(turn: Turn, before: Turn, previous: str, person: str, genders: Mapping[str, Gender | None]) -> float:
    score = 0.0
    if person == previous and turn.same_speech:
        return SAME_SPEECH
    if person == previous:
        if turn.continues:
            score += CONTINUES
        else:
            score -= NEW_PARAGRAPH if turn.adjacent else NEW_PARAGRAPH_AFTER_NARRATION
    if person == (before.called or (next(iter(before.addressed)) if len(before.addressed) == 1 else None)):
        score += ANSWER
    return score - _address_mismatch(turn, before, previous, person, genders)


def _address_mismatch(turn: Turn, before: Turn, previous: str, person: str,
                      genders: Mapping[str, Gender | None]) -> float:
    """A "sir" is said to a man: the turn before it was most likely his, and so is the answer after it."""
    penalty = 0.0
    if turn.called_gender and genders.get(previous) not in (None, turn.called_gender) and person != previous:
        penalty += ADDRESS_GENDER
    if before.called_gender and genders.get(person) not in (None, before.called_gender) and person != previous:
        penalty += ADDRESS_GENDER
    return penalty


def decode(turns: Sequence[Turn], people: Sequence[str], genders: Mapping[str, Gender | None],
           prior: Mapping[str, float] | None = None) -> list[str | None]:
    """The best speaker of every turn among ``people`` (in order of preference on ties); None without people."""
    if not turns or not people:
        return [None] * len(turns)
    prior = prior or {}
    unary = [{p: _unary(turns, i, p, genders, prior) for p in people} for i in range(len(turns))]
    # best[(previous, speaker)] = (score, back pointer to the pair before)
    best: dict[tuple[str | None, str], tuple[float, tuple[str | None, str] | None]] = {
        (None, p): (unary[0][p], None) for p in people}
    history = [best]
    for i in range(1, len(turns)):
        turn, before = turns[i], turns[i - 1]
        step: dict[tuple[str | None, str], tuple[float, tuple[str | None, str] | None]] = {}
        for (earlier, previous), (score, _) in best.items():
            assert previous is not None
            for person in people:
                total = score + unary[i][person] + _step(turn, before, previous, person, genders)
                if earlier is not None and person == earlier and person != previous:
                    total += ALTERNATE
                elif turn.bare and earlier is not None and person not in (earlier, previous) and (
                        person != before.called):
                    total -= ENTER_UNTAGGED
                pair = (previous, person)
                if pair not in step or total > step[pair][0]:
                    step[pair] = (total, (earlier, previous))
        best = step
        history.append(best)
    key: tuple[str | None, str] | None = max(best, key=lambda k: best[k][0])
    out: list[str | None] = []
    for i in range(len(turns) - 1, -1, -1):
        assert key is not None
        out.append(key[1])
        key = history[i][key][1]
    return out[::-1]
