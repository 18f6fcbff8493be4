"""Who says each quotation of a prose window, and to whom, offline.

Quotations come from quote_spans.py, speech tags from speech_tags.py; the spaCy parse of the window supplies
the people named in the narration (never inside quotes) and sentence subjects. A speaker is found, most
reliable first:
1. a speech tag next to the quote: "said Elizabeth", "Elizabeth replied", "cried his wife", "said she"
   (a pronoun is the latest person of its gender named as a subject in the narration or speaking; "his wife"
   is the latest woman who is not the man "his" stands for, or "Mrs. X" when "his" is "Mr. X");
2. the narration of the quote's own paragraph ("Elizabeth smiled. "...""): the subject next to the quote;
3. turn-taking: in a run of quotes paragraph after paragraph two people alternate, so an untagged quote is
   said by the anchor two turns away, or by the other party (whom an anchor addressed or who spoke in the run).
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
from strata.ingest.extractors.speech_tags import PERSON_NOUNS, Tag, tag_after, tag_before
from strata.resolve.lexicon import HONORIFICS, Gender
from strata.schema.models import ExtractedQuote, QuoteMethod, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Husband and wife share the surname under these titles ("his wife" of "Mr. Bennet" is "Mrs. Bennet").
_SPOUSE_TITLE = {"mr": "Mrs.", "mrs": "Mr."}
_SPOUSE_NOUNS = frozenset({"wife", "husband", "lady"})
_VOCATIVE_LEADS = frozenset({"dear", "dearest", "my", "oh", "o", "ah", "well", "yes", "no", "nay", "pray", "ay"})
_NAME_PUNCT = frozenset({",", "!", "?", ".", ";", ":", "--", "—"})
_SURNAME_TITLE = re.compile(r"\b(Mr|Mrs|Miss|Ms|Sir|Lady|Lord|Colonel|Captain|Dr)\.?\s+([A-Z][a-z]+)")
# How many paragraphs may separate two quotes of one exchange (one short narration between two turns).
EXCHANGE_GAP = 2
# How far back (characters) a pronoun or a person noun looks for the person it stands for.
PRONOUN_REACH = 3000
CONFIDENCE: dict[str, float] = {"name": 0.9, "pronoun": 0.75, "nominal": 0.65, "narration": 0.6, "turn": 0.5}


@dataclass
class _Mention:
    pos: int
    name: str
    gender: Gender | None
    subject: bool  # named as a sentence subject or as a speaker (what "she" most likely refers back to)


@dataclass
class _Said:
    """What attribution learned about one utterance."""

    utterance: Utterance
    speaker: str | None = None
    method: QuoteMethod | None = None
    confidence: float = 0.0
    addressee: str | None = None  # from a vocative or a "to him" in the tag
    addressees: list[str] = field(default_factory=list)


class _Window:
    """One window's text and parse, with the people named in its narration (and its speakers), in order."""

    def __init__(self, text: str, doc: Doc, paras: list[Paragraph], utterances: list[Utterance]) -> None:
        self.text, self.doc, self.paras = text, doc, paras
        self.pieces = sorted(p for u in utterances for p in u.pieces)
        self._piece_starts = [a for a, _ in self.pieces]
        self.surnames = _surname_genders(text)
        self.mentions: list[_Mention] = []
        self._token_starts = [t.idx for t in doc]
        self._narration_mentions()

    def quoted(self, pos: int) -> bool:
        k = bisect.bisect_right(self._piece_starts, pos) - 1
        return k >= 0 and self.pieces[k][0] <= pos < self.pieces[k][1]

    def tokens(self, a: int, b: int) -> list[Token]:
        lo = bisect.bisect_left(self._token_starts, a)
        hi = bisect.bisect_left(self._token_starts, b)
        return [t for t in self.doc[lo:hi] if not t.is_space]

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
        while i + 1 < len(doc) and _is_honorific(doc[i]) and doc[i + 1].text[:1].isupper():
            parts.append(doc[i])
            i += 1
        while i < len(doc) and _name_word(doc[i]) and (
                parts or doc[i].pos_ == "PROPN" or doc[i].ent_type_ == "PERSON" or is_given_name(doc[i].text)):
            parts.append(doc[i])
            i += 1
        if not parts or all(_is_honorific(p) for p in parts):
            return None
        name = " ".join(p.text for p in parts)
        return (name, i) if name.lower() not in NOT_NAMES else None

    def _narration_mentions(self) -> None:
        skip_to = -1
        for t in self.doc:
            if t.i < skip_to or not t.text[:1].isupper() or self.quoted(t.idx):
                continue
            found = self.name_at(t)
            if found is None:
                continue
            name, skip_to = found
            if _is_honorific(t) or t.ent_type_ == "PERSON" or self.gender(name) is not None:
                head = self.doc[skip_to - 1]
                subject = head.dep_ in ("nsubj", "nsubjpass") or (
                    head.dep_ == "conj" and head.head.dep_ in ("nsubj", "nsubjpass"))
                self.mentions.append(_Mention(t.idx, name, self.gender(name), subject))

    def mention(self, pos: int, name: str, subject: bool = True) -> None:
        k = bisect.bisect_right([m.pos for m in self.mentions], pos)
        self.mentions.insert(k, _Mention(pos, name, self.gender(name), subject))

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

    def resolve(self, tag: Tag, pos: int, avoid: frozenset[str] = frozenset()) -> str | None:
        """Whom a tag's subject stands for, at ``pos`` in the window."""
        if tag.kind == "name":
            return tag.subject
        if tag.kind == "pronoun":
            return self.latest(pos, PRONOUN_GENDER[tag.subject.lower()], avoid)
        if tag.kind != "nominal":
            return None
        words = tag.subject.lower().split()
        noun = words[-1]
        if noun not in PERSON_NOUNS:
            return None
        owner: str | None = None
        if words[0] in ("his", "her"):
            owner = self.latest(pos, PRONOUN_GENDER[words[0]], avoid, subject_first=False)
        if owner is not None and noun in _SPOUSE_NOUNS and (spouse := _spouse(owner)):
            return spouse
        exclude = avoid | ({owner} if owner else set())
        return self.latest(pos, PERSON_NOUNS[noun], frozenset(exclude), subject_first=False)


def _spouse(name: str) -> str | None:
    words = name.split()
    title = words[0].lower().rstrip(".") if len(words) > 1 else ""
    return f"{_SPOUSE_TITLE[title]} {' '.join(words[1:])}" if title in _SPOUSE_TITLE else None


def _is_honorific(t: Token) -> bool:
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


def _regions(win: _Window, u: Utterance) -> tuple[list[tuple[int, int]], tuple[int, int], tuple[int, int]]:
    """The narration in an utterance's paragraphs: between its pieces, before the first, after the last."""
    first, last = win.paras[u.paragraphs[0]], win.paras[u.paragraphs[-1]]
    inner = [(u.pieces[k][1], u.pieces[k + 1][0]) for k in range(len(u.pieces) - 1)
             if not re.search(r"\n\s*\n", win.text[u.pieces[k][1]:u.pieces[k + 1][0]])]
    return inner, (first.start, max(first.start, u.start - 1)), (min(u.end + 1, last.end), last.end)


def _from_tag(win: _Window, u: Utterance, said: _Said, expected: str | None) -> None:
    inner, before, after = _regions(win, u)
    found: tuple[Tag, int] | None = None
    for a, b in [*inner, after]:
        tag = tag_after(win.text[a:b])
        if tag is not None:
            found = (tag, a)
            break
    if found is None and before[1] > before[0]:
        tag = tag_before(win.text[before[0]:before[1]])
        found = (tag, before[0]) if tag is not None else None
    if found is None:
        return
    tag, base = found
    pronoun = PRONOUN_GENDER.get(tag.subject.lower()) if tag.kind == "pronoun" else None
    if pronoun is not None and expected is not None and win.gender(expected) == pronoun:
        who: str | None = expected  # "said she" in an exchange: the woman whose turn it is
    else:
        who = win.resolve(tag, base + tag.start)
    if who is None:
        return
    said.speaker, said.method, said.confidence = who, "tag", CONFIDENCE[tag.kind]
    if tag.to:
        to = tag.to
        if to.lower() in ("him", "her"):
            said.addressee = win.latest(base + tag.start, PRONOUN_GENDER[to.lower()], frozenset({who}),
                                        subject_first=False)
        elif to[:1].isupper():
            said.addressee = to


def _from_narration(win: _Window, u: Utterance, said: _Said) -> None:
    """No tag: the person the narration next to the quote acts through (its own paragraph's sentence next to
    it, else a narration paragraph just before: "Lady Catherine seemed resigned." then her words)."""
    _, before, after = _regions(win, u)
    regions = [(before, True), (after, False)]
    k = u.paragraphs[0] - 1
    if k >= 0 and not any(win.quoted(p) for p in range(win.paras[k].start, win.paras[k].end)):
        regions.append(((win.paras[k].start, win.paras[k].end), True))
    for (a, b), last in regions:
        tokens = win.tokens(a, b)
        if not tokens:
            continue
        sent = (tokens[-1] if last else tokens[0]).sent
        for t in sent:
            if not (a <= t.idx < b and t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"):
                continue
            who: str | None = None
            if t.lower_ in ("he", "she"):
                who = win.latest(t.idx, PRONOUN_GENDER[t.lower_])
            elif t.lower_ in ("eyes", "face", "voice", "countenance", "look", "heart", "colour", "cheeks") and (
                    owner := next((c for c in t.children if c.dep_ == "poss"), None)) is not None:
                t = owner  # "Mrs. Bennet's eyes sparkled"
            if who is None and t.lower_ in ("he", "she"):
                who = win.latest(t.idx, PRONOUN_GENDER[t.lower_])
            elif who is None and t.text[:1].isupper():
                start = t
                while start.i > 0 and (_is_honorific(win.doc[start.i - 1]) or win.doc[start.i - 1].dep_ == "compound"):
                    start = win.doc[start.i - 1]
                found = win.name_at(start)
                who = found[0] if found else None
            if who is not None:
                said.speaker, said.method, said.confidence = who, "narration", CONFIDENCE["narration"]
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
            found = win.name_at(t)
            if found is None:
                continue
            name, end = found
            after = win.doc[end] if end < len(win.doc) else None
            if (after is None or after.text in _NAME_PUNCT or after.idx >= b) and (
                    _is_honorific(t) or win.gender(name) is not None or t.ent_type_ == "PERSON"):
                return name
    return None


def _expected(said: list[_Said], u: Utterance) -> str | None:
    """Whose turn it is by alternation: the speaker two quotes back, when the last two quotes had two
    different speakers and the three follow each other closely."""
    if len(said) < 2:
        return None
    p1, p2 = said[-1], said[-2]
    if not (p1.speaker and p2.speaker and p1.speaker != p2.speaker):
        return None
    close = u.paragraphs[0] - p1.utterance.paragraphs[-1] <= EXCHANGE_GAP and (
        p1.utterance.paragraphs[0] - p2.utterance.paragraphs[-1] <= EXCHANGE_GAP)
    return p2.speaker if close else None


def _runs(win: _Window, said: list[_Said]) -> list[list[int]]:
    """Exchanges: quotes that follow each other within EXCHANGE_GAP paragraphs."""
    runs: list[list[int]] = []
    for i, s in enumerate(said):
        if runs and s.utterance.paragraphs[0] - said[runs[-1][-1]].utterance.paragraphs[-1] <= EXCHANGE_GAP:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _other_party(win: _Window, said: list[_Said], run: list[int], me: str) -> str | None:
    """The other person of a two-person exchange: whom ``me`` addressed, who else spoke, whom narration named."""
    for i in run:
        if said[i].speaker == me and said[i].addressee and said[i].addressee != me:
            return said[i].addressee
    for i in run:
        if said[i].speaker is None and said[i].addressee == me:
            continue
        if said[i].speaker and said[i].speaker != me and said[i].method == "tag":
            return said[i].speaker
    first = said[run[0]].utterance.start
    for gender in ("f", "m"):  # a person (a known gender), not a place the narration named
        if (who := win.latest(first, gender, frozenset({me}))) is not None:
            return who
    return None


def _turns(win: _Window, said: list[_Said]) -> None:
    """Untagged quotes of an exchange: the nearest anchor's speaker at even distance, the other party at odd."""
    for run in _runs(win, said):
        anchors = [i for i in run if said[i].speaker is not None]
        if not anchors:
            continue
        for pos, i in enumerate(run):
            if said[i].speaker is not None:
                continue
            nearest = min(anchors, key=lambda a: (abs(run.index(a) - pos), a > i))
            anchor = said[nearest].speaker
            assert anchor is not None
            distance = abs(run.index(nearest) - pos)
            who = anchor if distance % 2 == 0 else _other_party(win, said, run, anchor)
            if who is not None and who == said[i].addressee:  # nobody addresses themself by name
                who = _other_party(win, said, run, who) if distance % 2 == 0 else None
            if who is not None:
                said[i].speaker, said[i].method, said[i].confidence = who, "turn", CONFIDENCE["turn"]


def _addressees(win: _Window, said: list[_Said]) -> None:
    for run in _runs(win, said):
        for pos, i in enumerate(run):
            s = said[i]
            if s.speaker is None:
                continue
            if s.addressee and s.addressee != s.speaker:
                s.addressees = [s.addressee]
                continue
            for j in (run[pos - 1] if pos else None, run[pos + 1] if pos + 1 < len(run) else None):
                if j is not None and said[j].speaker and said[j].speaker != s.speaker:
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
        vocative = _vocative(win, u)
        if vocative:
            win.mention(u.start, vocative, subject=False)  # present in the scene: "said his lady to him"
        _from_tag(win, u, s, _expected(said, u))
        if s.speaker is None:
            _from_narration(win, u, s)
        if s.addressee is None and vocative != s.speaker:
            s.addressee = vocative
        if s.speaker is not None:
            win.mention(u.start + 1, s.speaker)  # a speaker is who the next "said she" most likely means
        said.append(s)
    _turns(win, said)
    _addressees(win, said)
    return [
        ExtractedQuote(text=s.utterance.text(text), start=s.utterance.start, end=s.utterance.end,
                       spans=[Span(start=a, end=b) for a, b in s.utterance.pieces], speaker=s.speaker,
                       addressees=s.addressees, method=s.method, confidence=s.confidence)
        for s in said if s.utterance.text(text)
    ]
