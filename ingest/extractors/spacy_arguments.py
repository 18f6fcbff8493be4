"""Who a token stands for within one message: names, pronouns, "my sister", proper nouns the small model
missed (implements frames.Arguments for the spaCy extractor)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from strata.ingest.extractors.discourse import (
    FIRST_PERSON,
    NOT_NAMES,
    PRONOUN_GENDER,
    SECOND_PERSON,
    Discourse,
)
from strata.ingest.extractors.frames import FrameFact
from strata.ingest.extractors.gender import is_given_name
from strata.ingest.extractors.name_shape import HEADING, is_honorific, shouted
from strata.ingest.extractors.narration import titled_spouse
from strata.ingest.extractors.relation_words import NOUN_GENDER, RELATION_NOUNS
from strata.ingest.extractors.spacy_state import Collector, Segment

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan
    from spacy.tokens import Token

# Entity types a generic fact's object may not have: a date is a fact's time, not its object ("moved in June").
NOT_ARGUMENTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT"})
# Pronouns that open a relative clause and stand for the noun the clause hangs from.
_RELATIVE_PRONOUNS = frozenset({"who", "that", "which"})


class Arguments:
    """Resolves a token to the entity names it stands for, within one message (implements frames.Arguments)."""

    def __init__(self, col: Collector, segment: Segment,
                 token_names: dict[int, tuple[str, str]], discourse: Discourse, k: int) -> None:
        self.col, self.segment, self.token_names, self.discourse, self.k = col, segment, token_names, discourse, k
        self.addressee = discourse.addressee(k) if segment.speaker else None
        self.pronouns: dict[int, str] = {}
        self.sentences = 0

    def read(self, sent: SpacySpan) -> None:
        """Walk the sentence in order: names enter the discourse, pronouns resolve against what came before."""
        self.sentences += 1
        narration, n = self.segment.speaker is None, self.sentences
        for t in sent:
            low = t.lower_
            role = is_subject(t)
            if t.i in self.token_names:
                name, type_ = self.token_names[t.i]
                if t.i == t.sent.start or self.token_names.get(t.i - 1) != (name, type_):
                    self.discourse.mention(name, type_, self.k, subject=role, sentence=n)
            elif low in FIRST_PERSON and self.segment.speaker:
                self.discourse.mention(self.segment.speaker, "Person", self.k)
            elif low in PRONOUN_GENDER and (who := self.discourse.resolve_pronoun(
                    low, self.k, self._local(t), known_only=narration,
                    subject_of=n if narration and role else None)):
                self.pronouns[t.i] = who
                if who in self.col.labels and low not in ("it", "its", "itself"):
                    self.col.labels[who]["Person"] += 1  # "he"/"she" refers to a person
                self.discourse.mention(who, "Person", self.k, subject=role, sentence=n)
            elif looks_like_name(t, self.col):
                for name, type_ in self._proper(t):
                    self.discourse.mention(name, type_, self.k, subject=role, sentence=n)

    def _local(self, pronoun: Token) -> frozenset[str]:
        """Names a non-reflexive pronoun cannot be: the subject of its own verb."""
        if pronoun.dep_ in ("nsubj", "nsubjpass") or pronoun.lower_.endswith("self"):
            return frozenset()
        verb = pronoun.head if pronoun.dep_ != "pobj" else pronoun.head.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        return frozenset(n for s in subjects for n, _ in self.names(s))

    def learn_relative(self, fact: FrameFact) -> None:
        """After "my sister Sofia": Sofia is female, and a later "my sister" is Sofia."""
        if not fact.noun:
            return
        owner = fact.object if fact.named == fact.subject else fact.subject
        if fact.noun in NOUN_GENDER:
            self.discourse.genders.setdefault(fact.named, NOUN_GENDER[fact.noun])
        self.col.kin.setdefault((owner, fact.noun), fact.named)

    def names(self, token: Token) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for t in (token, *token.conjuncts):
            low = t.lower_
            if t.pos_ in ("NOUN", "PRON") and t.i not in self.token_names:
                t = next((a for a in t.children if a.dep_ == "appos" and (a.i in self.token_names
                                                                         or a.pos_ == "PROPN")), t)
                low = t.lower_
            if t.i in self.token_names:
                out.append(self.token_names[t.i])
            elif low in _RELATIVE_PRONOUNS and t.head.dep_ == "relcl" and t.head.head.i != t.i:
                out += self.names(t.head.head)  # "Mrs. Pell, who lived at Hartfield": who is Mrs. Pell
            elif low in FIRST_PERSON and self.segment.speaker:
                out.append((self.segment.speaker, "Person"))
            elif low in SECOND_PERSON and self.addressee:
                out.append((self.addressee, "Person"))
            elif t.i in self.pronouns:
                out.append((self.pronouns[t.i], "Person"))
            elif (low in RELATION_NOUNS or t.lemma_.lower() in RELATION_NOUNS) and (kin := self._kin(t)):
                out.append((kin, "Person"))
            elif looks_like_name(t, self.col):
                out += self._proper(t)
        return out

    def typed(self, token: Token) -> bool:
        return token.i in self.token_names or any(n.lower() in self.col.roster_types for n, _ in self._proper(token))

    def relative(self, noun: Token) -> list[tuple[str, str]]:
        return [(kin, "Person")] if (kin := self._kin(noun)) else []

    def _kin(self, noun: Token) -> str | None:
        owners = [self.names(c) for c in noun.children if c.dep_ == "poss"]
        for owner, _ in (o for found in owners for o in found):
            if (kin := self.col.kin.get((owner, noun.lower_))) is not None:
                return kin
            if self.segment.speaker is None and (kin := titled_spouse(owner, noun.lower_, self.col.is_known)):
                return kin
        return None

    def _proper(self, t: Token) -> list[tuple[str, str]]:
        # The small NER model misses many sentence-initial names ("Sofia lives in Madrid"); a proper noun in a
        # subject or object slot is a name all the same.
        parts = [x for x in t.lefts if x.dep_ == "compound" and (x.pos_ == "PROPN" or is_honorific(x))] + [t]
        name = " ".join(x.text for x in parts)
        if shouted(name):
            name = next((m for m in self.col.mentions if m.lower() == name.lower() and not shouted(m)), name)
        self.col.proper_names.add(name.lower())
        return [(name, self.col.roster_types.get(name.lower(), "Person"))]

    def names_in(self, sent: SpacySpan, implicit: bool) -> list[str]:
        """Entities a note of this sentence is about."""
        found: list[str] = [self.segment.speaker] if implicit and self.segment.speaker else []
        for t in sent:
            if (t.i in self.token_names or t.i in self.pronouns or t.lower_ in FIRST_PERSON
                    or t.lower_ in SECOND_PERSON or looks_like_name(t, self.col)):
                found += [n for n, _ in self.names(t)]
        return list(dict.fromkeys(found))[:20]


def looks_like_name(t: Token, col: Collector) -> bool:
    if not t.text[:1].isupper() or HEADING.match(t.text) or t.lower_ in FIRST_PERSON or \
            t.ent_type_ in NOT_ARGUMENTS or t.lower_ in NOT_NAMES:
        return False
    if shouted(t.text):  # a shouted word names someone only under a name the text writes in ordinary case
        return t.pos_ in ("PROPN", "NOUN") and any(m.lower() == t.lower_ and not shouted(m) for m in col.mentions)
    if col.is_known(t.lower_) or is_given_name(t.text):
        return t.pos_ in ("PROPN", "NOUN")  # "Sofia is my sister": Sofia tagged NOUN
    # A sentence's first word is capitalized anyway: "Awesome to hear from you" names nobody.
    return t.pos_ == "PROPN" and (t.i != t.sent.start or t.dep_ in ("nsubj", "nsubjpass")
                                  or any(x.dep_ == "compound" for x in t.lefts))


def is_subject(t: Token) -> bool:
    """The token heads (or is part of the name that heads) a clause's subject: "Mr. Darcy" in "Mr. Darcy came"."""
    while t.dep_ == "compound" and t.head is not t:
        t = t.head
    return t.dep_ in ("nsubj", "nsubjpass")
