"""Offices as role-qualified slots: "CEO of Walmart" is the slot (Walmart, ceo) of ``holds_office``. Pure.

The roles are data (``roles`` in schema/ontology.json): a canonical key, a label and the words that name it
("chief executive", "CEO"; "king", "queen", "emperor" are one monarch). Every way a statement can name an
office lands on the same slot:
- a role predicate: ``ceo_of``, ``is the chairman of``, ``leader_of`` -> ``holds_office`` with the role;
- an office as object: ``holds_office`` "CEO of Walmart", "Walmart CEO", "the Prime Minister of Italy" ->
  object Walmart / Italy with the role;
- an explicit role from an extractor or a statement (``role``), folded the same way.
A role the lexicon does not know keeps its own folded words as key, so "chief gardener of Kew" still has a slot.
Roles declared ``concurrent`` (board member, minister) have several holders at once: their slot is per holder.
"""

from __future__ import annotations

import re
import unicodedata

from strata.resolve.ontology import Ontology, load_ontology
from strata.resolve.predicates import parse_predicate
from strata.schema.models import ExtractedEntity, ExtractedFact, Extraction

OFFICE_PREDICATE = "holds_office"
# Words around a role that say when or how, not which role: "the new CEO", "its interim president".
_ROLE_NOISE = frozenset({"the", "a", "an", "new", "former", "outgoing", "incoming", "interim", "acting", "current",
                         "then", "next", "previous", "its", "their", "his", "her", "our", "longtime",
                         "long-time", "elected", "newly", "sitting", "founding", "first", "sole"})
# Prepositions joining a role to its organization: "CEO of Walmart", "coach at Ajax", "manager for Chelsea".
_ROLE_PREPS = ("of", "at", "for")
_OFFICE = re.compile(r"^(?P<role>.+?)\s+(?:of|at|for)\s+(?P<org>.+)$", re.IGNORECASE)
_ROLE_PREDICATE = re.compile(r"^(?:be_)?(?P<role>[a-z0-9_]+?)_(?:of|at|for)$")
_SEPARATOR = re.compile(r"[\s_\-]+")
_KEY = re.compile(r"[^a-z0-9]+")


def fold_words(text: str) -> str:
    """Lowercase words without accents, hyphens or underscores: "Secretary-General" -> "secretary general"."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return " ".join(_SEPARATOR.split(plain.strip(" .,;:'\"")))


class Roles:
    """The role lexicon of an ontology: words -> canonical role key, label, concurrency."""

    def __init__(self, ontology: Ontology) -> None:
        self._by_words: dict[str, str] = {}
        self.labels: dict[str, str] = {}
        self.concurrent: frozenset[str] = frozenset(k for k, r in ontology.roles.items() if r.concurrent)
        # positions that state a relation of their own, not an office: "striker" -> plays_for
        self.relation: dict[str, str] = {k: r.predicate for k, r in ontology.roles.items()
                                         if r.predicate != OFFICE_PREDICATE}
        for key, role in ontology.roles.items():
            self.labels[key] = role.label
            for words in (key, role.label, *role.synonyms):
                self._by_words.setdefault(fold_words(words), key)
        self.longest = max((len(w.split()) for w in self._by_words), default=1)
        # the words a role's wording can start with ("secretary", "ceo"): a cheap test before any phrase is read
        self.first_words = frozenset(w.split()[0] for w in self._by_words)
        self._predicates = {name: key for key, role in ontology.roles.items() for name in role.predicates}

    def office(self, key: str | None) -> bool:
        """Whether a role is an office (a slot of its own), not a position stated as another relation."""
        return key is not None and key not in self.relation

    def known(self, words: str) -> str | None:
        """The canonical key of a role named exactly by these words (noise words dropped), else None."""
        folded = [w for w in fold_words(words).split() if w not in _ROLE_NOISE]
        return self._by_words.get(" ".join(folded)) if folded else None

    def key(self, words: str) -> str | None:
        """The role key for any role words: the lexicon's, else the folded words themselves ("chief gardener")."""
        known = self.known(words)
        if known:
            return known
        folded = [w for w in fold_words(words).split() if w not in _ROLE_NOISE]
        key = _KEY.sub("_", " ".join(folded)).strip("_")
        return key[:64] or None

    def named_in(self, text: str) -> set[str]:
        """The roles a text names, longest wording first ("vice president" is no president)."""
        words, found, i = fold_words(text).split(), set(), 0
        while i < len(words):
            for n in range(min(self.longest, len(words) - i), 0, -1):
                if (key := self._by_words.get(" ".join(words[i:i + n]))) is not None:
                    found.add(key)
                    i += n
                    break
            else:
                i += 1
        return found

    def label(self, key: str | None) -> str:
        return self.labels.get(key or "", (key or "").replace("_", " "))

    def is_concurrent(self, key: str | None) -> bool:
        return key in self.concurrent

    def of_predicate(self, name: str) -> str | None:
        """The role a predicate name stands for: "ceo_of", "chairman_of", "be_president_of", "leader_of"."""
        if name in self._predicates and self._predicates[name]:
            return self._predicates[name]
        match = _ROLE_PREDICATE.match(name)
        role = self.known(match.group("role").replace("_", " ")) if match else None
        return role if self.office(role) else None

    def split_office(self, name: str) -> tuple[str, str] | None:
        """(role key, organization) of an office written as a name: "CEO of Walmart", "Walmart CEO",
        "the Prime Minister of Italy". None when the name is no office of a known role."""
        text = " ".join(name.split())
        match = _OFFICE.match(text)
        if match and (role := self.known(match.group("role"))) and self.office(role):
            org = _strip_article(match.group("org"))
            return (role, org) if org else None
        words = text.split()
        for n in range(min(self.longest, len(words) - 1), 0, -1):  # "Walmart CEO", "Acme Corp chief executive"
            if (role := self.known(" ".join(words[-n:]))) and self.office(role):
                org = _strip_article(" ".join(words[:-n]).removesuffix("'s").removesuffix("’s"))
                return (role, org) if org and org[:1].isupper() else None
        return None


def _strip_article(text: str) -> str:
    words = text.split()
    while words and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words).strip(" .,;:")


_LEXICONS: dict[int, tuple[Ontology, Roles]] = {}


def roles(ontology: Ontology | None = None) -> Roles:
    """The role lexicon of an ontology (the packaged one by default), built once per ontology object."""
    onto = ontology or load_ontology()
    cached = _LEXICONS.get(id(onto))
    if cached is None or cached[0] is not onto:
        cached = _LEXICONS[id(onto)] = (onto, Roles(onto))
    return cached[1]


def slot_role(role: str | None, subject_uuid: str, ontology: Ontology | None = None) -> str:
    """The part of an office's slot the role adds: the role, and for a concurrent role the holder too (each
    board member has their own seat, so one appointment never ends another's)."""
    if not role:
        return ""
    return f"{role}#{subject_uuid}" if roles(ontology).is_concurrent(role) else role


def qualify_roles(extraction: Extraction, ontology: Ontology | None = None) -> Extraction:
    """Every office statement of an extraction on its (organization, role) slot: role predicates become
    ``holds_office`` with the role, an office named as object becomes its organization, explicit roles fold.
    An office entity no fact needs any more gives way to its organization (same spans). Idempotent."""
    onto = ontology or load_ontology()
    lexicon = roles(onto)
    facts: list[ExtractedFact] = []
    offices: dict[str, str] = {}  # office name -> organization name
    changed = False
    for f in extraction.facts:
        fixed = _qualified(f, lexicon, onto)
        if fixed is not f:
            changed = True
            if fixed.object != f.object:
                offices[f.object] = fixed.object
        facts.append(fixed)
    if not changed:
        return extraction
    still_used = {n for f in facts for n in (f.subject, f.object)}
    entities: list[ExtractedEntity] = []
    present = {e.name for e in extraction.entities}
    for e in extraction.entities:
        org = offices.get(e.name)
        if org is not None and e.name not in still_used:
            if org not in present:
                entities.append(ExtractedEntity(name=org, type=_org_type(e.type), spans=e.spans))
                present.add(org)
            continue
        entities.append(e)
    return extraction.model_copy(update={"facts": facts, "entities": entities})


def _org_type(office_type: str) -> str:
    return "Organization" if office_type in ("Office", "Concept", "Entity", "Role", "Position", "") else office_type


def _qualified(f: ExtractedFact, lexicon: Roles, onto: Ontology) -> ExtractedFact:
    name, _ = parse_predicate(f.predicate, onto)
    role = lexicon.key(f.role) if f.role else None
    predicate_role = lexicon.of_predicate(name)
    if predicate_role is None and onto.canonical_predicate(name) != OFFICE_PREDICATE and role is None:
        return f
    role = role or predicate_role
    update: dict[str, object] = {"predicate": OFFICE_PREDICATE}
    split = lexicon.split_office(f.object)
    if split is not None and (role is None or role == split[0]):
        role, org = split
        update.update(object=org, object_type=_org_type(f.object_type or ""))
    if role is None:
        return f if f.predicate == OFFICE_PREDICATE or name == OFFICE_PREDICATE else f.model_copy(update=update)
    update["role"] = role
    if not f.fact:
        update["fact"] = f"{f.subject} is {lexicon.label(role)} of {update.get('object', f.object)}"
    return f.model_copy(update=update)
