"""Predicate names: normalization to snake_case with rule-based tense folding, and folding onto known ones.

Rules (no lemmatizer): articles dropped; a leading auxiliary is dropped; after "be" a stative participle is
kept ("is married to" -> "married_to", "was born in" -> "born_in"), otherwise the first word, the verb, is
folded to its base form ("married" -> "marry", "lives in" -> "live_in", "has visited" -> "visit").
Negation words are removed and reported by ``parse_predicate`` so the caller can set ``negated``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence

from rapidfuzz import fuzz

from strata.resolve.ontology import Ontology, load_ontology
from strata.resolve.scoring import cosine
from strata.schema.errors import InputError
from strata.schema.plan import Predicate

MAX_PREDICATE_TOKENS = 6  # longer "predicates" are sentences the extractor failed to condense
MAX_PREDICATE_LENGTH = 64
PREDICATE_FUZZY_THRESHOLD = 92.0  # rapidfuzz ratio: "live_in"/"lives_in" fold, "father_of"/"mother_of" don't
PREDICATE_EMBEDDING_THRESHOLD = 0.9  # cosine of predicate-name embeddings
_OPPOSITE_PREFIXES = ("dis", "un", "non", "ex", "in", "anti", "former")

_ARTICLES = frozenset({"a", "an", "the"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "am"})
_AUX = _BE | frozenset({"has", "have", "had", "does", "do", "did", "will", "shall", "would", "can", "could",
                        "may", "might", "must", "should"})
_NEGATIONS = frozenset({"not", "no", "never", "longer", "nt", "dont", "doesnt", "didnt", "isnt", "wasnt",
                        "arent", "werent"})
# Participles that describe a state after "be" or before a preposition ("married to" stays a relation).
_STATIVE = frozenset({"married", "engaged", "related", "born", "based", "located", "employed", "known",
                      "called", "named", "situated", "descended", "affiliated", "connected", "divorced",
                      "acquainted", "interested", "opposed", "devoted", "attached", "indebted", "betrothed"})
_IRREGULAR = {
    "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "am": "be", "has": "have", "had": "have",
    "does": "do", "did": "do", "done": "do", "went": "go", "gone": "go", "goes": "go", "made": "make",
    "took": "take", "taken": "take", "gave": "give", "given": "give", "saw": "see", "seen": "see",
    "knew": "know", "met": "meet", "left": "leave", "led": "lead", "told": "tell", "said": "say",
    "became": "become", "began": "begin", "begun": "begin", "wrote": "write", "written": "write",
    "bought": "buy", "sold": "sell", "found": "find", "thought": "think", "brought": "bring",
    "held": "hold", "won": "win", "lost": "lose", "ran": "run", "came": "come", "got": "get",
    "gotten": "get", "fought": "fight", "taught": "teach", "built": "build", "sent": "send", "spent": "spend",
    "kept": "keep", "felt": "feel", "fell": "fall", "heard": "hear", "paid": "pay", "wed": "wed",
    "created": "create", "founded": "found", "dies": "die", "died": "die", "lies": "lie", "lied": "lie",
    "ties": "tie", "tied": "tie", "being": "be", "having": "have", "lying": "lie", "dying": "die",
}
_KEEP_E_ENDINGS = ("v", "c", "z", "us", "is", "os", "as", "ir", "ur", "dg", "ag", "ang", "eng", "ib")
_NO_E_WORDS = frozenset({"visit", "limit", "edit", "exhibit", "credit", "benefit", "inherit", "profit",
                         "audit", "deposit", "inhabit", "prohibit", "focus"})
_EED_WORDS = frozenset({"need", "feed", "bleed", "breed", "speed", "proceed", "succeed", "exceed", "seed",
                        "heed", "deed", "greed", "weed", "indeed"})
_VOWELS = frozenset("aeiou")
_WORD = re.compile(r"[a-z0-9]+")


def _add_e(stem: str) -> str:
    """Restore a silent e dropped before -ed/-ing ("liv" -> "live", "creat" stays via the irregular table)."""
    if stem in _NO_E_WORDS or len(stem) < 2:
        return stem
    if stem.endswith(_KEEP_E_ENDINGS):
        return stem + "e"
    c1, c2, c3 = (stem[-3] if len(stem) > 2 else "a"), stem[-2], stem[-1]
    # consonant + single vowel + t/d/k/m/n(after i): hate, decide, like, name, combine
    if c3 in "tdkm" and c2 in _VOWELS and c1 not in _VOWELS:
        return stem + "e"
    if c3 == "n" and c2 == "i" and c1 not in _VOWELS:
        return stem + "e"
    if c3 == "l" and c2 in "bcdfgkptz":  # settle, handle, trouble
        return stem + "e"
    return stem


def _undouble(stem: str) -> str:
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsfz" + "aeiou":
        return stem[:-1]  # planned -> plan, admitted -> admit
    if len(stem) >= 6 and stem.endswith("ll") and stem[-3] in "eo":
        return stem[:-1]  # travelled -> travel, controlled -> control
    return stem


def verb_base(word: str) -> str:
    """Base form of an English verb by suffix rules; unknown shapes come back unchanged."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in _EED_WORDS:
        return word
    if len(word) > 4 and word.endswith("ied"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("eed"):
        return word[:-1]  # agreed -> agree
    if len(word) > 4 and word.endswith("ed"):
        stem = word[:-2]
        return _undouble(stem) if _undouble(stem) != stem else _add_e(stem)
    if len(word) > 5 and word.endswith("ing"):
        stem = word[:-3]
        return _undouble(stem) if _undouble(stem) != stem else _add_e(stem)
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def parse_predicate(raw: str, ontology: Ontology | None = None) -> tuple[str, bool]:
    """(normalized predicate, negated). Raises InputError when nothing usable is left.

    A name the ontology knows as written ("sibling_of", "has_pet", "studies") is kept when folding would leave
    the ontology ("sibling" is no verb: "sible_of"), so the ontology's own names survive the write path.
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", raw).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).replace("'", "").replace("\u2019", "")
    tokens = [t for t in _WORD.findall(text) if t not in _ARTICLES]
    negated = any(t in _NEGATIONS for t in tokens)
    tokens = [t for t in tokens if t not in _NEGATIONS]
    literal = ["_".join(tokens)]
    after_be = False
    while len(tokens) > 1 and tokens[0] in _AUX:
        after_be = after_be or tokens[0] in _BE
        tokens.pop(0)
    literal.append("_".join(tokens))
    if not tokens or not any(c.isalpha() for c in "".join(tokens)):
        raise InputError(f"predicate {raw!r} has no words", {"predicate": raw})
    if len(tokens) > MAX_PREDICATE_TOKENS:
        raise InputError(f"predicate {raw!r} is a sentence, not a relation name", {"predicate": raw})
    head = tokens[0]
    stative = head in _STATIVE and (after_be or len(tokens) > 1)
    # after "be": keep states and nouns ("is CEO of" -> "ceo_of"); fold progressive "is living in"
    if not stative and (not after_be or head.endswith("ing")):
        tokens[0] = verb_base(head)
    name = "_".join(tokens)
    onto = ontology or load_ontology()
    if onto.canonical_predicate(name) is None:
        name = next((form for form in literal if onto.canonical_predicate(form)), name)
    if len(name) > MAX_PREDICATE_LENGTH:
        raise InputError(f"predicate {raw!r} is too long", {"predicate": raw})
    return name, negated


def normalize_predicate(raw: str) -> str:
    """snake_case base-form predicate name; negation words are dropped (use parse_predicate to see them)."""
    return parse_predicate(raw)[0]


def _opposite(a: str, b: str) -> bool:
    return any(a.startswith(p) != b.startswith(p) and (a.startswith(p + b[:3]) or b.startswith(p + a[:3]))
               for p in _OPPOSITE_PREFIXES)


def fold_predicate(
    name: str,
    existing: Sequence[Predicate],
    embeddings: Mapping[str, Sequence[float]] | None = None,
    ontology: Ontology | None = None,
) -> str:
    """Map a normalized predicate onto a known one: exact, ontology synonym, fuzzy name, then embedding."""
    onto = ontology or load_ontology()
    known = {p.name: p for p in existing}
    if name in known:
        return name
    canonical = onto.canonical_predicate(name)
    if canonical:
        return canonical
    best, best_ratio = None, 0.0
    for other in sorted(known):
        ratio = fuzz.ratio(name.replace("_", " "), other.replace("_", " "))
        if ratio > best_ratio and not _opposite(name, other):
            best, best_ratio = other, ratio
    if best is not None and best_ratio >= PREDICATE_FUZZY_THRESHOLD:
        return best
    vectors = dict(embeddings or {})
    mine = vectors.get(name)
    if mine is not None:
        scored = []
        for other in sorted(known):
            vec = vectors.get(other)
            cos = cosine(mine, vec)
            if cos is not None and cos >= PREDICATE_EMBEDDING_THRESHOLD and not _opposite(name, other):
                scored.append((cos, other))
        if scored:
            return max(scored, key=lambda s: (s[0], s[1]))[1]
    return name


def stored_predicate(written: str, registered: Iterable[str], ontology: Ontology | None = None,
                     embed: Callable[[list[str]], list[list[float]]] | None = None) -> str:
    """The name under which a predicate a client writes is stored in a group with these registered names.

    The planner's steps (``resolve.planner._predicate``: parse, then fold onto the registry, the ontology, fuzzy,
    and with an embedder the vector step), so a read filter given ``plays_for`` finds what a statement saying
    ``plays_for`` wrote (``play_for``). Negation words are dropped: a filter names the relation, not its polarity.
    """
    onto = ontology or load_ontology()
    names = list(dict.fromkeys(registered))
    name, _ = parse_predicate(written, onto)
    vectors = None
    # As the planner: vectors only for a name neither registry nor ontology knows, when there is a registry.
    if embed is not None and names and name not in names and not onto.canonical_predicate(name):
        asked = [name, *names]
        vectors = dict(zip(asked, embed([n.replace("_", " ") for n in asked]), strict=True))
    return fold_predicate(name, [Predicate(name=n) for n in names], vectors, onto)
