"""Rank the entities a typed name may mean (``GET /groups/{g}/entities?name=``). Pure.

The graph channels (exact key, full text, name vectors) find candidates; their scores say how alike two
strings or vectors are, not whether the name can mean the entity: full text ranks "Mr. Collins" first for
"Mrs. Collins", vectors rank "Miss Bingley" near "Mr. Bingley". So candidates are ordered by the resolution
score of the name against each entity's name and aliases (conflicts last), then by prominence (episodes
mentioning it: "Lizzy" is the Elizabeth the book talks about, not a stray one-episode "Lizzy"), then by the
channel's own score. Names the rules cannot relate keep their channel order below every rule match.
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.resolve.decide import surname_match
from strata.resolve.lexicon import PASSING_MODIFIERS
from strata.resolve.names import NameRelation, parse_name
from strata.resolve.normalize import LEADING_ARTICLES, match_form
from strata.resolve.ontology import Ontology
from strata.resolve.scoring import MERGE_THRESHOLD, POSSIBLE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MatchScore, MentionCandidate

# Scores within this step count as equal, so prominence decides between two exact matches (1.0 and 0.99).
SCORE_STEP = 0.05
# A candidate no name rule relates to the name is listed only when its channel found it this close (a vector
# index score of 0.8 is a cosine of 0.6): "The Waiter" is nobody in a book that never names one, not the
# nearest officer.
UNRELATED_FLOOR = 0.8
# A misspelt name ("Miss Lucillia Harris" for "Miss Lucilla Harris") is one letter off in a word at least this
# long: shorter words one letter apart are other names ("Hall" / "Hill", "Mann" / "Mary").
MISSPELT_MIN_LENGTH = 6
_NICKNAMES = frozenset({NameRelation.DIMINUTIVE.value, NameRelation.PARTIAL_DIMINUTIVE.value})


def name_scores(name: str, candidates: Sequence[CandidateEntity],
                ontology: Ontology | None = None) -> list[MatchScore]:
    """Resolution score of ``name`` against each candidate (0 with ``conflict`` set: "Mrs. X" against "Mr. X")."""
    mention = MentionCandidate(name=name)
    return [score_pair(mention, c.model_copy(update={"embedding": None, "cosine": None}), ontology)
            for c in candidates]


def rank_by_name(name: str, candidates: Sequence[CandidateEntity], channel_scores: Sequence[float],
                 ontology: Ontology | None = None) -> list[tuple[int, float]]:
    """Indices into ``candidates`` best first, each with its name score (0 when no rule relates them). A
    candidate the name rules out ("Mrs. Collins" for "Mr. Collins", "Mr. Darcy" for "the late Mr. Darcy") is
    left out: the name cannot mean it, however alike the strings; for a titled name, so is one no rule
    relates to it, and for any name one no rule relates to that its channel found only faintly."""
    matches = name_scores(name, candidates, ontology)
    # title + surname against another full name ("Mr. Gillis" / "Ruby Gillis") relates them only as decide's
    # surname rule does: a full name of the same known gender ("Mr. Bingley" / "Charles Bingley"); otherwise it
    # is a relative as likely as the person, and no answer beats a wrong one
    # and a nickname the diminutive table alone relates ("Bill" / "William Smith") is no answer either: the
    # entity that was called so holds the nickname as an alias, which is an exact match
    described = _description(name)
    scores = [0.0 if (m.reason == NameRelation.SURNAME_ONLY.value and not surname_match(m))
              or (m.reason in _NICKNAMES and m.score < MERGE_THRESHOLD)
              or (described and _narrower(m)) else m.score for m in matches]

    def order(i: int) -> tuple[int, int, int, float]:
        s = scores[i]
        related = s >= POSSIBLE_THRESHOLD
        return (-int(related), -int(s / SCORE_STEP) if related else 0,
                -candidates[i].mentions if related else 0, -channel_scores[i])

    titled = _titled(name) or described
    return [(i, scores[i]) for i in sorted(range(len(candidates)), key=order)
            if matches[i].conflict is None and (scores[i] >= POSSIBLE_THRESHOLD
                                                or (not titled and channel_scores[i] >= UNRELATED_FLOOR))]


def _titled(name: str) -> bool:
    """A person named with a title or a qualifier ("Mrs. Forster", "the late Mr. Darcy"), a role ("the King of
    Hearts") or a relation ("her sister"): only entities the name rules relate to it can be meant, never
    whatever the full text or the vectors found nearest."""
    parsed = parse_name(name)
    if parsed.qualifiers or parsed.role:
        return True
    return bool(parsed.honorifics) and bool(parsed.name_tokens)


def _description(name: str) -> bool:
    """A character named by a description ("the Mail Guard", "a Stout Man"): an article before its words."""
    words = name.split()
    return len(words) > 1 and words[0].lower() in LEADING_ARTICLES and bool(parse_name(name).name_tokens)


def _narrower(m: MatchScore) -> bool:
    """The description asked for says more than the entity's name ("the Mail Guard" / "the Guard", "the
    Magistrate with Spectacles" / "the Magistrate"): the entity may be another of that kind, as a full name may
    be another of a family's bare surname. The other way round ("the Rabbit" / "the White Rabbit") is a part."""
    if m.reason != NameRelation.PARTIAL.value or not m.mention_form or not m.candidate_form:
        return False
    asked, held = parse_name(m.mention_form), parse_name(m.candidate_form)
    return len(asked.name_tokens) > len(held.name_tokens) or (bool(asked.designation) and not held.designation)



def related(ranked: Sequence[tuple[int, float]]) -> bool:
    """Some candidate the name rules relate to the name (not only one a channel found near)."""
    return any(s >= POSSIBLE_THRESHOLD for _, s in ranked)


def looser_forms(name: str) -> list[str]:
    """The name without the passing modifiers written before it ("Little Mary Joe" -> "Mary Joe", "a Little
    Lucas" -> "Lucas"), for a lookup the name itself answers with nobody; [] when it has none."""
    words = name.split()
    while len(words) > 1 and words[0].lower() in LEADING_ARTICLES:
        words = words[1:]
    cut = 0
    while cut < len(words) - 1 and words[cut].lower() in PASSING_MODIFIERS:
        cut += 1
    return [" ".join(words[cut:])] if cut else []


def looser_pick(form: str, candidates: Sequence[CandidateEntity], ranked: Sequence[tuple[int, float]],
                ontology: Ontology | None = None) -> bool:
    """Whether the looser form's answer stands for the name: its top candidate holds that very form, and a bare
    word ("Lucas" for "Young Lucas", one of a family) is held by no other candidate: "old Miss Barry" is the Miss
    Barry, "young Lucas" is some Lucas, not the one a lookup of "Lucas" ranks first."""
    if not ranked:
        return False
    matches = name_scores(form, [candidates[i] for i, _ in ranked], ontology)
    if not matches[0].exact:
        return False
    parsed = parse_name(form)
    if parsed.honorifics or len(parsed.name_tokens) > 1:
        return True
    return sum(1 for m, (_, s) in zip(matches, ranked, strict=True) if s >= POSSIBLE_THRESHOLD) == 1


def one_letter_off(name: str, candidates: Sequence[CandidateEntity]) -> int | None:
    """The index of the one candidate a form of which is the name with one word misspelt by one letter ("Miss
    Lucillia Harris" / "Miss Lucilla Harris", "Mrs. Forester" / "Mrs. Forster"), the other words as written;
    None when no candidate is, or several are (then the spelling does not say which)."""
    asked = match_form(name).split()
    found = {i for i, c in enumerate(candidates)
             if any(_misspelt(asked, match_form(f).split()) for f in (c.name, *c.aliases))}
    uuids = {candidates[i].uuid for i in found}
    return min(found) if len(uuids) == 1 else None


def _misspelt(a: list[str], b: list[str]) -> bool:
    if len(a) != len(b) or a == b:
        return False
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(diff) == 1 and min(len(diff[0][0]), len(diff[0][1])) >= MISSPELT_MIN_LENGTH - 1 and max(
        len(diff[0][0]), len(diff[0][1])) >= MISSPELT_MIN_LENGTH and _one_edit(*diff[0])


def _one_edit(a: str, b: str) -> bool:
    """One letter inserted, dropped or replaced."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + 1:] == b[i + 1:] if len(a) == len(b) else a[i:] == b[i + 1:]
