"""Narration that introduces a quote, read from the parse: "Lydia, always unguarded, boisterously exclaimed,".

The pattern reader (speech_tags.tag_before) takes the first subject-looking word of the last clause, which
fails when a clause before the verb names someone else ("for Mrs. Hale protested, and Lydia exclaimed,") or
opens with a participle ("Recovering himself, he said,"). Here the speech verb nearest the end of the
narration is found in the parse and its own subject is taken, through coordination ("laid aside his book,
and said," is said by the subject of "laid"). The same reading finds reported speech that a quote answers:
"He asked Anna whether ..." then Anna's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from strata.ingest.extractors.speech_tags import PERSON_NOUNS, SPEECH_VERBS, Tag

if TYPE_CHECKING:
    from spacy.tokens import Token

# Words the verb may still be followed by in an introduction ("said to her with a smile,").
INTRO_TAIL = 8
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_RELATIVE = frozenset({"who", "that", "which"})
_ASKING = frozenset({"ask", "inquire", "enquire", "beg", "entreat", "urge", "tell", "address", "accost", "question"})


def speech_verb(t: Token) -> bool:
    return t.pos_ in ("VERB", "AUX") and (t.lemma_.lower() in SPEECH_VERBS or t.lemma_.lower() in _ASKING)


def subject_of(verb: Token) -> Token | None:
    """The verb's subject, or the subject of the verb it is coordinated with (within one clause: never across
    a semicolon); a verb the parser coordinated with a name has that name for subject."""
    seen = 0
    while seen < 4:
        subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None and subject.lower_ in _RELATIVE and verb.dep_ == "relcl":
            return verb.head  # ‹met by Lydia, who, flying to her, cried›: the relative clause's antecedent
        if subject is not None:
            return subject
        head = verb.head
        if verb.dep_ not in ("conj", "advcl", "xcomp") or head is verb:
            return None
        lo, hi = sorted((head.i, verb.i))
        if any(t.text in (";", ":") for t in verb.doc[lo:hi]):
            return None
        if head.pos_ in ("PROPN", "NOUN", "PRON"):
            return head  # "Mrs. Grey, much offended, ... and said,": parsed as a conjunct of the name
        verb, seen = head, seen + 1
    return None


def _phrase(subject: Token) -> tuple[str, str] | None:
    """The subject as a tag reads it: ("she", "pronoun"), ("his wife", "nominal"), ("Mrs. Hale", "name")."""
    if subject.lower_ in ("he", "she"):
        return subject.lower_, "pronoun"
    if subject.lower_ == "i":
        return "I", "first"
    if subject.lower_ in PERSON_NOUNS or subject.lower_ in ("former", "latter"):
        det = next((c for c in subject.children if c.dep_ in ("poss", "det")), None)
        return (f"{det.lower_} {subject.lower_}" if det is not None else subject.lower_), "nominal"
    if subject.text[:1].isupper():
        return subject.text, "name"  # the caller reads the whole name from the parse
    return None


def intro_tag(tokens: list[Token], start: int) -> tuple[Tag, Token] | None:
    """The speech tag closing narration ``tokens`` (offsets relative to ``start``) and its subject token."""
    words = 0
    for t in reversed(tokens):
        if t.is_alpha:
            words += 1
        if words > INTRO_TAIL:
            return None
        if not speech_verb(t):
            continue
        if any(c.dep_ == "auxpass" for c in t.children):
            return None  # "whatever she wished should be said": no one says it here
        subject = subject_of(t)
        phrase = _phrase(subject) if subject is not None else None
        if subject is None or phrase is None:
            return None
        to = next((c for c in t.children if c.dep_ == "prep" and c.lower_ == "to"), None)
        target = next((c for c in to.children if c.dep_ == "pobj"), None) if to is not None else None
        return (Tag(subject=phrase[0], kind=phrase[1], start=subject.idx - start, verb=t.lower_,  # type: ignore[arg-type]
                    to=target.text if target is not None and (target.lower_ in ("him", "her")
                                                              or target.text[:1].isupper()) else None), subject)
    return None


def asked(tokens: list[Token]) -> tuple[Token, Token] | None:
    """Reported speech in the last sentence of ``tokens``: (who spoke, whom they spoke to) for "he asked Anna
    whether ..." or "she said to Tom that ..."."""
    if not tokens:
        return None
    for t in tokens[-1].sent:
        if t.idx < tokens[0].idx or not speech_verb(t):
            continue
        hearer = next((c for c in t.children if c.dep_ in ("dobj", "dative")), None)
        if hearer is None:
            to = next((c for c in t.children if c.dep_ == "prep" and c.lower_ == "to"), None)
            hearer = next((c for c in to.children if c.dep_ == "pobj"), None) if to is not None else None
        speaker = subject_of(t)
        if hearer is not None and speaker is not None:
            return speaker, hearer
    return None
