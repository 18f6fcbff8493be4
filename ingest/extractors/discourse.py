"""Who "I", "you", "she" and "Pheebs" are inside one episode: addressing, speaker aliases, pronouns.

Pure bookkeeping over spaCy tokens, filled message by message by the offline extractor:
- the addressee of a message: the other party of a two-party chat, else the speaker a vocative names
  ("Thanks, Mel!"), else the previous (or next) other speaker;
- names a speaker goes by: vocatives addressed to them and self-introductions ("I'm Rachel", "This is
  Katelynn"), kept when the votes agree;
- third-person pronouns: the most recent mention of a compatible entity (gender from honorifics, relation
  nouns and given names), never across more than ``PRONOUN_WINDOW`` messages.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from strata.ingest.extractors.gender import is_given_name, name_gender
from strata.ingest.extractors.relation_words import NOUN_GENDER, RELATION_NOUNS, VOCATIVE_LEADS
from strata.resolve.lexicon import HONORIFICS, Gender

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

FIRST_PERSON = frozenset({"i", "me", "myself", "my", "mine"})
SECOND_PERSON = frozenset({"you", "yourself", "your", "yours"})
PRONOUN_GENDER: dict[str, Gender] = {"he": "m", "him": "m", "his": "m", "himself": "m",
                                     "she": "f", "her": "f", "hers": "f", "herself": "f"}
PRONOUN_WINDOW = 3  # messages back a pronoun may reach (a chat episode's topic moves fast)
_PUNCT_AFTER_VOCATIVE = frozenset({",", "!", ".", "?", "...", ";", ":"})
# Capitalized words that are not names when addressed ("Hey Guys", "Oh God", "Thanks, Man").
NOT_NAMES = frozenset({"god", "man", "guys", "guy", "dude", "honey", "sweetie", "babe", "baby", "buddy", "pal",
                        "sir", "madam", "ma'am", "everyone", "everybody", "all", "folks", "people", "boys", "girls",
                        "lol", "omg", "wow", "hey", "hi", "yes", "no", "okay", "ok", "thanks", "congrats", "yeah",
                        "i", "you", "we", "oh", "dear", "darling", "love", "friend", "bro", "sis", "gosh", "jeez",
                        "ha", "haha", "hmm", "um", "uh", "right", "well", "so", "look", "listen", "ugh", "mr",
                        "mrs", "ms", "miss", "hello", "yep", "yup", "nope", "woohoo", "aw", "aww", "awww", "yay",
                        "hooray", "oops", "whoa", "woah", "ooh", "geez", "duh", "eh", "huh", "phew", "ah", "hah",
                        "wo", "lmao", "btw", "thx", "ty", "np", "yo", "sup", "hiya", "howdy", "cheers",
                        "sorry", "please", "good", "great", "nice", "cool", "awesome", "amazing", "wonderful",
                        "congratulations", "welcome", "same", "true", "exactly", "absolutely", "definitely",
                        # older prose's interjections, capitalized at a quote's start like a name called
                        "hush", "pshaw", "psha", "pooh", "tut", "bah", "alas", "hark", "lo", "humph", "hem", "nay",
                        "ay", "aye", "heavens", "nonsense", "indeed", "hallo", "hullo", "halloa", "goodness",
                        "gracious", "zounds", "egad", "gad", "ahem", "fie"})  # not "Faith", "Mercy": given names


@dataclass
class Mention:
    name: str
    type: str
    gender: Gender | None
    message: int
    subject: bool = False  # the grammatical subject of its clause
    sentence: int = -1  # sentence order within the message, for narration's subject-continuity preference


@dataclass
class Discourse:
    """Per-episode state; ``speakers`` in message order (None for prose)."""

    speakers: Sequence[str | None]
    genders: dict[str, Gender] = field(default_factory=dict)
    # weighted votes (a vocative 1, an introduction 2): floats, so not a Counter
    alias_votes: dict[str, defaultdict[str, float]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    # (speaker, name): the speaker addressed someone by that name, so it is not theirs
    not_theirs: set[tuple[str, str]] = field(default_factory=set)
    person_words: set[str] = field(default_factory=set)  # words the model tagged PERSON anywhere in the episode
    third_person: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # speaker -> names said
    introduced: set[tuple[str, str]] = field(default_factory=set)  # (speaker, name): "I'm Rachel"
    vocatives: dict[int, list[str]] = field(default_factory=dict)
    _mentions: list[Mention] = field(default_factory=list)

    @property
    def parties(self) -> list[str]:
        return list(dict.fromkeys(s for s in self.speakers if s))

    def gender_of(self, name: str) -> Gender | None:
        return self.genders.get(name) or name_gender(name)

    # -- addressing ---------------------------------------------------------------------------------------
    def addressee(self, k: int) -> str | None:
        """Who message k speaks to."""
        me = self.speakers[k] if k < len(self.speakers) else None
        if me is None:
            return None
        parties = self.parties
        if len(parties) == 2 and me in parties:
            return parties[1 - parties.index(me)]
        for vocative in self.vocatives.get(k, []):
            named = self.speaker_called(vocative)
            if named and named != me:
                return named
        return self._neighbour_speaker(k)

    def _neighbour_speaker(self, k: int) -> str | None:
        me = self.speakers[k]
        for j in (k - 1, k + 1):
            if 0 <= j < len(self.speakers) and self.speakers[j] and self.speakers[j] != me:
                return self.speakers[j]
        return None

    def speaker_called(self, name: str) -> str | None:
        low = name.lower()
        for speaker in self.parties:
            if speaker.lower() == low or speaker.split()[0].lower() == low:
                return speaker
        return None

    def find_vocatives(self, k: int, doc: Doc) -> list[Token]:
        """Names (or relation nouns: "Hey mom") a message addresses: at a sentence's start after greeting
        words, or at its end after a comma. Votes the name as an alias of the addressee."""
        found: list[Token] = []
        self.person_words |= {t.lower_ for t in doc if t.ent_type_ == "PERSON"}
        for sent in doc.sents:
            tokens = [t for t in sent if not t.is_space]
            for start, end in _vocative_slots(tokens):
                found.append(tokens[end - 1])
                words = [t.text for t in tokens[start:end]]
                if tokens[end - 1].lower_ not in RELATION_NOUNS:
                    self.vocatives.setdefault(k, []).append(" ".join(words))
        me = self.speakers[k] if k < len(self.speakers) else None
        if me:  # nobody speaks of themself by name: a name a speaker says in the third person is someone else
            addressed = {t.i for t in found}
            self.third_person[me] |= {t.lower_ for t in doc if t.i not in addressed and _is_name_token(t)
                                      and t.dep_ not in ("npadvmod", "intj")}
        for name in self.vocatives.get(k, []):
            if me:
                self.not_theirs.add((me, name))
            for target, weight in self._vote_targets(k):
                if not self.speaker_called(name):
                    self.alias_votes[target][name] += weight
        return found

    def _vote_targets(self, k: int) -> list[tuple[str, float]]:
        """Whom a vocative in message k may address, with the weight of that reading. Two parties: the other
        one. More: the previous speaker when they also speak next (A-B-A), else half a vote to the previous
        and a quarter to the next: a name must be heard more than once in a crowd before it sticks."""
        me = self.speakers[k] if k < len(self.speakers) else None
        parties = self.parties
        if me is None:
            return []
        if len(parties) == 2 and me in parties:
            return [(parties[1 - parties.index(me)], 1.0)]
        before = next((self.speakers[j] for j in range(k - 1, -1, -1) if self.speakers[j] != me), None)
        after = next((self.speakers[j] for j in range(k + 1, len(self.speakers)) if self.speakers[j] != me), None)
        if before and before == after:
            return [(before, 1.0)]
        return [(s, w) for s, w in ((before, 0.5), (after, 0.25)) if s]

    def self_introduction(self, k: int, doc: Doc) -> None:
        """"I'm Rachel", "My name is Rachel": the speaker's name. ("This is Rachel" and "It's Rachel" introduce
        someone else as often as the speaker.)"""
        me = self.speakers[k] if k < len(self.speakers) else None
        if me is None:
            return
        for sent in doc.sents:
            subj = [t for t in sent if t.dep_ == "nsubj"]
            root = sent.root
            if root.lemma_ != "be" or not subj:
                continue
            s = subj[0]
            if not (s.lower_ == "i" or (s.lower_ == "name" and any(c.lower_ == "my" for c in s.children))):
                continue
            attrs = [c for c in root.children if c.dep_ == "attr" and _is_name_token(c)]
            if attrs:
                name = _name_phrase(attrs[0])
                if name.lower() != me.lower() and name.split()[0].lower() not in NOT_NAMES:
                    self.alias_votes[me][name] += 2.0
                    self.introduced.add((me, name))

    def aliases(self) -> dict[str, list[str]]:
        """Speaker -> names they go by. A name goes to the speaker with a full vote's worth and at least twice
        the votes of any other, never to a speaker who used it to address someone else, and only if it looks
        like a person's name (a known first name, or a word the model tagged as a person in this episode)."""
        by_name: dict[str, list[tuple[float, str]]] = defaultdict(list)
        for speaker, votes in self.alias_votes.items():
            for name, n in votes.items():
                said = {w.lower() for w in name.split()} & self.third_person.get(speaker, set())
                if (speaker, name) in self.introduced or (
                        (speaker, name) not in self.not_theirs and self._name_like(name) and not said):
                    by_name[name].append((n, speaker))
        out: dict[str, list[str]] = defaultdict(list)
        for name, scored in by_name.items():
            scored.sort(reverse=True)
            top, speaker = scored[0]
            runner_up = scored[1][0] if len(scored) > 1 else 0.0
            if top >= 0.5 and top >= 2 * runner_up:
                out[speaker].append(name)
        return dict(out)

    def _name_like(self, name: str) -> bool:
        words = [w for w in name.split() if w.lower().rstrip(".") not in HONORIFICS]
        # two people talking address each other: any proper noun in address is then a name
        return bool(words) and (is_given_name(words[0]) or all(w.lower() in self.person_words for w in words)
                                or len(words) < len(name.split()) or len(self.parties) == 2)

    # -- pronouns -----------------------------------------------------------------------------------------
    def mention(self, name: str, type_: str, k: int, gender: Gender | None = None, subject: bool = False,
                sentence: int = -1) -> None:
        if gender:
            self.genders.setdefault(name, gender)
        self._mentions.append(Mention(name, type_, gender or self.gender_of(name), k, subject, sentence))

    def resolve_pronoun(self, word: str, k: int, exclude: frozenset[str] = frozenset(),
                        known_only: bool = False, subject_of: int | None = None) -> str | None:
        """The most recent person a he/she/him/her/his may be: that gender or of unknown gender, other people
        before the speaker and addressee, never a name in ``exclude`` (the subject of the pronoun's own verb:
        in "Ben succeeded her", "her" is not Ben); None when nobody fits. ``known_only``: people of a known
        gender only (a novel names a dozen people a page; a name of unknown gender would catch every "his").
        ``subject_of``: the pronoun is the subject of a clause in that sentence: a narrator keeps the subject
        ("Ann met Tom at the ball. She danced with him"), so the last subject of that gender in this or the
        previous sentence comes before a more recent object."""
        gender = PRONOUN_GENDER.get(word.lower())
        if gender is None:
            return None
        me = self.speakers[k] if k < len(self.speakers) else None
        you = self.addressee(k)
        window = [m for m in reversed(self._mentions)
                  if k - m.message <= PRONOUN_WINDOW and m.type == "Person" and m.name not in exclude]
        others = [m for m in window if m.name not in (me, you)]
        if subject_of is not None:
            for m in others:
                if m.sentence < subject_of - 1:
                    break
                if m.subject and (m.gender or self.gender_of(m.name)) == gender:
                    return m.name
        for pool in (others, window):  # a speaker speaks of themself as "I": other people first
            for m in pool:
                if (m.gender or self.gender_of(m.name)) in ((gender,) if known_only else (gender, None)):
                    return m.name
        return None


def _vocative_slots(tokens: list[Token]) -> list[tuple[int, int]]:
    """(start, end) token ranges of vocative names in one sentence."""
    out = []
    i = 0
    while i < len(tokens) and (tokens[i].lower_ in VOCATIVE_LEADS or tokens[i].is_punct):
        i += 1
    end = _name_run(tokens, i)
    if end > i and (end == len(tokens) or tokens[end].text in _PUNCT_AFTER_VOCATIVE):
        out.append((i, end))
    # "..., Maria!" / "Thanks, Maria."
    j = len(tokens)
    while j > 0 and tokens[j - 1].is_punct and tokens[j - 1].text != ",":
        j -= 1
    k = j - 1
    while k > 0 and _is_name_token(tokens[k - 1]) and tokens[k - 1].lower_ not in RELATION_NOUNS:
        k -= 1
    if 0 < k < j and tokens[k - 1].text == "," and all(_is_name_token(t) or t.lower_ in RELATION_NOUNS
                                                       for t in tokens[k:j]) and (k, j) not in out:
        out.append((k, j))
    return out


def _name_run(tokens: list[Token], i: int) -> int:
    """End of a run of name tokens starting at i ("Mr. Geller", "Mel"), or a single relation noun ("mom")."""
    if i < len(tokens) and tokens[i].lower_ in RELATION_NOUNS and tokens[i].lower_ in NOUN_GENDER:
        return i + 1
    j = i
    while j < len(tokens) and _is_name_token(tokens[j]):
        j += 1
    return j


def _is_name_token(t: Token) -> bool:
    """A word that may be a name in address: a person the model tags, a known first name, or a proper noun
    that is not an interjection ("Yep!", "Woohoo!" are capitalized and tagged PROPN too)."""
    text = t.text.strip(".")
    if not text or not text[0].isupper() or t.lower_.strip(".") in NOT_NAMES - {"mr", "mrs", "ms", "miss"}:
        return False
    if t.lower_.strip(".") in HONORIFICS:
        return True
    if t.ent_type_ == "PERSON" or is_given_name(text):
        return True
    return t.pos_ == "PROPN" and len(text) > 2 and not t.is_sent_end and not t.ent_type_


def _name_phrase(t: Token) -> str:
    parts = [x for x in t.lefts if x.dep_ == "compound" and _is_name_token(x)] + [t]
    return " ".join(x.text for x in parts)
