"""The people a prose window names in its narration, in reading order, and whom a pronoun or noun stands for.

Built once per window from the spaCy parse: every name outside quotes ("Mr. Bennet", "Lizzy") with its gender
(title, given name, or the title the surname carries elsewhere in the window) and whether it is a sentence
subject. Speakers are added as attribution finds them, since a speaker is whom the next "said she" most likely
means. Quote attribution (quotes.py) asks it for the latest or most recent people of a gender.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from strata.ingest.extractors.discourse import NOT_NAMES, PRONOUN_GENDER
from strata.ingest.extractors.gender import is_given_name, name_gender
from strata.ingest.extractors.person_shape import PLACE_HEADS
from strata.ingest.extractors.quote_spans import Paragraph, Utterance
from strata.ingest.extractors.speech_tags import PERSON_NOUNS, SPEECH_VERB, Tag
from strata.ingest.extractors.tag_descriptors import gender as descriptor_gender
from strata.ingest.extractors.tag_descriptors import narration_description, tagged_descriptions
from strata.resolve.lexicon import HONORIFICS, Gender

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Husband and wife share the surname under these titles ("his wife" of "Mr. Bennet" is "Mrs. Bennet").
_SPOUSE_TITLE = {"mr": "Mrs.", "mrs": "Mr."}
_SPOUSE_NOUNS = frozenset({"wife", "husband", "lady"})
_SURNAME_TITLE = re.compile(r"\b(Mr|Mrs|Miss|Ms|Sir|Lady|Lord|Colonel|Captain|Dr)\.?\s+([A-Z][a-z]+)")
# Month and day names are capitalized and some are given names too ("the 2d of August").
CALENDAR = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september",
                       "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
                       "saturday", "sunday", "michaelmas", "christmas", "easter"})
# How far back (characters) a pronoun or a person noun looks for the person it stands for.
PRONOUN_REACH = 3000
# A name of unknown gender takes the gender of the pronoun that next stands as a subject this close after it
# with nobody else named between ("Colonel Hale came in. He bowed.").
PRONOUN_GENDER_REACH = 250


@dataclass
class Mention:
    pos: int
    name: str
    gender: Gender | None
    subject: bool  # named as a sentence subject or as a speaker (what "she" most likely refers back to)


SURNAME_FROM_FULL = True  # a bare surname shares the gender known for its titled form in the window
RELEARN = True  # read the narration's pronouns again once genders are learned
NAMES_BEFORE_DESCRIPTIONS = True  # "said the old lady" stands for a named woman in reach before a description


class Window:
    """One window's text and parse, with the people named in its narration (and its speakers), in order."""

    def __init__(self, text: str, doc: Doc, paras: list[Paragraph], utterances: list[Utterance],
                 before: Sequence[str] = ()) -> None:
        """``before``: who spoke just before the window, earliest first (from its preceding text)."""
        self.text, self.doc, self.paras = text, doc, paras
        self.pieces = sorted(p for u in utterances for p in u.pieces)
        self._piece_starts = [a for a, _ in self.pieces]
        self.surnames = _surname_genders(text)
        self.learned: dict[str, Gender] = {}
        # characters named by description in the window's tags ("said the mariner"), and the gender the noun tells
        self.described = tagged_descriptions(text, SPEECH_VERB)
        self.described_gender: dict[str, Gender] = {}
        self.found_tags: dict[int, tuple[Tag, int] | None] = {}  # each quote's speech tag, read once (quotes.py)
        # speakers before the window stand at negative offsets, so they come before anything in it
        self.mentions: list[Mention] = [Mention(k - len(before), name, self.gender(name), True)
                                        for k, name in enumerate(before)]
        self._token_starts = [t.idx for t in doc]
        self._pronouns: list[Token] = []
        self._narration_mentions()
        self._learn_genders()
        if RELEARN and self.learned:
            # the pronouns read before a name's gender was learned stood for someone else (‹said Kemp› then
            # ‹He dropped the paper›): read them again, in order, with the genders learned
            at = {t.idx for t in self._pronouns}
            self.mentions = [m for m in self.mentions if m.pos not in at]
            for t in self._pronouns:
                self._pronoun_subject(t)

    def quoted(self, pos: int) -> bool:
        k = bisect.bisect_right(self._piece_starts, pos) - 1
        return k >= 0 and self.pieces[k][0] <= pos < self.pieces[k][1]

    def tokens(self, a: int, b: int) -> list[Token]:
        lo = bisect.bisect_left(self._token_starts, a)
        hi = bisect.bisect_left(self._token_starts, b)
        return [t for t in self.doc[lo:hi] if not t.is_space]

    def gender(self, name: str) -> Gender | None:
        words = name.split()
        if len(words) == 1 and self.surnames.get(words[0]) is not None:
            return self.surnames[words[0]]
        return name_gender(name) or self.learned.get(name) or self.described_gender.get(name)

    def name_at(self, t: Token) -> tuple[str, int] | None:
        """The name a token starts ("Mr." "Bennet" -> "Mr. Bennet") and the index after it, or None."""
        doc = self.doc
        i = t.i
        parts: list[Token] = []
        while i + 1 < len(doc) and is_honorific(doc[i]) and doc[_skip_space(doc, i + 1)].text[:1].isupper():
            parts.append(doc[i])
            i = _skip_space(doc, i + 1)  # a line break may fall inside a name
        while i < len(doc) and _name_word(doc[i]) and (
                parts or doc[i].pos_ == "PROPN" or doc[i].ent_type_ == "PERSON" or is_given_name(doc[i].text)):
            parts.append(doc[i])
            i = _skip_space(doc, i + 1)
        if not parts or all(is_honorific(p) for p in parts):
            return None
        name = " ".join(p.text for p in parts)
        if len(parts) > 1 and not is_honorific(parts[0]) and parts[-1].lower_ in PLACE_HEADS:
            return None  # "Peter Street", "Rochester Row": a place named after someone
        return (name, i) if name.lower() not in NOT_NAMES and name.lower() not in CALENDAR else None

    def _narration_mentions(self) -> None:
        skip_to = -1
        for t in self.doc:
            if t.lower_ in ("he", "she") and t.dep_ in ("nsubj", "nsubjpass") and not self.quoted(t.idx):
                self._pronouns.append(t)
                self._pronoun_subject(t)
                continue
            if t.i < skip_to or self.quoted(t.idx):
                continue
            if t.lower_ == "the" and (end := self._description(t)) is not None:
                skip_to = end
                continue
            if not t.text[:1].isupper():
                continue
            found = self.name_at(t)
            if found is None:
                continue
            name, skip_to = found
            if is_honorific(t) or t.ent_type_ == "PERSON" or self.gender(name) is not None:
                head = self.doc[skip_to - 1]
                subject = head.dep_ in ("nsubj", "nsubjpass") or (
                    head.dep_ == "conj" and head.head.dep_ in ("nsubj", "nsubjpass"))
                self.mentions.append(Mention(t.idx, name, self.gender(name), subject))

    def _description(self, t: Token) -> int | None:
        """A "the ..." naming a character of the window's tags ("The mariner stared"): a mention; the index
        after its head."""
        head = t.head  # the noun "the" determines: the description ends there ("The mariner stared")
        if t.dep_ != "det" or not 0 < head.i - t.i < 8:
            return None
        end = head.idx + len(head.text)
        following = self.doc[head.i + 1] if head.i + 1 < len(self.doc) else None
        if following is not None and following.dep_ == "prep" and following.head is head:
            end = following.sent.end_char  # "the man with the black beard stood": read() bounds the phrase
        described = narration_description(self.text[:end], t.idx, self.described)
        if described is None:
            return None
        told = descriptor_gender(described.head)
        if told is not None:
            self.described_gender[described.name] = told
        subject = head.dep_ in ("nsubj", "nsubjpass") or (head.dep_ == "conj" and head.head.dep_ in ("nsubj",
                                                                                                  "nsubjpass"))
        self.mentions.append(Mention(t.idx, described.name, self.gender(described.name), subject))
        return head.i + 1

    def _pronoun_subject(self, t: Token) -> None:
        """A narration "she" keeps the person it stands for in focus: the first woman named in its own
        sentence, its topic ("This made Anna smile, as she thought"; "Tom's face fell, and after a look at Bob
        he left"), else the latest woman acting before it."""
        gender = PRONOUN_GENDER[t.lower_]
        sentence_start = t.sent.start_char
        who = None
        for m in reversed(self.mentions):
            if m.pos >= t.idx:
                continue  # read again after learning genders, the later names are known already
            if m.pos < sentence_start:
                break
            if m.gender == gender:
                who = m.name  # keeps going back to the first
        who = who or self.latest(t.idx, gender)
        if who is not None:
            k = bisect.bisect_right([m.pos for m in self.mentions], t.idx)
            self.mentions.insert(k, Mention(t.idx, who, gender, True))

    def _learn_genders(self) -> None:
        """Names the text gives no gender take it from the next subject pronoun after them as a subject."""
        subjects = [t for t in self.doc if t.lower_ in ("he", "she") and t.dep_ == "nsubj" and not self.quoted(t.idx)]
        starts = [t.idx for t in subjects]
        votes: dict[str, set[Gender]] = {}
        for k, m in enumerate(self.mentions):
            if m.gender is not None or not m.subject:
                continue
            j = bisect.bisect_right(starts, m.pos)
            if j == len(subjects) or subjects[j].idx - m.pos > PRONOUN_GENDER_REACH:
                continue
            if k + 1 < len(self.mentions) and self.mentions[k + 1].pos < subjects[j].idx:
                continue  # someone else was named in between
            votes.setdefault(m.name, set()).add(PRONOUN_GENDER[subjects[j].lower_])
        self.learned = {name: next(iter(g)) for name, g in votes.items() if len(g) == 1}
        if SURNAME_FROM_FULL:
            self._surname_from_full()
        for m in self.mentions:
            if m.gender is None and m.name in self.learned:
                m.gender = self.learned[m.name]

    def _surname_from_full(self) -> None:
        """A bare name takes the gender the window knows for its fuller forms (‹said Kemp› where ‹said Dr. Kemp.
        He rent the paper› told that Dr. Kemp is a man), when they all agree."""
        told: dict[str, set[Gender | None]] = {}
        for m in self.mentions:
            words = m.name.split()
            if len(words) > 1:
                told.setdefault(words[-1], set()).add(self.gender(m.name))
        for m in self.mentions:
            words = m.name.split()
            known = {g for g in told.get(words[0], set()) if g is not None}
            if len(words) == 1 and self.gender(m.name) is None and len(known) == 1 and None not in told[words[0]]:
                self.learned[m.name] = next(iter(known))

    def is_person(self, name: str) -> bool:
        """A name the narration uses for a person (so "Recovering" at a sentence's start is none)."""
        return self.gender(name) is not None or any(m.name == name for m in self.mentions)

    def mention(self, pos: int, name: str, subject: bool = True) -> None:
        k = bisect.bisect_right([m.pos for m in self.mentions], pos)
        self.mentions.insert(k, Mention(pos, name, self.gender(name), subject))

    def latest(self, pos: int, gender: Gender | None, exclude: frozenset[str] = frozenset(),
               subject_first: bool = True) -> str | None:
        """The latest person named before ``pos`` with that gender (any when None), not in ``exclude``;
        people named as subjects (or speakers) first, since a tag's pronoun points back at the one acting."""
        rounds = (True, False) if subject_first else (False,)
        for want_subject in rounds:
            for m in reversed(self.mentions):
                if m.pos >= pos:
                    continue
                if pos - m.pos > PRONOUN_REACH:
                    break
                if m.name in exclude or (gender is not None and m.gender != gender):
                    continue
                if want_subject and not m.subject:
                    continue
                return m.name
        return None

    def in_sentence(self, pos: int, gender: Gender, since: int = 0) -> str | None:
        """The one person of ``gender`` the narration names earlier in the sentence holding ``pos``, after
        ``since`` (any role: ‹entering Emma's brain, she said›): whom a pronoun there stands for, before anyone
        named earlier. None when the sentence names two such people, a narration "she" counting as the one it
        stands for (‹She yawned; when hearing Tom speak to Anna, she said›)."""
        k = bisect.bisect_right(self._token_starts, pos) - 1
        if k < 0:
            return None
        start = max(since, self.doc[k].sent.start_char)
        named = {m.name for m in self.mentions if start <= m.pos < pos and m.gender == gender
                 and not self.quoted(m.pos)}
        return next(iter(named)) if len(named) == 1 else None

    def recent(self, pos: int, limit: int) -> list[str]:
        """Up to ``limit`` distinct people named (or speaking) before ``pos``, latest first."""
        out: list[str] = []
        for m in reversed(self.mentions):
            if m.pos >= pos:
                continue
            if pos - m.pos > PRONOUN_REACH or len(out) >= limit:
                break
            if m.gender is not None and m.name not in out:
                out.append(m.name)
        return out

    def resolve(self, tag: Tag, pos: int, avoid: frozenset[str] = frozenset(), owner: str | None = None) -> str | None:
        """Whom a tag's subject stands for, at ``pos`` in the window; ``owner``: whom "his"/"her" means when
        the caller knows ("said Mr. Hale to his wife")."""
        if tag.kind == "name":
            return tag.subject
        if tag.kind == "pronoun":
            return self.latest(pos, PRONOUN_GENDER[tag.subject.lower()], avoid)
        if tag.kind != "nominal":
            return None
        words = tag.subject.lower().split()
        noun = words[-1]
        if noun in ("former", "latter"):  # of the last two people named: "Anna and Tom ...; the former said"
            two = self.recent(pos, 2)
            return (two[-1] if noun == "former" else two[0]) if len(two) == 2 else None
        if noun not in PERSON_NOUNS:
            return None
        if owner is not None and self.gender(owner) != PRONOUN_GENDER.get(words[0]):
            owner = None
        if owner is None and words[0] in ("his", "her"):  # ‹said her companion›: "her" may be anyone of hers
            owner = self.latest(pos, PRONOUN_GENDER[words[0]], subject_first=False)
        if owner is not None and noun in _SPOUSE_NOUNS and (spouse := _spouse(owner)):
            return spouse
        exclude = avoid | ({owner} if owner else set())
        if NAMES_BEFORE_DESCRIPTIONS:
            # "said the old lady" where the window names Mrs. Bedwin and also calls her "the housekeeper":
            # the name, when one of that gender is in reach
            described = {m.name for m in self.mentions if m.name.startswith("the ")}
            named = self.latest(pos, PERSON_NOUNS[noun], frozenset(exclude | described), subject_first=False)
            if named is not None:
                return named
        return self.latest(pos, PERSON_NOUNS[noun], frozenset(exclude), subject_first=False)


def _skip_space(doc: Doc, i: int) -> int:
    while i < len(doc) - 1 and doc[i].is_space:
        i += 1
    return i


def _spouse(name: str) -> str | None:
    words = name.split()
    title = words[0].lower().rstrip(".") if len(words) > 1 else ""
    return f"{_SPOUSE_TITLE[title]} {' '.join(words[1:])}" if title in _SPOUSE_TITLE else None


def is_honorific(t: Token) -> bool:
    return t.text[:1].isupper() and t.lower_.rstrip(".") in HONORIFICS


def _name_word(t: Token) -> bool:
    return t.text[:1].isupper() and t.text.replace("'", "").replace("-", "").isalpha() and (
        t.lower_ not in NOT_NAMES) and t.pos_ in ("PROPN", "NOUN", "ADJ", "VERB") and (
        t.pos_ == "PROPN" or not t.is_sent_start)


def _surname_genders(text: str) -> dict[str, Gender | None]:
    """Gender a bare surname implies in this window: "Darcy" is a man where only "Mr. Darcy" occurs."""
    seen: dict[str, set[Gender | None]] = {}
    for title, surname in _SURNAME_TITLE.findall(text):
        seen.setdefault(surname, set()).add(HONORIFICS.get(title.lower(), (None, None))[0])
    return {s: next(iter(g)) if len(g) == 1 else None for s, g in seen.items()}
