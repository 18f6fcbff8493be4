"""Whether a verb states something that happened or holds, or only something wished, feared, supposed or asked.

"He wants to marry her", "if she married him", "no danger of his marrying her", "make Lizzy marry him",
"he would marry her": none of them marries anyone. Read off the dependency parse; pure, no state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Token

_MODALS = frozenset({"would", "could", "might", "may", "should", "shall", "will", "must", "can", "ought",
                     "'d", "'ll", "wo", "ca", "need", "dare"})
_CONDITIONAL_MARKS = frozenset({"if", "unless", "whether", "lest"})
# Verbs whose complement is wished, planned, caused or imagined rather than done ("made her marry him" is
# about the making; whether she married is for another sentence to say).
_IRREALIS_HEADS = frozenset({
    "want", "wish", "hope", "intend", "mean", "expect", "try", "plan", "refuse", "decline", "fear", "long",
    "desire", "determine", "resolve", "ask", "beg", "persuade", "urge", "make", "let", "help", "prevent",
    "forbid", "allow", "dread", "endeavour", "endeavor", "attempt", "propose", "like", "love", "prefer", "hate",
    "need", "think", "imagine", "suppose", "dream", "talk", "speak", "consider", "doubt", "wonder", "encourage",
    "advise", "tempt", "induce", "oblige", "force", "press", "bid", "order", "command", "entreat", "hesitate",
    "scruple", "threaten", "promise", "agree", "offer", "dislike", "avoid", "bear", "afraid",
    "anxious", "eager", "willing", "unwilling", "ready", "likely", "sure", "certain", "able", "unable",
})
# Nouns whose "of" clause is a possibility, not an event: "the danger of his marrying", "hopes of dancing".
_IRREALIS_NOUN_HEADS = frozenset({
    "danger", "chance", "hope", "hopes", "idea", "thought", "possibility", "prospect", "fear", "risk",
    "intention", "wish", "plan", "scheme", "probability", "likelihood", "notion", "question", "necessity",
    "pleasure", "honour", "honor", "happiness", "object", "design", "view", "point", "expectation", "dream",
})
_CLIMB = ("conj", "xcomp", "advcl", "acomp")
# Liking a doing is liking what one does: "I love living with you" lives with you ("like to dance" does not).
_HABIT_HEADS = frozenset({"like", "love", "hate", "prefer", "dislike", "enjoy"})


def is_irrealis(verb: Token) -> bool:
    """True when the verb (or a verb it is coordinated with) is modal, conditional, an infinitive, or the
    complement of a wish, a plan, a cause or a supposition. A clausal complement ("admit you liked me") is
    judged by its own head verb only: what holds around the verb that admits it does not reach it."""
    v: Token = verb
    for _ in range(4):
        if _own_irrealis(v):
            return True
        head = v.head.lemma_.lower()
        gerund_of_habit = v.tag_ == "VBG" and head in _HABIT_HEADS
        if v.dep_ in ("xcomp", "ccomp", "acomp") and head in _IRREALIS_HEADS and not gerund_of_habit:
            return True
        if v.dep_ not in _CLIMB or v.head is v:
            return False
        v = v.head
    return False


def _own_irrealis(v: Token) -> bool:
    for child in v.children:
        low = child.lower_
        if child.dep_ in ("aux", "auxpass") and (low in _MODALS or child.tag_ == "MD" or child.tag_ == "TO"):
            return True
        if child.dep_ == "mark" and low in _CONDITIONAL_MARKS:
            return True
    if v.dep_ == "pcomp" and v.head.dep_ == "prep":  # "the danger of marrying", "talked of dancing"
        owner = v.head.head
        return owner.lemma_.lower() in _IRREALIS_NOUN_HEADS or owner.lemma_.lower() in _IRREALIS_HEADS
    return False
