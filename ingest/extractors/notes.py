"""Self-contained memory notes: a memory-worthy sentence rewritten to stand alone.

"I went to the climbing gym yesterday", said by Tom on 8 May 2023, becomes "Tom went to the climbing gym on
7 May 2023": first and second person replaced by the speaker's and the addressee's names (with the verb
agreeing), resolved pronouns by names, relative dates by absolute ones. Questions, greetings, thanks and
reactions ("That sounds great!") are not memory-worthy and give no note.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from strata.ingest.extractors.discourse import FIRST_PERSON, SECOND_PERSON
from strata.ingest.extractors.relation_words import EMPTY_OBJECTS

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan
    from spacy.tokens import Token

MIN_WORDS = 4
# Nouns that carry no memory on their own ("Thanks for the tip, good luck with the move!" still has "move").
_PHATIC_NOUNS = frozenset({"thanks", "luck", "news", "congrats", "congratulations", "lol", "haha", "wow", "pic",
                           "picture", "photo", "care", "bye", "day", "night", "morning", "idea", "question",
                           "answer", "problem", "worries", "worry", "pleasure", "talk", "chat", "glad", "fun",
                           "job", "man", "guys", "dude", "hug", "hugs", "xoxo", "mind", "sense", "feeling",
                           "feelings", "energy", "vibe", "vibes", "way", "effort", "update", "updates",
                           *EMPTY_OBJECTS})
# Sentence heads that make a reaction or a courtesy rather than a statement.
_PHATIC_HEADS = frozenset({"thank", "sound", "look", "seem", "hope", "wish", "glad", "congratulate", "bet",
                           "guess", "mean", "know", "see", "agree", "welcome", "miss", "love", "appreciate"})
_LEADS = frozenset({"hey", "hi", "hello", "yeah", "yes", "oh", "wow", "well", "so", "ok", "okay", "haha", "lol"})
_VAGUE_SUBJECTS = frozenset({"that", "this", "it", "which", "what", "there", "those", "these"})
_RELATIVE_DATE = re.compile(r"\b(yesterday|today|tonight|tomorrow|last|next|this|ago|recently|earlier)\b", re.I)
_THIRD_PERSON = {"am": "is", "'m": "is", "are": "is", "'re": "is", "were": "was", "have": "has", "'ve": "has",
                 "do": "does"}


def memory_worthy(sent: SpacySpan, named: set[int], implicit_subject: bool = False) -> bool:
    """A statement about someone, with substance: not a question, long enough, naming a person (a name, "I",
    "you", a resolved pronoun or a dropped "I") and holding a content noun, a name or a number."""
    text = sent.text.strip()
    if not text or text.endswith("?"):
        return False
    personal = implicit_subject or any(t.i in named or t.lower_ in FIRST_PERSON or t.lower_ in SECOND_PERSON
                                       for t in sent)
    if not personal:
        return False
    words = [t for t in sent if any(c.isalpha() for c in t.text)]
    if len(words) < MIN_WORDS:
        return False
    content = [t for t in sent if (t.pos_ in ("NOUN", "PROPN", "NUM") and t.lower_ not in _PHATIC_NOUNS)
               or t.i in named or (t.ent_type_ in ("DATE", "GPE", "ORG", "PERSON", "EVENT", "FAC", "LOC")
                                   and t.lower_ not in _PHATIC_NOUNS)]
    if not content:
        return False
    root = sent.root
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if root.lemma_.lower() in _PHATIC_HEADS and len(content) < 2:
        return False
    # "That sounds like a great plan": a reaction about the other's words, nothing to remember
    return not (subjects and subjects[0].lower_ in _VAGUE_SUBJECTS and root.lemma_ in ("be", "sound", "look", "seem")
                and not any(t.i in named or t.ent_type_ for t in sent))


def rewrite(sent: SpacySpan, speaker: str | None, addressee: str | None, pronouns: Mapping[int, str],
            date_phrases: Mapping[tuple[int, int], datetime], implicit_subject: bool,
            vocatives: frozenset[int] = frozenset()) -> str:
    """The sentence with persons named and relative dates made absolute; greetings and vocatives dropped."""
    replaced_subject: set[int] = set()  # verbs whose subject "I"/"you" became a name
    agreed: set[int] = set()
    out: list[str] = []
    skip_until = -1
    tokens = list(sent)
    lead = 0
    while lead < len(tokens) - 1 and (tokens[lead].pos_ == "INTJ" or tokens[lead].is_punct
                                      or tokens[lead].i in vocatives or tokens[lead].lower_ in _LEADS):
        lead += 1  # "Yeah, ...", "Hey John, ..." add nothing
    for pos, t in enumerate(tokens[lead:], start=lead):
        if t.i < skip_until:
            continue
        date = next(((s, e, d) for (s, e), d in date_phrases.items() if s == t.i), None)
        if date is not None and _RELATIVE_DATE.search(sent.doc[date[0]:date[1]].text):
            s, e, when = date
            absolute = _absolute(sent.doc[s:e].text, when)
            if _is_subject(sent.doc[s:e].root):  # "Last week was wild" -> "The week of ... was wild"
                absolute = absolute.split(" ", 1)[1]
            out.append(absolute + sent.doc[e - 1].whitespace_)
            skip_until = e
            continue
        word = _replacement(t, speaker, addressee, pronouns)
        if word is not None and t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in ("i", "you"):
            replaced_subject.add(t.head.i)
        if word is None:
            word = t.text
            verb = t.i if t.i in replaced_subject else t.head.i if t.dep_ in ("aux", "auxpass") else None
            if verb in replaced_subject and verb not in agreed:
                agreed.add(verb)
                word = _agree(t)
        if pos == lead and implicit_subject and speaker:
            first = word if t.pos_ == "PROPN" else word[:1].lower() + word[1:]
            # "Been busy" -> "Maria has been busy"; "Trying to ..." -> "John is trying to ..."
            helper = {"VBN": "has ", "VBG": "is "}.get(t.tag_, "") if t.lower_ not in ("got", "had") else ""
            word = f"{speaker} {helper}{first}"
        out.append(word + t.whitespace_)
    text = "".join(out).strip()
    return text[:1].upper() + text[1:]


def _is_subject(t: Token) -> bool:
    """The phrase is its clause's subject, or stands where a subject is missing ("Last week was wild", which the
    parser reads as an adverb of a subjectless "was")."""
    if t.dep_ in ("nsubj", "nsubjpass"):
        return True
    return t.dep_ == "npadvmod" and t.i < t.head.i and not any(
        c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.head.children)


def _replacement(t: Token, speaker: str | None, addressee: str | None, pronouns: Mapping[int, str]) -> str | None:
    low = t.lower_
    if speaker and low in FIRST_PERSON:
        return f"{speaker}'s" if low in ("my", "mine") else speaker
    if addressee and low in SECOND_PERSON:
        return f"{addressee}'s" if low in ("your", "yours") or t.dep_ == "poss" else addressee
    if t.i in pronouns:
        name = pronouns[t.i]
        return f"{name}'s" if t.dep_ == "poss" or low in ("his", "hers") else name
    return None


def _agree(t: Token) -> str:
    """Third-person singular for a verb whose subject "I"/"you" became a name."""
    low = t.lower_
    if low in _THIRD_PERSON:
        return (" " if low.startswith("'") else "") + _THIRD_PERSON[low]
    if t.tag_ != "VBP":
        return t.text
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return t.text + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return t.text[:-1] + "ies"
    return t.text + "s"


def _absolute(phrase: str, when: datetime) -> str:
    """"yesterday" -> "on 7 May 2023", "last year" -> "in 2022", "last month" -> "in April 2023"."""
    low = phrase.lower()
    if "year" in low or re.search(r"\b(1[5-9]|20)\d\d\b", low):
        return f"in {when.year}"
    if "month" in low:
        return f"in {when:%B} {when.year}"
    if "week" in low and "ago" not in low:
        return f"in the week of {when.day} {when:%B} {when.year}"
    return f"on {when.day} {when:%B} {when.year}"
