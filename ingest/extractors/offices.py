"""Who takes or leaves an office, read off a dependency parse around the office's role word.

The roles are the ontology's (resolve/roles.py: "CEO", "prime minister", "king"...), the verbs around them the
word list ``OFFICE_VERBS`` of relation_words.py; this module is the small mechanism between. For each role word
with an organization ("CEO *of Walmart*", "*Walmart's* CEO", "*Walmart* named X as *its* CEO", or the one
organization the sentence names), the holder is found where the phrase puts them:
- attached to the role itself: "X, the CEO of Y", "the CEO of Y, X,", "CEO X";
- through the verb that governs the role: the subject of "became / took over as / is the new / was sworn in
  as"; the object of "named / appointed / elected" (the subject when passive); the subject of "succeeded /
  replaced Z as", Z being the predecessor; the subject of "stepped down / resigned as" and the object of
  "ousted / fired as" (the subject when passive), who leave it;
- else the one person the sentence names besides the predecessor.
"former" or "outgoing" on the role, a negated verb ("is no longer") and the "end" verbs state the end of a
term: a negated fact, which closes the holder's open term at that time. Questions, wishes and conditionals
state nothing (the caller skips questions, ``is_irrealis`` the rest), and whoever only reacts ("Wow!") names
no role and states nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from strata.ingest.extractors.frames import Arguments, is_negated, subjects_of
from strata.ingest.extractors.modality import is_irrealis
from strata.ingest.extractors.relation_words import (
    COMPANY_NAME_CUES,
    FORMER_WORDS,
    OFFICE_VERBS,
    PREDECESSOR_PREPS,
    TEAM_CUES,
    OfficeChange,
)
from strata.resolve.roles import Roles, fold_words

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_ORG_PREPS = ("of", "at", "for")
_ROLE_PREPS = ("as", "to", "into")  # "took over *as* CEO", "was elected *to* the presidency"
_COLLECTIVE = ("its", "their")
_ORG_TYPES = frozenset({"Organization", "Place"})
_NOUNISH = frozenset({"NOUN", "PROPN"})


@dataclass(frozen=True)
class OfficeFact:
    holder: str
    holder_type: str
    role: str | None  # the office's key (resolve/roles.py); None for a position stated as its own relation
    org: str
    org_type: str
    negated: bool
    text: str
    verb: int | None  # the governing verb's token index: its other frames say nothing more
    predicate: str = "holds_office"  # plays_for for "Rovers' new striker", employed_by for "Acme's analyst"


def office_facts(sent: Span, args: Arguments, lexicon: Roles) -> Iterator[OfficeFact]:
    """Every office fact of a sentence, one per (role word, holder)."""
    phrases = list(_role_phrases(sent, lexicon))
    for start, end, role in phrases:
        head = sent.doc[end - 1]
        found = _read(sent, start, end, head, role, args, lexicon, alone=len(phrases) == 1)
        if found is not None:
            yield from found


def _role_phrases(sent: Span, lexicon: Roles) -> Iterator[tuple[int, int, str]]:
    """(start, end, role key) of each role phrase, longest first, never overlapping."""
    doc, i = sent.doc, sent.start
    while i < sent.end:
        hit = None
        if doc[i].lower_ not in lexicon.first_words and fold_words(doc[i].text) not in lexicon.first_words:
            i += 1
            continue
        for n in range(min(lexicon.longest + 2, sent.end - i), 0, -1):  # "+2": hyphens are tokens
            last = doc[i + n - 1]
            if last.pos_ not in _NOUNISH or doc[i].is_punct:
                continue
            role = lexicon.known(" ".join(t.text for t in doc[i:i + n]))
            if role and doc[i].lower_ not in ("the", "a", "an", "new", "former"):
                hit = (i, i + n, role)
                break
        if hit:
            yield hit
            i = hit[1]
        else:
            i += 1


def _read(sent: Span, start: int, end: int, head: Token, role: str, args: Arguments,
          lexicon: Roles, alone: bool) -> list[OfficeFact] | None:
    doc = sent.doc
    phrase = range(start, end)
    former = any(t.lower_.rstrip("-") in FORMER_WORDS for t in doc[max(sent.start, start - 3):start]) or any(
        c.lower_.rstrip("-") in FORMER_WORDS for c in head.children if c.dep_ in ("amod", "advmod", "compound"))
    anchor, via = _anchor(head)
    verb = anchor if anchor is not None and anchor.pos_ in ("VERB", "AUX") else (
        anchor.head if anchor is not None and anchor.head.pos_ in ("VERB", "AUX") else None)
    if verb is not None and is_irrealis(verb):
        return None
    change = _change(verb) if verb is not None else None
    holders, predecessors, negated, attached = _holders(head, anchor, via, verb, change, args)
    org = _organization(sent, head, verb, args, phrase, alone)
    if org is None:
        return None
    org_name, org_type = org[0], _org_type(org[1])
    if role in lexicon.relation and org[1] == "Person" and not _organization_shaped(org[0]):
        return None  # "the lawyer of Lady Ash" is no employer's position ("Riverton Rovers'" is a team's)
    if not holders:
        holders = _only_person(sent, args, phrase, {org_name, *(n for n, _ in predecessors)})
    if attached:  # "X, Y's former foreign minister, became its PM": the verb is the other role's
        negated = negated or former
    else:
        if verb is not None and is_negated(verb):
            negated = not negated
        negated = negated or (former and change not in ("start", "appoint", "succeed"))
    label = lexicon.label(role)
    out = []
    for name, type_ in holders:
        if name == org_name or type_ == "Place":  # a place holds no office ("Finland is ...")
            continue
        text = (f"{name} left the office of {label} of {org_name}" if negated
                else f"{name} is {label} of {org_name}")
        relation = lexicon.relation.get(role)
        if relation is not None:  # a position: the relation it states, not an office
            text = f"{name} no longer {relation.replace('_', ' ')} {org_name}" if negated else (
                f"{name} is {label} of {org_name}")
        out.append(OfficeFact(name, "Person", None if relation else role, org_name, org_type, negated, text,
                              verb.i if verb is not None else None, relation or "holds_office"))
    return out


def _anchor(head: Token) -> tuple[Token | None, str]:
    """The word the role phrase hangs from, and how: "as" ("took over as CEO"), or its own dependency."""
    if head.dep_ == "pobj" and head.head.dep_ == "prep" and head.head.lower_ in _ROLE_PREPS:
        return head.head.head, "as"
    if head.dep_ == "conj":  # "chairman and CEO of Y": the first conjunct's place
        return _anchor(head.head)
    if head.dep_ == "ROOT":
        return head, "root"
    return head.head, head.dep_


def _change(verb: Token) -> OfficeChange | None:
    """What the verb says of the office; its particle may be parsed as an adverb ("stepped *down*")."""
    lemma = verb.lemma_.lower()
    for c in verb.children:
        if c.dep_ in ("prt", "advmod") and (found := OFFICE_VERBS.get((lemma, c.lower_))):
            return found
    return OFFICE_VERBS.get((lemma, ""))


def _names(args: Arguments, tokens: list[Token]) -> list[tuple[str, str]]:
    return [n for t in tokens for n in args.names(t)]


def _holders(head: Token, anchor: Token | None, via: str, verb: Token | None, change: OfficeChange | None,
             args: Arguments) -> tuple[list[tuple[str, str]], list[tuple[str, str]], bool, bool]:
    """(holders, predecessors, whether the holders leave it, whether they stand beside the role itself)."""
    # Attached to the role itself: "the CEO of Y, X", "CEO X", "X, the CEO of Y"
    # ("X, the CEO of Y, stepped down": the verb's change still says whether they leave)
    leaves = change in ("end", "removed")
    appos = [c for c in head.children if c.dep_ == "appos"]
    if appos and (found := _names(args, appos)):
        return found, [], leaves, True
    if head.dep_ == "compound" and head.head.pos_ == "PROPN" and (found := args.names(head.head)):
        return found, [], leaves, True
    if via == "appos" and anchor is not None and (found := args.names(anchor)):
        return found, [], leaves, True
    if verb is None or change is None:
        return [], [], False, False
    subjects, passive = subjects_of(verb)
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.i != head.i]
    agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
    before = [p for c in verb.children if c.dep_ == "prep" and c.lower_ in PREDECESSOR_PREPS
              for p in c.children if p.dep_ == "pobj"]
    if anchor is not None and anchor is not verb and anchor.pos_ in _NOUNISH and anchor.dep_ == "dobj":
        # "as" under the verb's object: "named Doug McMillon as its CEO" (the object takes it), "replaced Angela
        # Merkel as chancellor" (the object held it), "ousted X as CEO" (the object leaves it)
        if change == "appoint" and (found := args.names(anchor)):
            return found, [], False, False
    if change == "start":
        if verb.lemma_ == "be" and via in ("nsubj", "nsubjpass"):  # "The new CEO of Y is X"
            attrs = [c for c in verb.children if c.dep_ in ("attr", "acomp")]
            return _names(args, attrs), [], False, False
        return _names(args, subjects), _names(args, before), False, False
    if change == "appoint":
        if passive:
            return _names(args, subjects), [], False, False
        if head.dep_ == "dobj":  # "Y named a new CEO, X" (appos handled above): the holder is elsewhere
            return [], [], False, False
        return _names(args, objects), [], False, False
    if change == "succeed":
        if passive:  # "Z was replaced by X as CEO"
            return _names(args, agents), _names(args, subjects), False, False
        return _names(args, subjects), _names(args, objects), False, False
    if change == "end":
        return _names(args, subjects), [], True, False
    # removed
    return _names(args, subjects if passive else objects), [], True, False


def _organization(sent: Span, head: Token, verb: Token | None, args: Arguments,
                  phrase: range, alone: bool) -> tuple[str, str] | None:
    """The organization whose role it is: "of Y", "Y's", "Y ... its", "Y CEO", else the one the sentence names."""
    for c in head.children:
        if c.dep_ == "prep" and c.lower_ in _ORG_PREPS:
            for p in c.children:
                if p.dep_ == "pobj" and (found := _org_of(args, p)):
                    return found
        if c.dep_ == "poss":
            if c.lower_ in _COLLECTIVE:
                # "Walmart named X as *its* CEO": the one who gives the office, unless a person ("X, Finland's
                # foreign minister, became *its* PM": then the organization named last before the role)
                subjects, passive = subjects_of(verb) if verb is not None else ([], False)
                agents = [] if verb is None else [p for a in verb.children if a.dep_ == "agent"
                                                  for p in a.children if p.dep_ == "pobj"]
                for s in (agents if passive else subjects):
                    if (found := _org_of(args, s)) and found[1] != "Person":
                        return found
                for t in reversed(sent.doc[sent.start:phrase.start]):
                    if (typed := _typed_names(args, t)) and typed[0][1] in _ORG_TYPES:
                        return typed[0][0], typed[0][1]
            elif found := _org_of(args, c):
                return found
        if c.dep_ == "compound" and c.i < phrase.start and (found := _org_of(args, c)) and found[1] != "Person":
            return found
    if not alone:  # "X, a longtime party leader, became Y's PM": Y is the PM's, not the party leader's
        return None
    orgs = {name: type_ for t in sent if t.i not in phrase for name, type_ in _typed_names(args, t)
            if type_ in _ORG_TYPES}
    if len(orgs) == 1:
        return next(iter(orgs.items()))
    return None


def _org_of(args: Arguments, token: Token) -> tuple[str, str] | None:
    """(name, type) of the first name a token stands for; the type "" when only guessed ("Riverton Rovers'")."""
    found = args.names(token)
    if not found:
        return None
    return found[0][0], found[0][1] if args.typed(token) else ""


def _typed_names(args: Arguments, token: Token) -> list[tuple[str, str]]:
    return args.names(token) if args.typed(token) else []


def _only_person(sent: Span, args: Arguments, phrase: range, exclude: set[str]) -> list[tuple[str, str]]:
    people = {n for t in sent if t.i not in phrase and t.pos_ == "PROPN"
              for n, ty in args.names(t) if ty == "Person" and n not in exclude}
    return [(people.pop(), "Person")] if len(people) == 1 else []


def _organization_shaped(name: str) -> bool:
    """A name that ends like a team's or a company's ("Riverton Rovers", "Harbor Point Media")."""
    words = re.sub(r"(?:'s|’s|'|’)$", "", name).split()
    last = words[-1].lower() if words else ""
    return last in TEAM_CUES or last in COMPANY_NAME_CUES


def _org_type(type_: str) -> str:
    return type_ if type_ in _ORG_TYPES else "Organization"

