"""Who says each quotation of a prose window, and to whom, offline.

Quotations come from quote_spans.py, speech tags from speech_tags.py, the people the narration names from
narration_people.py. Each quote gathers evidence about its speaker, most telling first:
1. a speech tag next to it ("said Elizabeth", "cried his wife", "said she"), or closing the narration
   paragraph just before it ("Mrs. Hale, who had waited an hour, answered,");
2. the narration of its own paragraph ("Elizabeth smiled. "...""), or the paragraph just before it;
3. a name it addresses ("My dear Mr. Bennet, ..."): not its speaker, and most likely the next one.
Quotes paragraph after paragraph form an exchange, decoded as a whole (turns.py): a new paragraph is a new
speaker, two people take turns, the one addressed answers. The addressee is a vocative in the quote, a
"to him" in its tag, else the person the quote answers or who answers it. Names are the forms the text uses
at that point; entity resolution maps them to entities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from strata.ingest.extractors.address_terms import addressed_gender
from strata.ingest.extractors.discourse import PRONOUN_GENDER
from strata.ingest.extractors.epithets import join_epithets, speaker
from strata.ingest.extractors.exchange_people import People, join_called
from strata.ingest.extractors.intro_tags import asked, intro_tag
from strata.ingest.extractors.narration_address import narrated_hearer
from strata.ingest.extractors.narration_people import Window, is_honorific
from strata.ingest.extractors.narrator import NARRATOR, narrator_name
from strata.ingest.extractors.quote_context import ContextDialogue, context_dialogue
from strata.ingest.extractors.quote_spans import Utterance, find_utterances, opens_continuation
from strata.ingest.extractors.speech_tags import PERSON_NOUNS, SPEECH_VERB, Tag, tag_after, tag_before
from strata.ingest.extractors.turns import ANSWER, Turn, decode
from strata.resolve.lexicon import Gender
from strata.schema.models import ExtractedQuote, QuoteMethod, Span

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token
    from spacy.tokens import Span as SpacySpan

_VOCATIVE_LEADS = frozenset({"dear", "dearest", "my", "oh", "o", "ah", "well", "yes", "no", "nay", "pray", "ay"})
_NAME_PUNCT = frozenset(",!?.;:-—")
# Tag verbs that carry on the previous speaker's turn ("she went on").
_CONTINUING = frozenset({"continued", "continues", "added", "adds", "went on", "goes on", "resumed", "resumes",
                         "pursued", "pursues", "proceeded", "proceeds"})
_ENDS_WITH_VERB = re.compile(SPEECH_VERB + r"\.$")
# Body words through which narration shows its subject acting ("Mrs. Hale's eyes sparkled").
_BODY = frozenset({"eyes", "face", "voice", "countenance", "look", "heart", "colour", "cheeks", "lips"})
# How many paragraphs may separate two quotes of one exchange (one short narration between two turns).
EXCHANGE_GAP = 2
# Evidence weights (see turns.py for the shape of a conversation, in the same unit).
TAG_NAME = 10.0  # "said Anna"
TAG_NOMINAL = 4.0  # "cried his wife": whom the noun stands for
PRONOUN_REFERENT = 1.5  # "said she": the latest woman acting, among the women present
PRONOUN_IN_SENTENCE = 4.0  # ‹entering Emma's brain, she said›: the woman its own sentence names
NARRATION = 3.0  # the subject of the sentence next to the quote in its paragraph
NARRATION_BEFORE = 1.5  # the subject of the last sentence of the narration paragraph before
NARRATION_PRONOUN_BEFORE = 3.0  # the same pronoun as the subject of the narration paragraph before
NARRATION_PRONOUN = 3.0  # "She shook her head. "...": a woman speaks (weight against a man)
OPENING_NARRATION = True  # a paragraph opening with narration is like a narration paragraph between two turns
INTRO_FALLBACK = True  # an introduction the parse gave no subject: the last name before its speech verb
SHOW_TAGGED = True  # a person is named by the form its tags use, not a vocative's
LAST_CLAUSE = True  # the subject of a sentence's last main clause is the one acting at its end
PRONOUN_CHAIN = 2  # sentences back a chain of "he"/"she" subjects carries a named subject to a pronoun tag
PRIOR = (0.8, 0.6, 0.4, 0.2)  # the people active just before an exchange, latest first
ACTIVE = 1.0  # someone a tag, the narration or a vocative brings into the exchange nearby...
ACTIVE_REACH = 3  # ...within this many turns
NARRATED_HEARER = True  # ‹turned to Frank Churchill.›: the narration names the quote's hearer
NOMINAL_NOT_OTHER = True  # "said the gentleman" is not the previous speaker by name nor the one called
DESCRIBED_SUBJECT = True  # a "the ..." subject is the window's description at that place, if any
PRESENT = 0.0  # someone the narration before the quote points at with a pronoun: present, no more
CONFIDENCE: dict[str, float] = {"name": 0.9, "pronoun": 0.75, "nominal": 0.65, "narration": 0.6, "turn": 0.5}


@dataclass
class _Said:
    """What attribution learned about one utterance."""

    utterance: Utterance
    speaker: str | None = None
    method: QuoteMethod | None = None
    confidence: float = 0.0
    addressee: str | None = None  # from a vocative or a "to him" in the tag
    addressees: list[str] = field(default_factory=list)
    tagged: str | None = None  # whom the tag names or stands for
    tag_kind: str | None = None
    narrated: set[str] = field(default_factory=set)  # whom the narration next to it names
    reported: bool = False  # the narration before reports a question it answers
    referent: tuple[str, float] | None = None  # whom a "she" in its tag or narration stands for, and the vote


def _regions(win: Window, u: Utterance) -> tuple[list[tuple[int, int]], tuple[int, int], tuple[int, int]]:
    """The narration in an utterance's paragraphs: between its pieces, before the first, after the last."""
    first, last = win.paras[u.paragraphs[0]], win.paras[u.paragraphs[-1]]
    inner = [(u.pieces[k][1], u.pieces[k + 1][0]) for k in range(len(u.pieces) - 1)
             if not re.search(r"\n\s*\n", win.text[u.pieces[k][1]:u.pieces[k + 1][0]])]
    return inner, (first.start, max(first.start, u.start - 1)), (min(u.end + 1, last.end), last.end)


def _opens_with_narration(win: Window, u: Utterance) -> bool:
    """The quote's paragraph opens with a sentence of narration before the quote."""
    _, before, _ = _regions(win, u)
    return before[1] > before[0] and _finished(win.text[before[0]:before[1]])


def _narration_before(win: Window, u: Utterance) -> tuple[int, int] | None:
    """The paragraph just before the quote's when it is narration only."""
    k = u.paragraphs[0] - 1
    if k < 0:
        return None
    para = win.paras[k]
    return None if any(win.quoted(p) for p in range(para.start, para.end)) else (para.start, para.end)


def _finished(narration: str) -> bool:
    """Narration ending a sentence; else it introduces what follows ("..., said to him:", "... him with")."""
    return narration.rstrip().rstrip("_\"”’'").endswith((".", "!", "?"))


def _find_tag(win: Window, u: Utterance) -> tuple[Tag, int] | None:
    if u.start not in win.found_tags:
        win.found_tags[u.start] = _read_tag(win, u)
    return win.found_tags[u.start]


def _read_tag(win: Window, u: Utterance) -> tuple[Tag, int] | None:
    inner, before, after = _regions(win, u)
    for a, b in [*inner, after]:
        tag = tag_after(win.text[a:b])
        if tag is not None:
            return tag, a
    regions = [(before[0], before[1], False)] if before[1] > before[0] else []
    previous = _narration_before(win, u)
    if not regions and previous is not None:
        # "Mrs. Hale, who had waited an hour, answered," then the quote's paragraph; a finished sentence only
        # when its last word is the speech verb of its own subject ("till Mr. Hale thus began.")
        narration = win.text[previous[0]:previous[1]].rstrip()
        finished = _finished(narration)
        if not finished or _ENDS_WITH_VERB.search(narration):
            regions.append((previous[0], previous[0] + len(narration.rstrip(".")), finished))
    for a, b, parse_only in regions:
        tag = _parsed_intro(win, a, b) or _unparsed_intro(win, a, b) or (
            None if parse_only else tag_before(win.text[a:b]))
        if tag is not None and (tag.kind != "name" or win.is_person(tag.subject)):
            return tag, a
    return None


def _object(win: Window, pos: int, name: str) -> bool:
    """The name at ``pos`` is an object (‹drawing near Elizabeth›) or a possessor, not someone acting."""
    tokens = win.tokens(pos, pos + len(name))
    head = next((t for t in tokens if t.head.i < tokens[0].i or t.head.i > tokens[-1].i), None) if tokens else None
    return head is not None and head.dep_ in ("pobj", "dobj", "dative", "poss", "iobj")


_CLOSING_VERB = re.compile(SPEECH_VERB + r"(?:\s+(?:to\s+(?:him|her)|thus|aloud))?\s*[,:—–-]*\s*$")


def _unparsed_intro(win: Window, a: int, b: int) -> Tag | None:
    """Narration ending on a speech verb the parse gave no subject (‹and Lydia, always unguarded and often
    uncivil, boisterously exclaimed,›): the last person the narration names before the verb, when no "he" or
    "she" comes between them."""
    if not INTRO_FALLBACK:
        return None
    found = _CLOSING_VERB.search(win.text, a, b)
    if found is None:
        return None
    verb_at = found.start()
    named = [m for m in win.mentions if a <= m.pos < verb_at and not win.quoted(m.pos)
             and not m.name.startswith("the ") and not _object(win, m.pos, m.name)]
    if not named or named[-1].name == NARRATOR:
        return None
    last = named[-1]
    between = win.text[last.pos:verb_at]
    if re.search(r"\b(?:he|she|He|She|I|they|They|who|which)\b|[;.!?]", between):
        return None
    return Tag(last.name, "name", last.pos - a, found.group().split()[0].lower())


def _named_tag(win: Window, u: Utterance) -> str | None:
    """The name a quote's tag gives its speaker ("replied Oliver"), if it names one."""
    found = _find_tag(win, u)
    return found[0].subject if found is not None and found[0].kind == "name" else None


def _parsed_intro(win: Window, a: int, b: int) -> Tag | None:
    found = intro_tag(win.tokens(a, b), a)
    if found is None:
        return None
    tag, subject = found
    if tag.kind != "name":
        return tag
    name = _subject_name(win, subject)
    return Tag(name, "name", tag.start, tag.verb, tag.to) if name else None


def _tag_evidence(win: Window, s: _Said, turn: Turn, called: str | None = None,
                  others: frozenset[str] = frozenset()) -> bool:
    """``called``: whom the quote before called by name (who most likely answers, so "said he" is him);
    ``others``: people the exchange shows as someone else than this speaker (the previous turn's speaker by
    name, the people this quote calls), whom a "said the gentleman" does not stand for."""
    found = _find_tag(win, s.utterance)
    if found is None:
        return False
    tag, base = found
    pos = base + tag.start
    if tag.kind == "first":  # "said I": the narrator, named once the others call the narrator by name
        tag = Tag(NARRATOR, "name", tag.start, tag.verb, tag.to)
    if tag.kind == "descriptor":  # "said the barman": the description names the speaker, as a name would
        tag = Tag(speaker(win, tag.subject, pos), "name", tag.start, tag.verb, tag.to)
    s.tag_kind = tag.kind
    turn.continues = tag.verb in _CONTINUING
    if tag.kind == "name":
        s.tagged = tag.subject
        turn.votes[tag.subject] = turn.votes.get(tag.subject, 0.0) + TAG_NAME
    elif tag.kind == "pronoun":
        turn.gender = PRONOUN_GENDER[tag.subject.lower()]
        s.tagged = win.in_sentence(pos, turn.gender, base)
        if s.tagged is None and (called is None or win.gender(called) != turn.gender):
            s.tagged = _acting_before(win, s.utterance, turn.gender)
        if s.tagged:  # the sentence of the tag names its person: no participant of the exchange stands in
            turn.votes[s.tagged] = turn.votes.get(s.tagged, 0.0) + PRONOUN_IN_SENTENCE
            return True
        s.tagged = win.latest(pos, turn.gender)
        if s.tagged:
            turn.votes[s.tagged] = turn.votes.get(s.tagged, 0.0) + PRONOUN_REFERENT
            s.referent = (s.tagged, PRONOUN_REFERENT)
    elif tag.kind == "nominal":
        turn.gender = PERSON_NOUNS.get(tag.subject.split()[-1].lower())
        # ‹"Yes, sir," replied Oliver.› then ‹"..." said the gentleman.›: a description is not the one named
        # next to it as the other party of the exchange
        s.tagged = win.resolve(tag, pos, others if NOMINAL_NOT_OTHER else frozenset())
        if s.tagged:
            turn.votes[s.tagged] = turn.votes.get(s.tagged, 0.0) + TAG_NOMINAL
    if tag.to:
        to = tag.to
        if to.lower() in ("him", "her"):
            s.addressee = win.latest(pos, PRONOUN_GENDER[to.lower()], frozenset({s.tagged} if s.tagged else ()),
                                     subject_first=False)
        elif to[:1].isupper():
            s.addressee = to
        elif to.split()[-1] in PERSON_NOUNS:  # "said Mr. Hale to his wife": his is the speaker's
            s.addressee = win.resolve(Tag(to, "nominal", tag.start, tag.verb), pos, owner=s.tagged)
    return tag.kind in ("name", "pronoun", "nominal")


def _acting_before(win: Window, u: Utterance, gender: Gender) -> str | None:
    """The named person of ``gender`` the narration just before the quote shows acting: the subject of the
    last sentence of its own paragraph's narration before it, else of the narration paragraph before
    (‹Mr. Woodhouse, with a sigh, called his daughter's attention to it.› then ‹"Ah, my dear," said he›)."""
    _, before, _ = _regions(win, u)
    previous = _narration_before(win, u)
    for a, b in ([before] if before[1] > before[0] else []) + ([previous] if previous else []):
        tokens = win.tokens(a, b)
        if not tokens:
            continue
        sent = tokens[-1].sent
        for _ in range(PRONOUN_CHAIN + 1):
            subject = _last_main_subject(sent, a, b)
            if subject is None:
                return None
            if subject.lower_ in PRONOUN_GENDER and PRONOUN_GENDER[subject.lower_] == gender and sent.start > 0 \
                    and win.doc[sent.start - 1].idx >= a:
                # ‹Mr. Knightley sat down again. He began speaking of Harriet.› then ‹"...," said he›: the
                # pronoun carries the topic back to the sentence before
                sent = win.doc[sent.start - 1].sent
                continue
            who = _subject_name(win, subject)
            return who if who is not None and win.gender(who) == gender else None
        return None
    return None


def _last_main_subject(sent: SpacySpan, a: int, b: int) -> Token | None:
    """The subject of the sentence's last main clause inside [a, b): ‹Mr. Woodhouse was off; but Mr. Knightley
    sat down again.› is about Mr. Knightley at its end."""
    found = None
    for t in sent:
        if a <= t.idx < b and t.dep_ in ("nsubj", "nsubjpass") and (
                t.head.dep_ == "ROOT" or (LAST_CLAUSE and t.head.dep_ == "conj" and t.head.head.dep_ == "ROOT")):
            found = t
            if not LAST_CLAUSE:
                break
    return found


def _subject_name(win: Window, t: Token) -> str | None:
    if t.lower_ in _BODY and (owner := next((c for c in t.children if c.dep_ == "poss"), None)) is not None:
        t = owner  # "Mrs. Bennet's eyes sparkled"
    det = next((c for c in t.children if c.dep_ == "det" and c.lower_ == "the"), None)
    described = next((m.name for m in win.mentions if m.pos == det.idx), None) if det is not None else None
    if described is not None and DESCRIBED_SUBJECT:  # ‹The Invisible Man swore.›: the description, not "Invisible"
        return described
    if not t.text[:1].isupper() or t.lower_ in ("he", "she", "i"):
        return None
    start = t
    while start.i > 0:
        k = start.i - 1
        while k > 0 and win.doc[k].is_space:  # a line break inside the name
            k -= 1
        if not (is_honorific(win.doc[k]) or win.doc[k].dep_ == "compound"):
            break
        start = win.doc[k]
    found = win.name_at(start)
    return found[0] if found else None


def _reported_evidence(win: Window, s: _Said, turn: Turn) -> None:
    """"He asked Anna whether ..." closing the paragraph before: the quote is Anna's answer, to him."""
    previous = _narration_before(win, s.utterance)
    if previous is None or not _finished(win.text[previous[0]:previous[1]]):
        return
    reported = asked(win.tokens(*previous))
    if reported is None:
        return
    speaker, hearer = (_person(win, t) for t in reported)
    if hearer is not None and hearer != speaker:
        turn.votes[hearer] = turn.votes.get(hearer, 0.0) + ANSWER
        s.addressee = s.addressee or speaker
        s.reported = True


def _person(win: Window, t: Token) -> str | None:
    if t.lower_ in ("he", "she", "him", "her"):
        return win.latest(t.idx, PRONOUN_GENDER[t.lower_])
    return _subject_name(win, t)


def _narration_evidence(win: Window, s: _Said, turn: Turn) -> None:
    """The person the narration next to the quote acts through: its own paragraph's sentence next to it
    ("Elizabeth smiled."), else the last sentence of a narration paragraph just before."""
    _, before, after = _regions(win, s.utterance)
    regions: list[tuple[tuple[int, int], bool, float]] = [(before, True, NARRATION), (after, False, NARRATION)]
    previous = _narration_before(win, s.utterance)
    if previous is not None and not s.reported:
        regions.append((previous, True, NARRATION_BEFORE))
    for (a, b), last, weight in regions:
        tokens = win.tokens(a, b)
        if not tokens:
            continue
        sent = (tokens[-1] if last else tokens[0]).sent
        for t in sent:
            if not (a <= t.idx < b and t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"):
                continue
            if t.text == NARRATOR:  # "I shook my head."
                who: str | None = NARRATOR
            elif t.lower_ in ("he", "she") and weight == NARRATION:
                gender: Gender = PRONOUN_GENDER[t.lower_]
                turn.gender, turn.gender_weight = gender, NARRATION_PRONOUN
                who = win.latest(t.idx, gender)
                s.referent = (who, weight) if who else None
            elif t.lower_ in ("he", "she"):  # ‹She shook her head.› alone before the quote: a woman speaks, less surely
                turn.gender, turn.gender_weight = PRONOUN_GENDER[t.lower_], NARRATION_PRONOUN_BEFORE
                return
            else:
                who = _subject_name(win, t)
            if who is not None:
                s.narrated.add(who)
                turn.votes[who] = turn.votes.get(who, 0.0) + weight
            return


def _narrated_hearer(win: Window, s: _Said) -> str | None:
    """The named person the narration just before the quote turns its speaker to (‹turned to Frank
    Churchill.›): the narration of the quote's own paragraph before it, else the narration paragraph before."""
    _, before, _ = _regions(win, s.utterance)
    region = before if before[1] > before[0] else _narration_before(win, s.utterance)
    if region is None:
        return None
    def name_of(t: Token) -> str | None:
        if t.lower_ in ("him", "her"):
            return win.latest(t.idx, PRONOUN_GENDER[t.lower_], frozenset({s.tagged} if s.tagged else ()),
                              subject_first=False)
        return _subject_name(win, t)

    who = narrated_hearer(win.tokens(*region), name_of)
    return who if who is not None and who != s.tagged and who not in s.narrated else None


def _pronoun_presence(win: Window, u: Utterance, since: int | None, turn: Turn) -> None:
    """People the narration leading to the quote only points at ("by his bringing back his cup") are present."""
    start = since if since is not None else win.paras[max(0, u.paragraphs[0] - 1)].start
    for t in win.tokens(start, u.start):
        gender = PRONOUN_GENDER.get(t.lower_)
        if gender is None or t.dep_ == "poss" or win.quoted(t.idx):
            continue  # "her ladyship's" may be about someone absent; "he", "to him" is someone there
        who = win.latest(t.idx, gender)
        if who is not None and who not in turn.votes:
            turn.votes[who] = PRESENT


def _vocatives(win: Window, u: Utterance) -> list[str]:
    """The names the quote addresses, in order: at a piece's start or after "my dear", or set off by commas."""
    out: list[str] = []
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
            if n == 0 and (after is None or after.idx >= b or after.text[:1] in ".?"):
                continue  # the whole quote is the name: an answer ("Bingley."), not a call
            if (a, b) != u.pieces[-1] and _only_name(tokens, t.i, end) and _lower_next(win, u, (a, b)):
                continue  # "Anna," said he, "is late.": the sentence's subject, cut by the tag
            if (after is None or after.text[:1] in _NAME_PUNCT or after.idx >= b) and (
                    is_honorific(t) or win.gender(name) is not None or t.ent_type_ == "PERSON"):
                out.append(name)
    return out


def _only_name(tokens: list[Token], start: int, end: int) -> bool:
    """The piece holds nothing but the name (and punctuation)."""
    return all(not x.is_alpha or start <= x.i < end for x in tokens)


def _lower_next(win: Window, u: Utterance, piece: tuple[int, int]) -> bool:
    k = u.pieces.index(piece)
    following = win.text[u.pieces[k + 1][0]:u.pieces[k + 1][1]].lstrip("_—–- ")
    return following[:1].islower()


def _runs(said: list[_Said]) -> list[list[int]]:
    """Exchanges: quotes that follow each other within EXCHANGE_GAP paragraphs."""
    runs: list[list[int]] = []
    for i, s in enumerate(said):
        if runs and s.utterance.paragraphs[0] - said[runs[-1][-1]].utterance.paragraphs[-1] <= EXCHANGE_GAP:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _canonical_turn(people: People, turn: Turn) -> Turn:
    votes: dict[str, float] = {}
    for name, v in turn.votes.items():
        key = people.canonical(name)
        votes[key] = votes.get(key, 0.0) + v
    addressed = frozenset(people.canonical(n) for n in turn.addressed)
    return Turn(votes=votes, gender=turn.gender, gender_weight=turn.gender_weight, addressed=addressed,
                called=people.canonical(turn.called) if turn.called else None, continues=turn.continues,
                adjacent=turn.adjacent, same_speech=turn.same_speech, bare=turn.bare,
                called_gender=turn.called_gender)


def _participants_first(people: People, said: list[_Said], turns: list[Turn]) -> None:
    """A pronoun tag stands for the exchange's participant of its gender (named in a tag or called by a
    vocative, the nearest), rather than for someone the narration named before the exchange."""
    named = [(k, people.canonical(s.tagged)) for k, s in enumerate(said) if s.tag_kind == "name" and s.tagged]
    named += [(k, t.called) for k, t in enumerate(turns) if t.called]
    for k, (s, turn) in enumerate(zip(said, turns, strict=True)):
        if s.referent is None or turn.gender is None:
            continue
        referent, weight = people.canonical(s.referent[0]), s.referent[1]
        present = [(abs(j - k), name) for j, name in named if people.gender(name) == turn.gender]
        if not present or referent in {name for _, name in present}:
            continue
        nearest = min(present)[1]
        turn.votes[referent] = turn.votes.get(referent, 0.0) - weight
        turn.votes[nearest] = turn.votes.get(nearest, 0.0) + weight
        if s.tag_kind == "pronoun":
            s.tagged = nearest
        else:
            s.narrated.add(nearest)


def _presence(turns: list[Turn], before: list[str]) -> None:
    """Who is in the scene at each turn: people a tag, the narration or a vocative brings in within ACTIVE_REACH
    turns; before the first of those, the people active just before the exchange (latest first)."""
    named = [{p for p, v in t.votes.items() if v > 0} | set(t.addressed) for t in turns]
    first = next((i for i, t in enumerate(turns) if any(v > 0 for v in t.votes.values())), len(turns))
    for i, turn in enumerate(turns):
        near = set().union(*named[max(0, i - ACTIVE_REACH):i + ACTIVE_REACH + 1])
        for person in near:
            turn.votes[person] = turn.votes.get(person, 0.0) + ACTIVE
        if i <= first:
            for person, weight in zip(before, PRIOR, strict=False):
                turn.votes[person] = turn.votes.get(person, 0.0) + weight


def _exchange(win: Window, said: list[_Said], run: list[int], before: ContextDialogue) -> None:
    """Decode one exchange and record its speakers as mentions for the pronouns after it."""
    people = People(win)
    prior_names = win.recent(said[run[0]].utterance.start, len(PRIOR))
    carried = list(before.speakers) if before.open_exchange else []
    turns: list[Turn] = [Turn(votes={name: TAG_NAME} if name else {}) for name in carried]
    for n, i in enumerate(run):
        s = said[i]
        turn = Turn()
        vocatives = _vocatives(win, s.utterance)
        for name in vocatives:
            win.mention(s.utterance.start, name, subject=False)  # present in the scene
        _reported_evidence(win, s, turn)
        others = frozenset(vocatives) | {tagged for k in (n - 1, n + 1) if 0 <= k < len(run)
                                          and (tagged := _named_tag(win, said[run[k]].utterance))}
        if not _tag_evidence(win, s, turn, turns[-1].called if turns else None, others):
            _narration_evidence(win, s, turn)
        vocatives = [v for v in vocatives if v != s.tagged]
        if NARRATED_HEARER and not vocatives and not s.addressee:
            s.addressee = _narrated_hearer(win, s)
        if vocatives:  # the last one called answers: "Here, Tom. And what do you think, Bob?"
            s.addressee = vocatives[-1]
        if s.addressee:
            turn.addressed, turn.called = frozenset({*vocatives, s.addressee}), s.addressee
        if n:
            turn.adjacent = s.utterance.paragraphs[0] - said[run[n - 1]].utterance.paragraphs[-1] == 1
            if OPENING_NARRATION and turn.adjacent and _opens_with_narration(win, s.utterance):
                turn.adjacent = False  # ‹She put on more coal. "And they goggles!"›: narration came between
        elif carried:
            turn.adjacent = s.utterance.paragraphs[0] == 0
            # the text before the window left its last quote open: this paragraph's opening quote goes on with it
            turn.same_speech = turn.adjacent and before.open_speech and opens_continuation(
                win.text, win.paras[0], s.utterance)
        turn.called_gender = addressed_gender([win.text[a:b] for a, b in s.utterance.pieces])
        turn.bare = s.tag_kind is None and not s.narrated and not s.reported and not turn.same_speech
        _pronoun_presence(win, s.utterance, said[run[n - 1]].utterance.end if n else None, turn)
        if s.tag_kind == "name" and s.tagged and s.tagged != NARRATOR and not s.tagged.startswith("the "):
            win.mention(s.utterance.start + 1, s.tagged)  # whom the next "said she" may mean
        turns.append(turn)
    turns = [_canonical_turn(people, t) for t in turns]
    _participants_first(people, [said[i] for i in run], turns[len(carried):])
    join_called(people, turns, [people.canonical(name) for name in prior_names])
    in_run = [said[i] for i in run]
    join_epithets(people, turns, {people.canonical(s.tagged) for s in in_run if s.tag_kind == "name" and s.tagged},
                  {people.canonical(n) for s in in_run for n in s.narrated})
    _presence(turns, [people.canonical(name) for name in prior_names])
    genders = {name: people.gender(name) for name in people.names}
    shown = _shown_names(people, in_run)
    for i, who in zip(run, decode(turns, people.names, genders)[len(carried):], strict=True):
        s = said[i]
        if who is None:
            continue
        s.speaker = shown.get(who, who)
        if s.tagged and people.canonical(s.tagged) == who:
            s.method, s.confidence = "tag", CONFIDENCE[s.tag_kind or "name"]
        elif s.tag_kind == "pronoun" and turns[len(carried) + run.index(i)].gender == genders.get(who):
            s.method, s.confidence = "tag", CONFIDENCE["pronoun"]
        elif any(people.canonical(n) == who for n in s.narrated):
            s.method, s.confidence = "narration", CONFIDENCE["narration"]
        else:
            s.method, s.confidence = "turn", CONFIDENCE["turn"]
        if s.addressee and people.canonical(s.addressee) == who:
            s.addressee = None
        if who != NARRATOR:
            win.mention(s.utterance.start + 1, s.speaker)


def _shown_names(people: People, in_run: list[_Said]) -> dict[str, str]:
    """The name each person of the exchange is given: the form its tags name them by, when the exchange first
    met them by another (a vocative's "Mr. Holmes" for the man the tags call "Holmes"); a description a tag
    uses ("said the doctor") never replaces a name."""
    counts: dict[str, dict[str, int]] = {}
    for s in in_run:
        if s.tag_kind == "name" and s.tagged and s.tagged != NARRATOR and not s.tagged.startswith("the "):
            forms = counts.setdefault(people.canonical(s.tagged), {})
            forms[s.tagged] = forms.get(s.tagged, 0) + 1
    return {who: max(forms, key=lambda f: forms[f]) for who, forms in counts.items()
            if who not in forms and SHOW_TAGGED}


def _addressees(said: list[_Said]) -> None:
    for run in _runs(said):
        for pos, i in enumerate(run):
            s = said[i]
            if s.speaker is None:
                continue
            if s.addressee and s.addressee != s.speaker:
                s.addressees = [s.addressee]
                continue
            for j in (run[pos - 1] if pos else None, run[pos + 1] if pos + 1 < len(run) else None):
                if j is not None and said[j].speaker and said[j].speaker != s.speaker:
                    s.addressees = [said[j].speaker]  # type: ignore[list-item]
                    break


def _name_narrator(said: list[_Said], name: str | None) -> None:
    for s in said:
        if s.speaker == NARRATOR:
            s.speaker = name
            s.confidence = s.confidence if name else 0.0  # the book's pass may name it (resolve/narrator.py)
        addressees = [name if a == NARRATOR else a for a in s.addressees if name or a != NARRATOR]
        s.addressees = [a for a in addressees if a and a != s.speaker]


def find_quotes(text: str, doc: Doc, context: str = "") -> list[ExtractedQuote]:
    """Every quotation of a prose window with its speaker and addressees (None / [] when unknown).

    ``context`` is the text just before the window, read only for who was speaking when it opens."""
    paras, utterances = find_utterances(text)
    if not utterances:
        return []
    before = context_dialogue(context, EXCHANGE_GAP)
    win = Window(text, doc, paras, utterances, before.names())
    said = [_Said(u) for u in utterances]
    for n, run in enumerate(_runs(said)):
        # the window may open inside an exchange: its last turns before the window join the first run
        carried = before if n == 0 and said[run[0]].utterance.paragraphs[0] < EXCHANGE_GAP else ContextDialogue()
        _exchange(win, said, run, carried)
    called = [s.addressee for s in said]
    _addressees(said)
    acting = frozenset({m.name for m in win.mentions} | {s.tagged for s in said if s.tagged})
    by_narrator = [s.speaker == NARRATOR for s in said]
    _name_narrator(said, narrator_name([s.speaker for s in said], called, _runs(said), acting))
    return [
        ExtractedQuote(text=s.utterance.text(text), start=s.utterance.start, end=s.utterance.end,
                       spans=[Span(start=a, end=b) for a, b in s.utterance.pieces], speaker=s.speaker,
                       addressees=s.addressees, method=s.method, confidence=s.confidence, narrator=narrator)
        for s, narrator in zip(said, by_narrator, strict=True) if s.utterance.text(text)
    ]

