"""What a question asks of a slot: "Who is the CEO of Walmart?", "Where does Maya live?". Pure.

A question about who or what holds ("who is / was / serves as the ROLE of ORG", "ORG's ROLE", "where does X
live", "who does X work for", "which team does X play for", "who is X married to") names a slot: an office
(organization, role) through the role lexicon (resolve/roles.py), or (subject, predicate) through the frames
below (data). Search answers it first with the slot's fact at the time asked (memory/answers.py); any
other question gives None and is searched as before.
"""

from __future__ import annotations

import re
from typing import Literal

from strata.resolve.lexicon import NAME_ABBREVIATIONS
from strata.resolve.roles import OFFICE_PREDICATE, Roles, fold_words
from strata.schema.models import Frozen

# Questions that ask about a subject's slot: (pattern with a "who" group, predicate). Tried in order.
SUBJECT_FRAMES: tuple[tuple[str, str], ...] = (
    (r"where (?:does|did|do) (?P<who>.+?) (?:currently |now |still )?(?:live|reside|stay|call home)\b", "lives_in"),
    (r"where(?:'s|’s| is| was| are| were) (?P<who>.+?) (?:currently |now )?(?:living|residing|based|staying)\b",
     "lives_in"),
    (r"(?:what|which) (?:city|town|country|place) (?:does|did) (?P<who>.+?) (?:live|reside) in\b", "lives_in"),
    (r"(?:what|which) (?:city|town|country|place) (?:is|was) (?P<who>.+?) (?:currently |now )?(?:living|"
     r"residing|based|staying) in\b", "lives_in"),
    (r"where (?:is|was) (?P<who>.+?)'s? (?:home|house)\b", "lives_in"),
    (r"(?:who|which company|what company|which organi[sz]ation|what organi[sz]ation|which firm) (?:does|did) "
     r"(?P<who>.+?) (?:currently |now )?work (?:for|at)\b", "employed_by"),
    (r"where (?:does|did) (?P<who>.+?) (?:currently |now )?work\b", "employed_by"),
    (r"where(?:'s|’s| is| was) (?P<who>.+?) (?:currently |now )?(?:employed\b|working(?=\s*(?:[?.!]|$|now\b|"
     r"these days|currently|at the moment|at present|today)))", "employed_by"),
    (r"(?:who|which company|what company|which firm|what firm|which organi[sz]ation|what organi[sz]ation) "
     r"(?:currently |now )?(?:employs|employed|hired) (?P<who>[^?]+)", "employed_by"),
    (r"who (?:is|was) (?P<who>.+?)'s? (?:employer|company)\b", "employed_by"),
    (r"(?:which|what|who) (?:team|club|side) (?:does|did) (?P<who>.+?) (?:currently |now )?play (?:for|with)\b",
     "plays_for"),
    (r"who (?:does|did) (?P<who>.+?) (?:currently |now )?play for\b", "plays_for"),
    (r"(?:which|what) (?:team|club|side) (?:is|was) (?P<who>.+?) (?:currently |now )?(?:on|in|with|playing for|"
     r"playing with)\b", "plays_for"),
    (r"who (?:is|was) (?P<who>.+?) (?:currently |now )?married to\b", "spouse_of"),
    (r"who (?:is|was) (?P<who>.+?)'s? (?:wife|husband|spouse)\b", "spouse_of"),
    (r"who (?:is|was) (?P<who>.+?) (?:currently |now )?(?:dating|seeing|going out with|together with)\b",
     "partner_of"),
    (r"who (?:is|was) (?P<who>.+?)'s? (?:girlfriend|boyfriend|partner)\b", "partner_of"),
)
_SUBJECT = [(re.compile(p, re.IGNORECASE), predicate) for p, predicate in SUBJECT_FRAMES]
# Words (folded) with which people report a change of each subject slot: a report naming the person and one of
# these speaks of that slot (memory/answers.py reads the reports the graph could not).
PREDICATE_WORDS: dict[str, frozenset[str]] = {
    "lives_in": frozenset({"live", "lives", "living", "lived", "move", "moved", "moving", "relocated", "relocate",
                           "home", "settled", "flat", "apartment", "house", "resides", "resident"}),
    # ("joined" and "started" are left out: a team and a job are both joined)
    "employed_by": frozenset({"work", "works", "working", "worked", "job", "hired", "employer", "employed",
                              "recruited", "company", "position", "staff"}),
    "plays_for": frozenset({"team", "club", "signed", "signing", "transfer", "transferred", "plays", "playing",
                            "striker", "midfielder", "defender", "goalkeeper", "squad"}),
    "spouse_of": frozenset({"married", "marry", "marries", "wife", "husband", "wed", "wedding", "spouse", "knot",
                            "engaged"}),
    "partner_of": frozenset({"dating", "girlfriend", "boyfriend", "partner", "together", "seeing"}),
}
# Words that ask who holds something ("which individual", "name the person", "identify the person holding").
_ASKS_WHO = re.compile(r"\b(who|whom|whose|which (?:person|individual|leader|one)|name the|identify the|"
                       r"tell me the (?:name|person))\b", re.IGNORECASE)
# Where an organization's name ends in a question: a time phrase, "right now", punctuation; a period unless a
# title's ("dr. smith") or, before a capital, an initial's or a short abbreviation's ("Kenji W. Gomez", "J.P.
# Morgan", "Ft. Worth").
_PERIOD_ENDS = ("".join(rf"(?<!\b{a})" for a in NAME_ABBREVIATIONS)
                + r"(?:(?<!(?-i:\b[A-Z]))(?<!(?-i:\b[A-Z][a-z]))(?<!(?-i:\b[A-Z][a-z]{2}))\.|\.(?!\s?(?-i:[A-Z])))")
_ORG_END = re.compile(r"\s*(?:[?,;!]|" + _PERIOD_ENDS + r"|\b(?:right now|at present|at the moment|currently|"
                      r"nowadays|today|now|these days|as of|in (?:the year )?(?:19|20)\d\d|during|on \w+ \d|back in|"
                      r"before|after|since|at that time|then)\b).*$", re.IGNORECASE)
_OF = re.compile(r"^\s*(?:of|for|at|in)\s+(?P<org>.+)$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"(?P<org>(?:[A-Z][\w.&\-]*\s?)+)(?:'s|’s)\s*$")
_WORD = re.compile(r"[\w'’\-.&]+")


class StateQuestion(Frozen):
    """A question about a slot: an office (``org``, ``role``) or a subject's (``subject``, ``predicate``)."""

    kind: Literal["office", "subject"]
    predicate: str
    role: str | None = None
    org: str | None = None
    subject: str | None = None


def state_question(text: str, lexicon: Roles) -> StateQuestion | None:
    """The slot a question asks about, or None."""
    q = " ".join(text.split())
    for pattern, predicate in _SUBJECT:
        if m := pattern.search(q):
            who = _clean(_ORG_END.sub("", m.group("who")))  # "employs Ann at the moment": Ann
            if _person_named(who):
                return StateQuestion(kind="subject", predicate=predicate, subject=who)
    if not _ASKS_WHO.search(q):
        return None
    words = list(_WORD.finditer(q))
    for i in range(len(words)):
        for n in range(min(lexicon.longest + 2, len(words) - i), 0, -1):
            span = q[words[i].start():words[i + n - 1].end()]
            if fold_words(span).split()[0] in ("the", "a", "an", "new", "current"):
                continue
            role = lexicon.known(span)
            if not lexicon.office(role):  # "the striker of X" asks no office
                continue
            after, before = q[words[i + n - 1].end():], q[:words[i].start()]
            org = None
            if m := _OF.match(_ORG_END.sub("", after)):  # "Austria's president in 1999": no org after
                org = _clean(m.group("org"))
            if not org and (p := _POSSESSIVE.search(before.rstrip())):
                org = _clean(p.group("org"))
            if not org:  # "the Walmart CEO"
                lead = [w.group() for w in words[:i] if w.group()[:1].isupper() and w.group().lower() not in (
                    "who", "which", "the", "what", "name", "tell", "can", "could", "identify")]
                org = _clean(" ".join(lead[-3:])) if lead else None
            if org:
                return StateQuestion(kind="office", predicate=OFFICE_PREDICATE, role=role, org=org)
    return None


# Words that make "where does X want to live" a question about a wish, not about where X lives.
_NOT_A_NAME = frozenset({"you", "i", "we", "they", "he", "she", "it", "want", "wants", "plan", "plans", "hope",
                         "like", "need", "intend", "prefer", "wish", "used", "going", "try", "to", "usually",
                         "ever", "first", "eventually"})


def _person_named(who: str) -> bool:
    words = who.lower().split()
    return 0 < len(words) <= 5 and not any(w in _NOT_A_NAME for w in words)


def _clean(text: str) -> str:
    words = text.strip(" ?.,;:!'\"").split()
    while words and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    out = " ".join(words)
    return out[:-2] if out.endswith(("'s", "’s")) else out
