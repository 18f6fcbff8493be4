"""The cast of a book as the consolidation rules see it: members (persons with their forms and episodes),
the evidence beside them (marriages, quote replies), and the plan the rules return. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import Field

from strata.resolve.names import ParsedName, given_forms, parse_name
from strata.resolve.scoring import POSSIBLE_THRESHOLD, score_pair
from strata.resolve.types import CandidateEntity, MatchScore, MentionCandidate
from strata.schema.models import Frozen

SUGGESTIONS_PER_MEMBER = 3


class CastMember(Frozen):
    """A person of the book (the caller decides who is one) with where the book mentions it."""

    uuid: str
    name: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    episodes: list[int] = Field(default_factory=list)  # seqs of the source's episodes that mention it
    first_position: int = 0  # story position (book offset) of its first episode
    # episodes in which each form was written (from the mentions' surface forms)
    form_episodes: dict[str, int] = Field(default_factory=dict)
    # entities kept apart from it (a rejected suggestion, an undone merge: strata.resolve.apart)
    apart: list[str] = Field(default_factory=list)


class Marriage(Frozen):
    """A non-negated marriage (or engagement) fact between two members, where the story states it."""

    a: str
    b: str
    position: int | None = None
    predicate: str = "spouse_of"  # or "engaged_to": a promise, not yet a change of name
    seq: int | None = None  # the first episode (seq) stating it: compared with the members' episodes


class Described(Frozen):
    """The text ties a description to a named member ("Mr. Bumble, the beadle": a ``described_as`` fact)."""

    named: str
    description: str


class Reply(Frozen):
    """A quote spoken to ``addressed`` answered by the next quote, spoken by ``replier``."""

    addressed: str
    replier: str


class CastMerge(Frozen):
    from_uuid: str
    into_uuid: str
    rule: str
    reason: str
    forms: list[str]  # the names the merge adds to the survivor
    mention_form: str | None = None
    candidate_form: str | None = None
    score: float | None = None


class CastSuggestion(Frozen):
    entity_uuid: str
    candidate_uuid: str
    rule: str
    score: float = 0.0


class ConsolidationPlan(Frozen):
    merges: list[CastMerge] = Field(default_factory=list)
    suggestions: list[CastSuggestion] = Field(default_factory=list)


@dataclass
class Member:
    uuid: str
    forms: list[str]
    episodes: set[int]
    first_position: int
    apart: set[str] = field(default_factory=set)
    # the surface forms its mentions wrote, aliases or not ("Miss Barry" in a window resolved to Josephine)
    written: set[str] = field(default_factory=set)
    parsed: list[ParsedName] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.parsed = [parse_name(_without_pronoun(f)) for f in self.forms]

    @property
    def mentions(self) -> int:
        return len(self.episodes)

    def as_candidate(self) -> CandidateEntity:
        return CandidateEntity(uuid=self.uuid, name=self.forms[0], type="Person", aliases=self.forms[1:],
                               mentions=self.mentions)

    def as_mention(self) -> MentionCandidate:
        return MentionCandidate(name=self.forms[0], type="Person", aliases=self.forms[1:])

    @property
    def genders(self) -> set[str]:
        return {g for p in self.parsed for g in p.genders}

    def surnames(self, titled: bool | None = None) -> set[str]:
        """Surnames of its forms: only titled forms without a given name (True), only full names (False)."""
        return {p.surname for p in self.parsed if p.surname and (
            titled is None or (titled and p.honorifics and not p.given) or (titled is False and p.given))}

    def keys(self) -> set[str]:
        out = set()
        for p in self.parsed:
            if p.surname:
                out.add("s:" + p.surname)
            for g in (*p.given[:1], *([p.bare] if p.bare else [])):
                out |= {"g:" + f for f in given_forms(g)}
            if p.bare:
                out.add("s:" + p.bare)
            if len(p.name_tokens) > 1:  # "the Station-Master" meets "the Stationmaster"
                out.add("s:" + "".join(p.name_tokens))
        return out

    @property
    def bare(self) -> bool:
        """Only one untitled name word ("Bingley", "Charlotte")."""
        return all(p.bare and not p.honorifics for p in self.parsed)


def _without_pronoun(form: str) -> str:
    """A trailing "I" the extractor took into a titled name ("Miss Bingley I", "Mr. Knightley I": the speaker's
    next word) is no part of it; a lone "I" or an initial inside a name ("Mr. E. I. Smith") stays."""
    words = form.split()
    return " ".join(words[:-1]) if len(words) > 2 and words[-1] == "I" and parse_name(form).honorifics else form


class Cast:
    def __init__(self, members: Iterable[CastMember]) -> None:
        self.members = {m.uuid: Member(m.uuid, list(dict.fromkeys([m.name, *m.aliases])), set(m.episodes),
                                        m.first_position, set(m.apart), set(m.form_episodes)) for m in members}
        for m in list(self.members.values()):  # kept apart either way round
            for other in m.apart & self.members.keys():
                self.members[other].apart.add(m.uuid)
        self.merged: dict[str, str] = {}
        self.plan: list[CastMerge] = []
        self.suggestions: dict[tuple[str, str], CastSuggestion] = {}
        self.episodes = len({e for m in self.members.values() for e in m.episodes}) or 1

    def current(self, uuid: str) -> str:
        while uuid in self.merged:
            uuid = self.merged[uuid]
        return uuid

    def blocks(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for m in self.members.values():
            for k in m.keys():
                out.setdefault(k, set()).add(m.uuid)
        return out

    def neighbours(self, m: Member, blocks: dict[str, set[str]]) -> list[Member]:
        near = {u for k in m.keys() for u in blocks.get(k, ())} - {m.uuid}
        return [self.members[u] for u in sorted(near) if u in self.members]

    def by_size(self) -> list[Member]:
        return sorted(self.members.values(), key=lambda m: (m.mentions, m.uuid))

    def merge(self, src: Member, dst: Member, rule: str, reason: str, score: MatchScore | None = None) -> None:
        added = [f for f in src.forms if f not in dst.forms]
        self.plan.append(CastMerge(from_uuid=src.uuid, into_uuid=dst.uuid, rule=rule, reason=reason, forms=added,
                                   mention_form=score.mention_form if score else None,
                                   candidate_form=score.candidate_form if score else None,
                                   score=score.score if score else None))
        # what either was kept apart from, the joined entity is kept apart from
        merged = Member(dst.uuid, dst.forms + added, dst.episodes | src.episodes,
                        min(dst.first_position, src.first_position), dst.apart | src.apart,
                        dst.written | src.written)
        self.members[dst.uuid] = merged
        for m in self.members.values():
            if src.uuid in m.apart:
                m.apart.add(dst.uuid)
        del self.members[src.uuid]
        self.merged[src.uuid] = dst.uuid

    def suggest(self, m: Member, others: Sequence[Member], rule: str) -> None:
        for o in others[:SUGGESTIONS_PER_MEMBER]:
            self.suggestions.setdefault((m.uuid, o.uuid), CastSuggestion(entity_uuid=m.uuid, candidate_uuid=o.uuid,
                                                                          rule=rule))


def kept_apart(a: Member, b: Member) -> bool:
    return b.uuid in a.apart or a.uuid in b.apart


def score(a: Member, b: Member) -> MatchScore:
    """The name score, or a conflict for a pair kept apart: no rule merges or suggests it. Two entities some
    episode writes both of are scored as one scene's names (a nickname needs that evidence)."""
    if kept_apart(a, b):
        return MatchScore(candidate_uuid=b.uuid, score=0.0, reason="conflict", conflict="kept_apart")
    return score_pair(a.as_mention(), b.as_candidate(), scene=shared_scene(a, b))


def smaller_first(a: Member, b: Member) -> tuple[Member, Member]:
    """(the less written, the more written) of two members: a merge keeps the one the book writes more."""
    return (a, b) if (a.mentions, a.uuid) <= (b.mentions, b.uuid) else (b, a)


def shared_scene(a: Member, b: Member) -> bool:
    """Some episode mentions both: evidence that a nickname and a full name may be one person there."""
    return bool(a.episodes & b.episodes)


def contested(m: Member, others: Iterable[Member]) -> bool:
    """A lone name kept apart from one it could mean: the rules leave it to the reviewer rather than hand it
    to the next best match (a lone "Gardiner" rejected for Mr. Gardiner is not therefore Mrs. Gardiner)."""
    return m.bare and any(kept_apart(m, o) and score_pair(m.as_mention(), o.as_candidate()).score
                          >= POSSIBLE_THRESHOLD for o in others)


def settled(cast: Cast, a: Member, b: Member, blocks: dict[str, set[str]]) -> bool:
    """Neither of a pair the rules would join is a contested lone name."""
    return not any(contested(x, cast.neighbours(x, blocks)) for x in (a, b))


def other_surnames(m: Member, o: Member) -> bool:
    """Each has a surname and they share none ("Colonel Fitzwilliam" / "Mr. Fitzwilliam Darcy"): two people,
    whatever a lone form of one matches (married names have their own rule)."""
    a, b = m.surnames(), o.surnames()
    return bool(a and b and not a & b)


def viable(m: Member, others: Iterable[Member]) -> list[tuple[Member, MatchScore]]:
    scored = [(o, score(m, o)) for o in others if not other_surnames(m, o)]
    return sorted([(o, s) for o, s in scored if s.conflict is None and s.score >= POSSIBLE_THRESHOLD],
                  key=lambda x: (-x[1].score, -x[0].mentions, x[0].uuid))
