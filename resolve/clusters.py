"""Within-episode collapse: mentions of one entity become one MentionGroup before graph resolution.

Pass 1 joins mentions sharing a folded name or alias. Pass 2 scores each cluster against the clusters
sharing a name token (blocking) and joins two clusters when each matches the other at merge level and
neither is ambiguous (its matches at least as specific as itself do not all match each other). So "Lizzy"
joins "Elizabeth Bennet" and "Darcy" joins a lone "Fitzwilliam Darcy", while "Bennet" next to "Mr. Bennet"
and "Mrs. Bennet", or "Darcy" next to "Mr. Darcy" and "Fitzwilliam Darcy" (a title + surname form may be a
relative), stays on its own. Unions go through union-find, best score first, and are refused when the two
clusters conflict as wholes, so chains {a,b},{c,d},{b,c} form one cluster but never join Mr and Mrs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from strata.resolve.lexicon import ADDRESS_PREFIXES
from strata.resolve.names import given_forms, parse_name
from strata.resolve.normalize import fold_name
from strata.resolve.ontology import Ontology
from strata.resolve.scoring import MERGE_THRESHOLD, score_pair, type_class
from strata.resolve.types import CandidateEntity, MentionCandidate, MentionGroup
from strata.schema.models import ExtractedEntity

_ADDRESS_WORDS = frozenset(w for prefix in ADDRESS_PREFIXES for w in prefix)


class UnionFind:
    """Disjoint sets over 0..n-1; the smallest index is the root, so results are order-stable."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            ra, rb = min(ra, rb), max(ra, rb)
            self.parent[rb] = ra
        return ra

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = defaultdict(list)
        for i in range(len(self.parent)):
            out[self.find(i)].append(i)
        return sorted(out.values(), key=lambda g: g[0])


def _forms(e: ExtractedEntity) -> list[str]:
    return [e.name, *e.aliases]


def _as_mention(members: Sequence[ExtractedEntity]) -> MentionCandidate:
    forms = [f for e in members for f in _forms(e)]
    return MentionCandidate(name=forms[0], type=_pick_type(members), aliases=forms[1:])


def _pick_type(members: Sequence[ExtractedEntity]) -> str:
    typed = [e.type for e in members if type_class(e.type) is not None]
    if not typed:
        return members[0].type
    counts = Counter(typed)
    return max(typed, key=lambda t: (counts[t], -typed.index(t)))


MAX_BLOCK = 40


def _score(a: Sequence[ExtractedEntity], b: Sequence[ExtractedEntity], onto: Ontology | None) -> float:
    c = _as_mention(b)
    cand = CandidateEntity(uuid="_", name=c.name, type=c.type, aliases=c.aliases)
    return score_pair(_as_mention(a), cand, onto, scene=True).score


def _compatible(a: Sequence[ExtractedEntity], b: Sequence[ExtractedEntity], onto: Ontology | None) -> bool:
    c = _as_mention(b)
    cand = CandidateEntity(uuid="_", name=c.name, type=c.type, aliases=c.aliases)
    return score_pair(_as_mention(a), cand, onto).conflict is None


def _block_tokens(e: ExtractedEntity) -> set[str]:
    tokens: set[str] = set()
    for form in _forms(e):
        for token in parse_name(form).name_tokens:
            tokens |= given_forms(token)
    return tokens


def canonical_name(forms: Sequence[str]) -> str:
    """Longest full name without honorific ("Elizabeth Bennet"); with it if only one name token is known
    ("Mr. Bennet" beats "Bennet"). Ties: fewer address words, longer, then first seen."""

    def rank(item: tuple[int, str]) -> tuple[int, int, int, int, int]:
        index, form = item
        parsed = parse_name(form)
        n = len(parsed.name_tokens)
        honorific_penalty = int(bool(parsed.honorifics) if n >= 2 else not parsed.honorifics)
        address = sum(1 for t in fold_name(form).split() if t in _ADDRESS_WORDS)
        return (-n, address, honorific_penalty, -len(fold_name(form)), index)

    return min(enumerate(forms), key=rank)[1]


def collapse_mentions(
    entities: Sequence[ExtractedEntity], ontology: Ontology | None = None, fuzzy: bool = True
) -> list[MentionGroup]:
    """Group an episode's mentions of one entity: identical folded names always, name-compatible forms
    ("Lizzy" / "Elizabeth Bennet") when ``fuzzy`` (off for structured statements, whose names are exact)."""
    uf = UnionFind(len(entities))
    # pass 1: identical folded names/aliases
    by_form: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(entities):
        for form in {fold_name(f) for f in _forms(e)}:
            by_form[form].append(i)
    for members in by_form.values():
        for j in members[1:]:
            _try_union(uf, entities, members[0], j, ontology)
    if not fuzzy:
        return [_group(entities, members) for members in uf.groups()]
    # pass 2: resolve each cluster against the clusters sharing a name token
    clusters = uf.groups()
    block: dict[str, set[int]] = defaultdict(set)
    for ci, cluster in enumerate(clusters):
        for i in cluster:
            for token in _block_tokens(entities[i]):
                block[token].add(ci)
    # matches[ci]: clusters ci matches at merge level; ambiguous: clusters whose matches disagree
    found: list[dict[int, float]] = []
    specificity = [max(len(parse_name(f).name_tokens) for i in c for f in _forms(entities[i])) for c in clusters]
    ambiguous: set[int] = set()
    # A token shared by very many clusters ("agent", "city") tells nothing: blocking on it would compare
    # every pair, so it is left out of the blocks.
    block = {t: members for t, members in block.items() if len(members) <= MAX_BLOCK}
    for ci, cluster in enumerate(clusters):
        neighbours = sorted({cj for i in cluster for t in _block_tokens(entities[i]) for cj in block.get(t, ())}
                            - {ci})
        mention = [entities[i] for i in cluster]
        matches = {cj: sc for cj in neighbours
                   if (sc := _score(mention, [entities[i] for i in clusters[cj]], ontology)) >= MERGE_THRESHOLD}
        # Unlike graph resolution, rivals here may be one entity ("Lizzy" with "Elizabeth" and "Eliza
        # Bennet"): accept them all when they also match each other at merge level, else it is ambiguous.
        # Less specific targets ("Bennet" for "Elizabeth Bennet") answer for their own ambiguity.
        targets = sorted(cj for cj in matches if specificity[cj] >= specificity[ci])
        clean = all(
            _score([entities[i] for i in clusters[x]], [entities[i] for i in clusters[y]], ontology)
            >= MERGE_THRESHOLD
            for k, x in enumerate(targets) for y in targets[k + 1:]
        )
        found.append(matches)
        if not clean:
            ambiguous.add(ci)
    # an edge needs both ends unambiguous: "Bingley" between "Miss Bingley" and "Caroline Bingley" joins
    # neither, and does not stop "Elizabeth Bennet" from joining "Lizzy"
    edges = [(score, ci, cj) for ci, matches in enumerate(found) for cj, score in matches.items()
             if ci < cj and ci not in ambiguous and cj not in ambiguous and ci in found[cj]]
    for _, ci, cj in sorted(set(edges), key=lambda e: (-e[0], e[1], e[2])):
        _try_union(uf, entities, clusters[ci][0], clusters[cj][0], ontology)
    return [_group(entities, members) for members in uf.groups()]


def _try_union(uf: UnionFind, entities: Sequence[ExtractedEntity], a: int, b: int, onto: Ontology | None) -> None:
    ra, rb = uf.find(a), uf.find(b)
    if ra == rb:
        return
    ga = [entities[i] for i in range(len(entities)) if uf.find(i) == ra]
    gb = [entities[i] for i in range(len(entities)) if uf.find(i) == rb]
    if _compatible(ga, gb, onto):
        uf.union(ra, rb)


def _group(entities: Sequence[ExtractedEntity], members: list[int]) -> MentionGroup:
    ents = [entities[i] for i in members]
    forms: dict[str, str] = {}
    for e in ents:
        for f in _forms(e):
            forms.setdefault(fold_name(f), f.strip())
    surface = list(forms.values())
    name = canonical_name(surface)
    spans = sorted({s for e in ents for s in e.spans}, key=lambda s: (s.start, s.end))
    return MentionGroup(
        name=name,
        type=_pick_type(ents),
        aliases=[f for f in surface if f != name],
        members=members,
        description=max((e.description for e in ents), key=len, default=""),
        spans=spans,
    )
