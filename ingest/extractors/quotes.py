"""Who says each quotation of a prose window, and to whom, offline.

Quotations come from quote_spans.py; the spaCy parse of the window supplies parts of speech, subjects and
names. A speaker is found, most reliable first:
1. a speech tag next to the quote: "said Elizabeth", "Elizabeth replied", "cried his wife", "said she"
   (a pronoun is the latest person of its gender named in the narration or speaking; "his wife" is the latest
   woman who is not the man "his" stands for);
2. the narration of the quote's own paragraph ("Elizabeth smiled. "...""): the subject of the sentence next to it;
3. turn-taking: in a run of quotes paragraph after paragraph, two people alternate, so an untagged quote is
   said by whoever spoke two turns before (or two turns after), or by the person the previous quote addressed.
The addressee is a vocative in the quote ("My dear Mr. Bennet, ..."), a "to him" in its tag, else the other
party of the exchange. Names are the forms the text uses at that point; resolution maps them to entities.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from strata.ingest.extractors.discourse import NOT_NAMES, PRONOUN_GENDER
from strata.ingest.extractors.gender import is_given_name, name_gender
from strata.ingest.extractors.quote_spans import Paragraph, Utterance, find_utterances
from strata.ingest.extractors.relation_words import NOUN_GENDER
from strata.resolve.lexicon import HONORIFICS, Gender
from strata.schema.models import ExtractedQuote, QuoteMethod, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

SPEECH_VERBS = frozenset({
    "say", "reply", "cry", "answer", "return", "add", "continue", "observe", "ask", "exclaim", "rejoin", "repeat",
    "whisper", "begin", "resume", "remark", "call", "shout", "mutter", "murmur", "declare", "insist", "interrupt",
    "inquire", "enquire", "protest", "explain", "urge", "pursue", "speak", "agree", "admit", "sigh", "laugh",
    "falter", "stammer", "retort", "persist", "conclude", "venture", "demand", "scream", "sob", "groan", "growl",
    "roar", "sing", "reason", "argue", "suggest", "respond", "announce", "exclaimed", "observed", "added", "think",
    "tell", "assure", "plead", "beg", "confess", "object", "entreat", "hint", "proceed", "go", "state", "sneer",
    "snap", "squeak", "yell", "bawl", "sniff", "moan", "wail", "chuckle", "giggle", "grumble", "complain",
    "recollect", "recommence", "pursue", "rejoice", "acknowledge", "reply", "correct", "interpose",
})
# Person nouns that tell gender, for tags like "cried his wife" or "said the lady".
PERSON_NOUNS: dict[str, Gender | None] = {
    **NOUN_GENDER, "lady": "f", "gentleman": "m", "woman": "f", "man": "m", "mistress": "f", "master": "m",
    "king": "m", "queen": "f", "duchess": "f", "duke": "m", "girl": "f", "boy": "m", "child": None,
    "friend": None, "cousin": None, "companion": None, "visitor": None, "guest": None, "stranger": None,
    "servant": None, "housekeeper": "f", "maid": "f", "footman": "m", "officer": "m", "colonel": "m",
    "captain": "m", "doctor": None, "host": "m", "hostess": "f", "creature": None, "voice": None,
}
_NAME_PUNCT = frozenset({",", "!", "?", ".", ";", ":", "--", "—"})
_VOCATIVE_LEADS = frozenset({"dear", "dearest", "my", "oh", "o", "ah", "well", "yes", "no", "nay", "pray", "ay"})
_SURNAME_TITLE = re.compile(r"\b(Mr|Mrs|Miss|Ms|Sir|Lady|Lord|Colonel|Captain|Dr)\.?\s+([A-Z][a-z]+)")
# How many paragraphs may sit between two quotes of one exchange (a short narration between two turns).
EXCHANGE_GAP = 2
# How far back (characters) a pronoun or a relation noun looks for the person it stands for.
PRONOUN_REACH = 3000
CONFIDENCE: dict[str, float] = {"name": 0.9, "pronoun": 0.75, "nominal": 0.6, "narration": 0.6, "turn": 0.5}


@dataclass
class _Mention:
    pos: int
    name: str
    gender: Gender | None


@dataclass
class _Said:
    """What attribution learned about one utterance."""

    utterance: Utterance
    speaker: str | None = None
    method: QuoteMethod | None = None
    confidence: float = 0.0
    addressee: str | None = None  # from a vocative or a "to him" in the tag
    vocative: bool = False
    addressees: list[str] = field(default_factory=list)


class _Window:
    """One window's text, parse and running record of who was named where (narration and speakers only)."""

    def __init__(self, text: str, doc: Doc, paras: list[Paragraph], utterances: list[Utterance]) -> None:
        self.text, self.doc, self.paras = text, doc, paras
        self.pieces = sorted(p for u in utterances for p in u.pieces)
        self._piece_starts = [a for a, _ in self.pieces]
        self.surnames = _surname_genders(text)
        self.mentions: list[_Mention] = []
        self._token_starts = [t.idx for t in doc]
        self._narration_mentions()

    # -- positions --------------------------------------------------------------------------------------
    def quoted(self, pos: int) -> bool:
        k = bisect.bisect_right(self._piece_starts, pos) - 1
        return k >= 0 and self.pieces[k][0] <= pos < self.pieces[k][1]

    def tokens(self, a: int, b: int) -> list[Token]:
        lo = bisect.bisect_left(self._token_starts, a)
        hi = bisect.bisect_left(self._token_starts, b)
        return [t for t in self.doc[lo:hi] if not t.is_space]

    # -- names ------------------------------------------------------------------------------------------
    def gender(self, name: str) -> Gender | None:
        words = name.split()
        if len(words) == 1 and words[0] in self.surnames:
            return self.surnames[words[0]]
        return name_gender(name)

    def name_at(self, t: Token) -> tuple[str, int] | None:
        """The name a token starts ("Mr." "Bennet" -> "Mr. Bennet") and the index after it, or None."""
        doc = self.doc
        i = t.i
        parts: list[Token] = []
        while i < len(doc) and _is_honorific(doc[i]) and i + 1 < len(doc) and doc[i + 1].text[:1].isupper():
            parts.append(doc[i])
            i += 1
        while i < len(doc) and _name_word(doc[i]) and (parts or doc[i].pos_ == "PROPN" or doc[i].ent_type_ == "PERSON"
                                                        or is_given_name(doc[i].text)):
            parts.append(doc[i])
            i += 1
            if doc[i - 1].text[-1:] in ",;":
                break
        if not parts or _is_honorific(parts[-1]) or all(_is_honorific(p) for p in parts):
            return None
        name = " ".join(p.text for p in parts)
        if name.lower() in NOT_NAMES:
            return None
        return name, i

    def _narration_mentions(self) -> None:
        skip_to = -1
        for t in self.doc:
            if t.i < skip_to or self.quoted(t.idx) or not t.text[:1].isupper():
                continue
            found = self.name_at(t)
            if found is None:
                continue
            name, skip_to = found
            if _is_honorific(t) or t.ent_type_ == "PERSON" or self.gender(name) is not None:
                self.mentions.append(_Mention(t.idx, name, self.gender(name)))

    def mention(self, pos: int, name: str) -> None:
        k = bisect.bisect_right([m.pos for m in self.mentions], pos)
        self.mentions.insert(k, _Mention(pos, name, self.gender(name)))

    def latest(self, pos: int, gender: Gender | None, exclude: frozenset[str] = frozenset()) -> str | None:
        """The latest person named before ``pos`` of that gender (any gender when None), not in ``exclude``."""
        for m in reversed(self.mentions):
            if m.pos >= pos:
                continue
            if pos - m.pos > PRONOUN_REACH:
                return None
            if m.name in exclude or (gender is not None and m.gender != gender):
                continue
            return m.name
        return None

    # -- reading a subject --------------------------------------------------------------------------------
    def referent(self, t: Token, avoid: frozenset[str] = frozenset()) -> tuple[str, str] | None:
        """(name, kind) a subject token stands for; kind is name, pronoun or nominal."""
        low = t.lower_
        if low in ("he", "she"):
            who = self.latest(t.idx, PRONOUN_GENDER[low], avoid)
            return (who, "pronoun") if who else None
        if t.text[:1].isupper() and (found := self._name_around(t)):
            return found, "name"
        if t.pos_ == "NOUN" and t.lemma_.lower() in PERSON_NOUNS:
            gender = PERSON_NOUNS[t.lemma_.lower()]
            owner = next((c for c in t.children if c.dep_ == "poss"), None)
            exclude = set(avoid)
            if owner is not None and owner.lower_ in PRONOUN_GENDER:
                if (who := self.latest(owner.idx, PRONOUN_GENDER[owner.lower_])) is not None:
                    exclude.add(who)
            elif owner is not None and (name := self._name_around(owner)):
                exclude.add(name)
            who = self.latest(t.idx, gender, frozenset(exclude))
            return (who, "nominal") if who else None
        return None

    def _name_around(self, t: Token) -> str | None:
        """The whole name a token belongs to ("Bennet" in "Mr. Bennet")."""
        start = t
        while start.i > 0 and (_is_honorific(self.doc[start.i - 1]) or (
                self.doc[start.i - 1].pos_ == "PROPN" and _name_word(self.doc[start.i - 1]))):
            start = self.doc[start.i - 1]
        found = self.name_at(start)
        return found[0] if found else None


def _is_honorific(t: Token) -> bool:
    return t.text[:1].isupper() and t.lower_.rstrip(".") in HONORIFICS


def _name_word(t: Token) -> bool:
    return (t.text[:1].isupper() and t.text.replace("'", "").replace("-", "").isalpha()
            and t.lower_ not in NOT_NAMES and t.pos_ in ("PROPN", "NOUN", "ADJ", "VERB") and not t.is_sent_start
            ) or (t.pos_ == "PROPN" and t.text[:1].isupper() and t.lower_ not in NOT_NAMES)


def _surname_genders(text: str) -> dict[str, Gender | None]:
    """Gender a bare surname implies in this window: "Darcy" is a man where only "Mr. Darcy" occurs."""
    seen: dict[str, set[Gender | None]] = {}
    for title, surname in _SURNAME_TITLE.findall(text):
        seen.setdefault(surname, set()).add(HONORIFICS.get(title.lower(), (None, None))[0])
    return {s: next(iter(g)) if len(g) == 1 else None for s, g in seen.items()}


def _speech_verb(t: Token) -> bool:
    return t.pos_ in ("VERB", "AUX") and t.lemma_.lower() in SPEECH_VERBS


def _tag_in(win: _Window, a: int, b: int, nearest_end: bool) -> tuple[Token, Token | None] | None:
    """A speech verb of the narration between a and b and its subject token (None when it has none)."""
    tokens = win.tokens(a, b)
    verbs = [t for t in tokens if _speech_verb(t)]
    if not verbs:
        return None
    verb = verbs[-1] if nearest_end else verbs[0]
    inside = {t.i for t in tokens}
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and c.i in inside), None)
    if subject is None:  # inversion: "said Elizabeth", "cried his wife", "said she"
        after = [t for t in tokens if t.i > verb.i and t.pos_ not in ("ADV", "PUNCT")]
        if after and (after[0].lower_ in ("he", "she") or after[0].text[:1].isupper()):
            subject = after[0]
        elif after and after[0].pos_ in ("DET", "PRON") and len(after) > 1 and after[1].pos_ in ("NOUN", "ADJ"):
            subject = next((t for t in after[1:4] if t.pos_ == "NOUN"), None)
    return verb, subject


def _tag_addressee(win: _Window, verb: Token, speaker: str) -> str | None:
    """"said his lady to him", "replied Jane to her sister": whom the tag says the words were for."""
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "to"):
        for obj in (c for c in prep.children if c.dep_ == "pobj"):
            if obj.lower_ in ("him", "her"):
                return win.latest(obj.idx, PRONOUN_GENDER[obj.lower_], frozenset({speaker}))
            found = win.referent(obj, frozenset({speaker}))
            if found:
                return found[0]
    return None


def _regions(win: _Window, u: Utterance) -> tuple[list[tuple[int, int]], tuple[int, int], tuple[int, int]]:
    """The narration inside an utterance's paragraphs: between its pieces, before the first, after the last."""
    first, last = win.paras[u.paragraphs[0]], win.paras[u.paragraphs[-1]]
    inner = [(u.pieces[k][1], u.pieces[k + 1][0]) for k in range(len(u.pieces) - 1)
             if _same_paragraph(win, u.pieces[k][1], u.pieces[k + 1][0])]
    return inner, (first.start, u.start), (u.end, last.end)


def _same_paragraph(win: _Window, a: int, b: int) -> bool:
    return "\n\n" not in win.text[a:b] and not re.search(r"\n\s*\n", win.text[a:b])


def _from_tag(win: _Window, u: Utterance, said: _Said) -> None:
    inner, before, after = _regions(win, u)
    options: list[tuple[tuple[int, int], bool]] = [(r, False) for r in inner]
    options.append((after, False))
    options.append((before, True))
    for (a, b), nearest_end in options:
        if b <= a:
            continue
        # a tag after the quote belongs to it only when it opens the narration ("..." said she, not a later clause)
        if (a, b) == after and not _opens_with_tag(win, a, b):
            continue
        if (a, b) == before and not _ends_with_tag(win, a, b):
            continue
        found = _tag_in(win, a, b, nearest_end)
        if found is None or found[1] is None:
            continue
        verb, subject = found
        who = win.referent(subject)
        if who is None:
            continue
        said.speaker, kind = who
        said.method, said.confidence = "tag", CONFIDENCE[kind]
        said.addressee = _tag_addressee(win, verb, said.speaker)
        return


def _opens_with_tag(win: _Window, a: int, b: int) -> bool:
    """The narration right after a quote starts with its tag: within the first clause."""
    tokens = win.tokens(a, b)[:8]
    for t in tokens:
        if _speech_verb(t):
            return True
        if t.text in (".", "!", "?", ";") and t.i > tokens[0].i:
            return False
    return False


def _ends_with_tag(win: _Window, a: int, b: int) -> bool:
    """Narration before a quote introduces it: its last clause has a speech verb ("Jane answered:")."""
    tokens = win.tokens(a, b)
    for t in reversed(tokens[-10:]):
        if _speech_verb(t):
            return True
        if t.text in (".", "!", "?") and t.i != tokens[-1].i:
            return False
    return False


def _from_narration(win: _Window, u: Utterance, said: _Said) -> None:
    """No tag: the person the quote's own paragraph is about in the sentence next to the quote."""
    _, before, after = _regions(win, u)
    for (a, b), last in ((before, True), (after, False)):
        tokens = win.tokens(a, b)
        if not tokens:
            continue
        sents = list(dict.fromkeys(t.sent for t in tokens))
        sent = sents[-1] if last else sents[0]
        for t in sent:
            if a <= t.idx < b and t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT":
                who = win.referent(t)
                if who is not None:
                    said.speaker, said.method, said.confidence = who[0], "narration", CONFIDENCE["narration"]
                    return


def _vocative(win: _Window, u: Utterance) -> str | None:
    """A name the quote addresses: at a piece's start or after "my dear", or set off by commas."""
    for a, b in u.pieces:
        tokens = win.tokens(a, b)
        for n, t in enumerate(tokens):
            if not t.text[:1].isupper():
                continue
            prev = tokens[n - 1] if n else None
            if prev is not None and prev.text not in (",", "!", "--", "—") and prev.lower_ not in _VOCATIVE_LEADS:
                continue
            if prev is not None and prev.lower_ in _VOCATIVE_LEADS and prev.lower_ not in ("dear", "dearest") and (
                    n > 1 and tokens[n - 2].text not in (",", "!")):
                continue
            found = win.name_at(t)
            if found is None:
                continue
            name, end = found
            after = win.doc[end] if end < len(win.doc) else None
            if after is None or after.text in _NAME_PUNCT or after.idx >= b:
                if _is_honorific(t) or win.gender(name) is not None or t.ent_type_ == "PERSON":
                    return name
    return None


def _close(win: _Window, earlier: Utterance, later: Utterance) -> bool:
    return later.paragraphs[0] - earlier.paragraphs[-1] <= EXCHANGE_GAP


def _turns(win: _Window, said: list[_Said]) -> None:
    """Fill untagged quotes from the alternation of an exchange, forward then backward, until nothing moves."""
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(said):
            if s.speaker is not None:
                continue
            who = _turn_guess(win, said, i, -1) or _turn_guess(win, said, i, +1)
            if who is not None:
                s.speaker, s.method, s.confidence = who, "turn", CONFIDENCE["turn"]
                changed = True


def _turn_guess(win: _Window, said: list[_Said], i: int, step: int) -> str | None:
    j, k = i + step, i + 2 * step
    if not 0 <= j < len(said):
        return None
    near = said[j]
    first, second = (said[j], said[i]) if step < 0 else (said[i], said[j])
    if near.speaker is None or not _close(win, first.utterance, second.utterance):
        return None
    mine = said[i].addressee if said[i].vocative else None
    if step < 0 and near.addressee and near.addressee != near.speaker and near.addressee != mine:
        return near.addressee  # the previous quote spoke to this person: they answer
    if 0 <= k < len(said) and said[k].speaker and said[k].speaker != near.speaker:
        pair = (said[k], said[j]) if step < 0 else (said[j], said[k])
        if _close(win, pair[0].utterance, pair[1].utterance) and said[k].speaker != mine:
            return said[k].speaker
    if step > 0 and near.addressee and near.addressee != near.speaker and near.vocative and near.addressee != mine:
        return near.addressee  # the next quote answers this one by name
    return None


def _addressees(said: list[_Said], win: _Window) -> None:
    for i, s in enumerate(said):
        if s.speaker is None:
            continue
        if s.addressee and s.addressee != s.speaker:
            s.addressees = [s.addressee]
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(said) and said[j].speaker and said[j].speaker != s.speaker:
                first, second = (said[j], s) if j < i else (s, said[j])
                if _close(win, first.utterance, second.utterance):
                    s.addressees = [said[j].speaker]
                    break


def find_quotes(text: str, doc: Doc) -> list[ExtractedQuote]:
    """Every quotation of a prose window with its speaker and addressees (None / [] when unknown)."""
    paras, utterances = find_utterances(text)
    if not utterances:
        return []
    win = _Window(text, doc, paras, utterances)
    said: list[_Said] = []
    for u in utterances:
        s = _Said(u)
        _from_tag(win, u, s)
        if s.speaker is None:
            _from_narration(win, u, s)
        vocative = _vocative(win, u)
        if vocative and vocative != s.speaker:
            s.addressee, s.vocative = vocative, True
        if s.speaker is not None:
            win.mention(u.start, s.speaker)  # a speaker is the latest person named for the next "said she"
        said.append(s)
    _turns(win, said)
    _addressees(said, win)
    return [
        ExtractedQuote(text=s.utterance.text(text), start=s.utterance.start, end=s.utterance.end,
                       spans=[Span(start=a, end=b) for a, b in s.utterance.pieces], speaker=s.speaker,
                       addressees=s.addressees, method=s.method, confidence=s.confidence)
        for s in said if s.utterance.text(text)
    ]
