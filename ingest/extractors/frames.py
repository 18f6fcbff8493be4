"""Relations people state in conversation, read off a dependency parse with the word lists of relation_words.

Two shapes:
- relation nouns: "my sister Sofia", "Sofia is my sister", "Ross's son Ben", "a dog named Max", "Hey mom";
- verb frames: "got married to Luis", "moved to Berlin", "was elected mayor of Avalon", "quit Acme",
  "I love painting", with passives turned round ("Acme was founded by Carol").
Arguments are resolved by the caller (names, "I", "you", pronouns) through ``Arguments``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from strata.ingest.extractors.modality import is_irrealis
from strata.ingest.extractors.relation_words import (
    BARE_OBJECT_ONLY,
    DWELLING_PREPS,
    DWELLINGS,
    EMPTY_OBJECTS,
    IDIOM_OBJECTS,
    OCCUPATIONS,
    PERSON_EMPLOYERS,
    PET_NOUNS,
    RELATION_NOUNS,
    SERVICE_NOUNS,
    SERVICE_PREPS,
    VERB_FRAMES,
    NounRelation,
    VerbFrame,
)

if TYPE_CHECKING:
    from spacy.tokens import Token

_SUBJECT_DEPS = ("nsubj", "nsubjpass")
# Verbs that inherit the subject of the verb they hang from ("got married", "started doing", "want to move").
_INHERITS_SUBJECT = ("acomp", "xcomp", "conj", "oprd")
_CONCEPT_MODIFIERS = ("compound", "amod", "nmod", "poss")
_NAMING_VERBS = frozenset({"name", "call"})
_MUTUAL = frozenset({"spouse_of", "engaged_to", "partner_of", "danced_with"})
# Concept objects narration keeps: offices and occupations ("was made steward", "worked as a clerk").
_NARRATED_CONCEPTS = frozenset({"holds_office", "works_as"})
_LEADING_JUNK = ("det", "poss", "nummod", "predet", "case", "cc", "preconj", "punct", "advmod")
# Prepositions that name whose relative a noun is: "the wife *of* Mr. Collins", "nephew *to* Lady Catherine".
_OWNER_PREPS = ("of", "to")
# Prepositions of a destination, read also where the parser hangs them from the origin ("from X to Y").
_DESTINATIONS = frozenset({"to", "into"})
_SECOND_PERSON_POSS = frozenset({"your", "thy"})
# A relation noun said of the subject: "Sofia is my sister" (the small model tags some such nouns acomp)
_PREDICATIVE = ("attr", "acomp")
# Object classes a frame's object_type may take in narration: a place frame never goes "to her mother".
_NOT_PERSON = frozenset({"Place", "Organization", "Event", "Object"})


class Arguments(Protocol):
    def names(self, token: Token) -> list[tuple[str, str]]:
        """Entity names (with types) a token stands for: a name, "I", "you", a resolved pronoun."""
        ...

    def relative(self, noun: Token) -> list[tuple[str, str]]:
        """The person a possessed relation noun stands for when the episode already named them."""
        ...

    def typed(self, token: Token) -> bool:
        """True when the token's type is known (the NER model, the roster); False for a proper noun whose
        type was guessed ("Bath" in "lived in Bath", which the small model does not tag)."""
        ...


@dataclass(frozen=True)
class FrameFact:
    subject: str
    subject_type: str
    predicate: str
    object: str
    object_type: str
    negated: bool
    text: str
    # for a relation-noun fact: the noun, and which side the noun names ("my sister Sofia": "sister", Sofia)
    noun: str = ""
    named: str = ""


def subjects_of(verb: Token) -> tuple[list[Token], bool]:
    """The verb's subject tokens (inherited through acomp/xcomp/conj chains) and whether it is passive."""
    v: Token | None = verb
    for _ in range(4):
        if v is None:
            break
        subs = [c for c in v.children if c.dep_ in _SUBJECT_DEPS]
        if subs:
            return subs, any(c.dep_ == "nsubjpass" for c in subs) and v == verb
        v = v.head if v.dep_ in _INHERITS_SUBJECT and v.head != v else None
    return [], False


def relation_noun_facts(noun: Token, args: Arguments, speaker: str | None, addressee: str | None,
                        vocative: bool, narration: bool = False) -> Iterator[FrameFact]:
    """Facts a relation noun states: "my sister Sofia" -> Sofia sibling_of <speaker>; in narration also "the
    wife of Mr. Collins", "nephew to Lady Catherine", "Mr. Bingley's sisters, Mrs. Hurst and Miss Bingley"."""
    rel = RELATION_NOUNS.get(noun.lower_) or RELATION_NOUNS.get(noun.lemma_.lower())
    # a job noun says what its person works as: relation nouns of a household anywhere, any job in narration
    job = _singular(noun) if noun.pos_ not in ("VERB", "AUX") and (rel is not None or narration) else ""
    job = job if job in OCCUPATIONS and not vocative else ""
    if (rel is None and not job) or (rel is not None and narration and rel.spoken_only) or _is_title(noun):
        return
    if noun.dep_ in _PREDICATIVE and is_irrealis(noun.head):  # "Ann will soon be the wife of Tom"
        return
    if noun.dep_ in _PREDICATIVE and is_negated(noun.head):  # "Rook was no clerk"
        job = ""
    if vocative:  # "Hey mom": the addressee is the speaker's mother
        named, owners = ([(addressee, "Person")] if addressee else []), ([(speaker, "Person")] if speaker else [])
    else:
        # no name beside the noun: a relative the episode already named ("her husband" of a known couple)
        named = _named_relative(noun, args, rel.named_type if rel else "Person") or args.relative(noun)
        owners = _possessors(noun, args)
        if narration and _addressed(noun):  # "Your servant, Miss Morstan," / "your father, Miss Morstan": she is
            named = []  # spoken to, not the servant or the father
    if rel is not None:
        yield from _between(noun, rel, named, owners)
    for n, n_type in named if job else ():  # "the housekeeper, Mrs. Bernstone": her job, employer or not
        if n_type == "Person":
            yield FrameFact(n, n_type, "works_as", job, "Concept", False, f"{n} is a {job}")


def _between(noun: Token, rel: NounRelation, named: list[tuple[str, str]],
             owners: list[tuple[str, str]]) -> Iterator[FrameFact]:
    """The relation between each person the noun names and each of its owners."""
    if rel.place_possessor:
        owners = [(o, t) for o, t in owners if t != "Person"]
    for n, n_type in named:
        for o, o_type in owners:
            if n == o:
                continue
            n_type = rel.named_type if rel.named_type != "Person" else n_type or "Person"
            if rel.subject == "named":
                s, s_type, obj, obj_type = n, n_type, o, o_type
            else:
                s, s_type, obj, obj_type = o, o_type, n, n_type
            yield FrameFact(s, s_type, rel.predicate, obj, obj_type, rel.negated, f"{n} is {o}'s {_singular(noun)}",
                            noun=noun.lower_, named=n)


def _named_relative(noun: Token, args: Arguments, named_type: str) -> list[tuple[str, str]]:
    """The person a relation noun names: apposition, compound head, "named X", or the copula's subject."""
    if noun.lemma_.lower() in SERVICE_NOUNS:  # "Giles had been in the service of Mrs. Maylie": Giles
        verb = noun.head.head
        if noun.dep_ == "pobj" and noun.head.lower_ in SERVICE_PREPS and noun.pos_ == "NOUN" and not (
                is_irrealis(verb) or is_negated(verb)):
            return [n for s in subjects_of(verb)[0] for n in args.names(s)]
        return []
    for child in noun.children:
        if child.dep_ == "appos" and not _listed(child) and (found := args.names(child)):
            # "his cousin Elizabeth and Mrs. Philips": a singular noun names one person
            return found if noun.tag_ == "NNS" else found[:1]
        if child.dep_ == "acl" and child.lemma_ in _NAMING_VERBS:
            for g in child.children:
                if g.dep_ in ("oprd", "attr", "dobj") and (found := args.names(g)):
                    return found
    if noun.dep_ == "compound" and noun.head.pos_ == "PROPN":  # "sister Sofia" parsed as one name
        return args.names(noun.head)
    if noun.dep_ == "appos":  # "Sofia, my sister"; "Miss Darcy, the daughter of Mr. Darcy, and Lady Anne": one
        found = args.names(noun.head)
        return found if noun.tag_ == "NNS" else found[:1]
    # "Sofia is my sister", "Ann seemed to be his aunt", "Charlotte became the wife of Mr. Collins",
    # "Mrs. Younge, who was governess to Miss Darcy" (the relative pronoun stands for its antecedent)
    if noun.dep_ in _PREDICATIVE and noun.head.lemma_ in ("be", "become"):
        subs = [c for c in subjects_of(noun.head)[0] if c.dep_ == "nsubj"]
        return [n for s in subs for n in args.names(s)]
    return _comma_apposition(noun, args)


def _comma_apposition(noun: Token, args: Arguments) -> list[tuple[str, str]]:
    """"His sisters, Mrs. Hurst and Miss Bingley, came": the parser often makes the names a second subject
    of the verb rather than an apposition; a name right after the comma in the same role is the relative."""
    doc = noun.doc
    if noun.i + 2 >= len(doc) or doc[noun.i + 1].text != "," or noun.dep_ not in ("nsubj", "nsubjpass", "dobj"):
        return []
    first = doc[noun.i + 2]
    head = first
    while head.dep_ == "compound" and head.head.i > head.i:
        head = head.head
    if head.dep_ == noun.dep_ and head.head == noun.head and head.i > noun.i:
        return args.names(head)
    return []


def _addressed(noun: Token) -> bool:
    """"your <noun>, <Name>" in a quotation: the name is the person spoken to, not the noun's person."""
    return any(c.dep_ == "poss" and c.lower_ in _SECOND_PERSON_POSS for c in noun.children) and any(
        c.dep_ == "appos" for c in noun.children)


def _listed(named: Token) -> bool:
    """"Mr. Weston, his son, Emma, and Harriet": a name set off by commas and followed by ", and" is one item of a
    list, not the noun's apposition."""
    doc = named.doc
    end = named.i + 1
    return end + 1 < len(doc) and doc[end].text == "," and doc[end + 1].lower_ in ("and", "or") and any(
        t.text == "," for t in doc[max(0, named.left_edge.i - 1):named.left_edge.i])


def _singular(noun: Token) -> str:
    return noun.lemma_.lower() if noun.tag_ == "NNS" else noun.text.lower()


def _is_title(noun: Token) -> bool:
    """"Master Bingley", "Mistress Quickly": a capitalized relation noun inside a name is a title; not with a
    possessor ("her Aunt Josephine" is Diana's aunt)."""
    return noun.text[:1].isupper() and noun.dep_ == "compound" and noun.i != noun.sent.start and not any(
        c.dep_ == "poss" for c in (*noun.children, *noun.head.children))


def _possessors(noun: Token, args: Arguments) -> list[tuple[str, str]]:
    """Whose relative: "my"/"Ross's" on the noun, or the subject of "I have a sister named Amy"."""
    # "her nephew Henry" is parsed as one name with the possessor on it
    for child in (*noun.children, *(noun.head.children if noun.dep_ == "compound" else ())):
        if child.dep_ == "poss":
            return args.names(child)
    for prep in (c for c in noun.children if c.dep_ == "prep" and c.lower_ in _OWNER_PREPS):
        found = [n for p in prep.children if p.dep_ == "pobj" for n in args.names(p)]
        if found:  # "the wife of Mr. Collins", "a friend of his"
            return found
    if noun.dep_ == "dobj" and noun.head.lemma_ in ("have", "get", "adopt"):
        subs, _ = subjects_of(noun.head)
        return [n for s in subs for n in args.names(s)]
    return []


def frame_facts(verb: Token, args: Arguments, default_subject: list[tuple[str, str]] | None = None,
                narration: bool = False) -> Iterator[FrameFact] | None:
    """Facts of the verb's frame, or None when the verb has no frame (the caller's generic rule applies).
    A framed verb that is only wished, supposed or asked about states nothing (modality.py).

    ``narration``: the text is a narrator's, not people speaking of themselves: objects are names only (a novel
    goes "to the window" and "enjoys the scene" on every page), of the frame's kind (no "went to her mother"
    for a visit), and frames that need a speaker ("I left Acme" quits a job) are skipped."""
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    frames = VERB_FRAMES.get((verb.lemma_.lower(), particle))
    loose = frames is None and bool(particle)  # "engaged out that evening": the particle is no frame's
    if loose:
        frames = VERB_FRAMES.get((verb.lemma_.lower(), ""))
    if narration and frames is not None:
        frames = tuple(f for f in frames if not f.spoken_only)
    if not frames or not (_has_slot(verb, frames) or any(f.predicate in _MUTUAL for f in frames)):
        return None  # "Alice called me": none of the frame's slots is there, the generic rule reads it
    if is_irrealis(verb):
        return iter(())
    return _fill(verb, frames, args, default_subject or [], narration, mutual=not loose)


def _preps(verb: Token) -> Iterator[tuple[str, Token]]:
    """The verb's prepositions by name, compound ones joined ("moved *out of* Lisbon": "out_of")."""
    for c in verb.children:
        if c.dep_ in ("prep", "agent"):
            yield c.lower_, c
            for g in c.children:
                if g.dep_ == "prep":
                    yield f"{c.lower_}_{g.lower_}", g
                    if g.lower_ in _DESTINATIONS:  # "relocated from Lisbon to Porto": to hangs from from
                        yield g.lower_, g
            # ... or from the origin's name
            for d in (d for p in c.children if p.dep_ == "pobj" for d in p.children):
                if d.dep_ == "prep" and d.lower_ in _DESTINATIONS:
                    yield d.lower_, d


def _has_slot(verb: Token, frames: tuple[VerbFrame, ...]) -> bool:
    deps = {c.dep_ for c in verb.children}
    preps = {name for name, _ in _preps(verb)}
    return any(f.slot in deps or f.slot in preps or (f.slot == "dobj" and "nsubjpass" in deps) for f in frames)


def _fill(verb: Token, frames: tuple[VerbFrame, ...], args: Arguments,
          default_subject: list[tuple[str, str]], narration: bool, mutual: bool = True) -> Iterator[FrameFact]:
    """The first frame whose slots resolve; ``default_subject`` stands in for a dropped "I" ("Just moved to
    Berlin"); ``mutual``: two subjects may state a mutual relation ("Ann and Bob were engaged")."""
    subs, passive = subjects_of(verb)
    # "is no longer married to": the negation sits on the copula
    verb_negated = is_negated(verb) or (verb.dep_ in ("acomp", "xcomp", "attr") and is_negated(verb.head))
    said = {t.lemma_.lower() for t in verb.sent}
    for frame in frames:
        subject_tokens, objects = _slots(verb, frame, subs, passive)
        if frame.cues and not frame.cues & (said | {w.lower_ for o in objects for w in o.subtree}):
            continue
        subjects = [n for tok in subject_tokens for n in args.names(tok)]
        if not subject_tokens and not passive:
            subjects = default_subject
        if not objects or not subjects:
            continue
        produced = False
        for s, s_type in subjects:
            for o_tok in objects:
                for o, o_type, concept in _object_names(verb, o_tok, frame, args, narration):
                    if o == s or (narration and not _agrees(frame, o_type, concept)):
                        continue
                    if frame.typed and not (args.typed(o_tok) and o_type == frame.object_type):
                        continue
                    produced = True
                    yield FrameFact(s, s_type, frame.predicate, o, frame.object_type if concept else o_type,
                                    frame.negated != verb_negated, "")
        if produced and not frame.more:
            return
    # "Chandler and I are getting married", "Ann and Bob broke up": a mutual relation between the subjects
    reciprocal = next((f for f in frames if f.predicate in _MUTUAL), None) if mutual else None
    together = [n for tok in subs for n in args.names(tok)]
    if reciprocal is not None and len(together) >= 2 and not any(
            c.dep_ in ("dobj", "prep") and c.lemma_.lower() not in IDIOM_OBJECTS for c in verb.children):
        (a, a_type), (b, b_type) = together[:2]
        if a != b:
            phrase = " ".join([*(c.text for c in verb.lefts if c.dep_ in ("aux", "auxpass", "neg")), verb.text,
                               *(c.text for c in verb.children if c.dep_ == "prt")])
            yield FrameFact(a, a_type, reciprocal.predicate, b, b_type, reciprocal.negated != verb_negated,
                            f"{a} and {b} {phrase}".replace(" n't", "n't"))


def _agrees(frame: VerbFrame, name_type: str, concept: bool) -> bool:
    """A named object of the frame's kind: no person where a place is meant ("went to her mother"). The other
    way round is let be: the small model tags many given names as places ("Charlotte" GPE). A person may
    employ ("was employed by Mr. Hale")."""
    return (concept or frame.object_type not in _NOT_PERSON or name_type != "Person"
            or frame.predicate in PERSON_EMPLOYERS)


def _slots(verb: Token, frame: VerbFrame, subs: list[Token], passive: bool) -> tuple[list[Token], list[Token]]:
    """(subject tokens, object tokens) for one frame."""
    if frame.subject_slot and not passive:  # "Sir William introduced him to Ann": he knows Ann
        subs = [c for c in verb.children if c.dep_ == frame.subject_slot]
        if not subs:
            return [], []
    if passive and frame.slot == "dobj":  # "Acme was founded by Carol"
        agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
        return agents, subs
    if frame.slot == "nsubj":  # "Acme hired Ann": the verb's subject is the fact's object
        objects = [c for c in verb.children if c.dep_ == "nsubj"]
    elif frame.slot in ("dobj", "oprd", "attr"):
        objects = [c for c in verb.children if c.dep_ == frame.slot]
    else:
        objects = [p for name, c in _preps(verb) if name == frame.slot for p in c.children if p.dep_ == "pobj"]
    return subs, [_through_dwelling(o, frame) for tok in objects for o in (tok, *tok.conjuncts)]


def _through_dwelling(token: Token, frame: VerbFrame) -> Token:
    """"lived in a big yellow house at White Sands Cove": a home stands for the place its preposition names."""
    if frame.predicate != "lives_in" or token.lemma_.lower() not in DWELLINGS:
        return token
    return next((p for c in token.children if c.dep_ == "prep" and c.lower_ in DWELLING_PREPS
                 for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN"), token)


def _object_names(verb: Token, token: Token, frame: VerbFrame, args: Arguments,
                  narration: bool = False) -> list[tuple[str, str, bool]]:
    """(name, type, is_concept) for an object token: entity names first, else a concept phrase if allowed."""
    if frame.through and token.lemma_.lower() in frame.through:  # "accepted his hand": him
        return [(n, t, False) for c in token.children if c.dep_ == "poss" for n, t in args.names(c)]
    names = args.names(token)
    if names:
        if token.pos_ == "PROPN" and not args.typed(token):
            return [(n, frame.object_type, False) for n, _ in names]  # the frame says what kind of thing it is
        return [(n, t, False) for n, t in names]
    concepts = frame.concepts and (not narration or frame.predicate in _NARRATED_CONCEPTS)
    if not concepts or token.pos_ in ("PRON", "PROPN", "NUM") or token.lower_ in EMPTY_OBJECTS:
        return []
    if frame.predicate == "has_pet" and token.lemma_.lower() not in PET_NOUNS:
        return []
    if verb.lemma_ in BARE_OBJECT_ONLY and any(c.dep_ in ("det", "poss", "nummod") for c in token.children):
        return []
    phrase = concept_phrase(token, with_of=frame.predicate == "holds_office")
    return [(phrase, frame.object_type, True)] if phrase else []


def concept_phrase(token: Token, with_of: bool = False) -> str | None:
    """"the climbing gym" -> "climbing gym"; "sci-fi movies" whole; "mayor of Avalon" with with_of; None for
    empty words."""
    doc = token.doc
    mods = [c for c in token.lefts if c.dep_ in _CONCEPT_MODIFIERS and c.dep_ != "poss"]
    start = min((m.left_edge.i for m in mods), default=token.i)
    while start < token.i and (doc[start].dep_ in _LEADING_JUNK or doc[start].pos_ in ("PRON", "DET", "PUNCT")):
        start += 1
    end = token.i + 1
    if with_of:
        for prep in (c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"):
            end = max(end, prep.right_edge.i + 1)
    phrase = doc[start:end].text.strip()
    if len(phrase) < 3 or phrase.lower() in EMPTY_OBJECTS:
        return None
    return phrase


def is_negated(verb: Token) -> bool:
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ == "never":
            return True
        if child.lower_ in ("longer", "more") and any(g.lower_ == "no" for g in child.children):
            return True
    return False
