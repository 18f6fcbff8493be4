"""The answer first: a question about who or what holds a slot gets the slot's fact at the time asked.

"Who is the CEO of Walmart?", "Who was the Prime Minister of Finland in 2010?", "Where does Maya live?"
(resolve/questions.py reads the slot). The time asked is the query's ``as_of``, else the time its words name
("in 2010": the fact that held longest in that year), else now. The slot's facts are read whole (history
included) and the one that held then heads the hits, marked ``answer``; the slot's other facts among the hits
say what superseded them and when. A later report of the slot that names none of its known values leads the
answer (news the extractor could not read); without a fact for the slot, the hits that were said by then come
first, latest first: the newest report is the best guess of a slot the graph could not read.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from strata.graph.driver import Graph
from strata.graph.read import entity_candidates, slot_history
from strata.graph.search import EmbedFn, SearchHit, SearchQuery, SearchResult, fact_with_provenance
from strata.memory.names import resolve_name
from strata.memory.predicates import stored_predicate_filter
from strata.resolve.normalize import name_keys
from strata.resolve.questions import PREDICATE_WORDS, StateQuestion, state_question
from strata.resolve.roles import fold_words, roles
from strata.resolve.timewords import time_window
from strata.schema.models import Fact, TimeWindow, utcnow
from strata.schema.queries import FactQuery

SLOT_FACTS = 500  # a slot's history read at most (a busy office over decades has dozens)
NAMED_ENTITIES = 3  # entities one name may stand for (the same country stored as a place and as an organization)
LOOKUP = 10  # candidates a name lookup asks for, before the names are compared
REORDERED = 10  # without a fact, the hits among which the latest said by then comes first


def role_label(key: str | None) -> str:
    """An office's role as people write it ("ceo" -> "CEO")."""
    return roles().label(key)


def office_filter(query: FactQuery) -> FactQuery:
    """A fact filter that names an office answers by (organization, role): ``role`` as written folds to the
    lexicon's key; an object written as an office ("CEO of Walmart") is the organization with that role."""
    lexicon = roles()
    role = lexicon.key(query.role) if query.role else None
    update: dict[str, Any] = {"role": role}
    if query.object and (split := lexicon.split_office(query.object)) and role in (None, split[0]):
        # the organization is no office: a type given for "Mayor of Alvorada" was the office's
        update.update(role=split[0], object=split[1], object_type=None)
    return query.model_copy(update=update)


class AskedTime:
    """The instant (``at``) or the window (``window``) a question asks about."""

    def __init__(self, at: datetime, window: TimeWindow | None = None) -> None:
        self.at, self.window = at, window

    @property
    def end(self) -> datetime:
        return self.window.end if self.window else self.at


def asked_time(q: str, as_of: datetime | None, window: TimeWindow | None) -> AskedTime:
    if as_of is not None:
        return AskedTime(as_of)
    window = window or time_window(q)
    if window is not None:
        return AskedTime(window.start, window)
    return AskedTime(utcnow())


def answer_first(graph: Graph, group: str, query: SearchQuery, result: SearchResult,
                 embed: EmbedFn | None) -> SearchResult:
    """The result with the asked slot's fact at its head (or, without one, the latest hits said by then)."""
    if query.story is not None or query.agent or (query.kinds and "fact" not in query.kinds) or not query.q.strip():
        return result
    ask = state_question(query.q, roles())
    if ask is None:
        return result
    when = asked_time(query.q, query.as_of, query.around)
    facts = _slot_facts(graph, group, ask, embed)
    chosen = _holding(facts, when, several=roles().is_concurrent(ask.role)) if facts else []
    if not chosen:
        named = (ask.org if ask.kind == "office" else ask.subject) or ""
        return result.model_copy(update={"hits": _latest_said_first(result.hits, when, named)})
    by_uuid = {f.uuid: f for f in facts}
    notes = {f.uuid: _superseded(f, by_uuid) for f in facts if f.uuid not in chosen}
    head: list[SearchHit] = []
    top = max((h.score for h in result.hits), default=0.0)
    for uuid in chosen:
        hit = fact_with_provenance(graph, group, uuid)
        if hit is not None:
            head.append(hit.model_copy(update={"answer": True, "score": round(top + 1.0, 6),
                                               "channels": ["answer", *hit.channels]}))
    rest = [h.model_copy(update={"superseded": notes[h.fact.uuid]}) if h.fact and h.fact.uuid in notes else h
            for h in result.hits if not (h.fact and h.fact.uuid in chosen)]
    if news := _unread_news(rest, [by_uuid[u] for u in chosen], facts, when, ask):
        # a later report of this office that names someone else: the graph missed a change, so the report leads
        rest.remove(news)
        head.insert(0, news)
    return result.model_copy(update={"hits": (head + rest)[:max(query.limit, len(head))]})


def _unread_news(hits: list[SearchHit], answers: list[Fact], slot: list[Fact], when: AskedTime,
                 ask: StateQuestion) -> SearchHit | None:
    """The latest of the best hits that reports on the asked slot (an office: its role and organization named;
    a person's slot: the person and a word of that slot's changes, ``PREDICATE_WORDS``; no question) on a
    later day than the answer started and by the time asked, naming none of the slot's known values: news the
    extractor could not read. None when every such report is one the graph knows."""
    since = max(f.valid_at for f in answers if f.valid_at is not None).date()
    if ask.kind == "office":
        known = {_plain(f.subject_name) for f in slot}
    else:  # the values: whichever side is not the person (a couple is stored either way)
        me = _plain(ask.subject or "")
        known = {_plain(f.object_name) if _plain(f.subject_name) == me else _plain(f.subject_name) for f in slot}
    found = []
    for h in hits[:REORDERED]:
        if h.kind != "episode" or h.episode is None or h.said_at is None:
            continue
        said = _utc(h.said_at)
        text = h.episode.text.split(": ", 1)[-1] if h.episode.speaker else h.episode.text
        folded = f" {_plain(text)} "
        if (said.date() <= since or said > when.end or text.rstrip().endswith("?")
                or any(f" {name} " in folded for name in known) or not _about(folded, text, ask)):
            continue
        found.append((said, h))
    return max(found, key=lambda pair: pair[0])[1] if found else None


def _about(plain_text: str, text: str, ask: StateQuestion) -> bool:
    """Whether a report speaks of the asked slot."""
    if ask.kind == "office":
        return ask.role in roles().named_in(text) and _names_org(plain_text, ask.org or "")
    words = PREDICATE_WORDS.get(ask.predicate, frozenset())
    return _names_org(plain_text, ask.subject or "") and any(f" {w} " in plain_text for w in words)


def _names_org(plain_text: str, org: str) -> bool:
    words = _plain(" ".join(_name_words(org)))
    return bool(words) and f" {words} " in plain_text


def _plain(text: str) -> str:
    """Folded words without punctuation, for finding a name inside a text."""
    return " ".join(re.sub(r"[^\w\s]", " ", fold_words(text)).split())


def _slot_facts(graph: Graph, group: str, ask: StateQuestion, embed: EmbedFn | None) -> list[Fact]:
    name = ask.org if ask.kind == "office" else ask.subject
    entities = _entities(graph, group, name or "", embed, related=ask.kind == "office")
    if not entities:
        return []
    predicate = stored_predicate_filter(graph, group, ask.predicate, embed) or ask.predicate
    return slot_history(graph, group, entities, predicate, ask.role, either_side=ask.kind == "subject",
                        limit=SLOT_FACTS)


def _entities(graph: Graph, group: str, name: str, embed: EmbedFn | None, related: bool) -> list[str]:
    """The entities a name in a question stands for: exact names first; then (for an organization, always;
    else when none is exact) the lookup's candidates that carry that name loosely (``same_name``): an
    organization stored under two names holds its office's history under both."""
    keys = name_keys(name)
    exact = [c.uuid for c in entity_candidates(graph, group, keys=keys)][:NAMED_ENTITIES] if keys else []
    if exact and not related:
        return exact
    found = resolve_name(graph, group, name, LOOKUP, embed).candidates
    loose = [c.uuid for c in found if any(same_name(name, n) for n in (c.name, *c.aliases))]
    return list(dict.fromkeys(exact + loose))[:NAMED_ENTITIES + len(exact)]


def same_name(asked: str, stored: str) -> bool:
    """Whether a stored name can be the one a question names: equal up to case, accents and articles; one
    the other's words with more ("Volkswagen" / "Volkswagen Group"); or an acronym of it ("UN" / "United
    Nations"). Questions name organizations loosely, and the reader wants every slot the name may hold."""
    a, b = _name_words(asked), _name_words(stored)
    if not a or not b:
        return False
    if a == b or (a[0] == b[0] and (set(a) <= set(b) or set(b) <= set(a))):
        return True
    return any(len(short) == 1 and len(short[0]) >= 2 and short[0] == "".join(w[0] for w in long if w not in _SMALL)
               for short, long in ((a, b), (b, a)))


_SMALL = frozenset({"of", "the", "and", "for", "de", "la", "du", "des", "a", "an"})


def _name_words(text: str) -> list[str]:
    words = fold_words(text).split()
    while words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return words


def _holding(facts: list[Fact], when: AskedTime, several: bool = False) -> list[str]:
    """The slot's facts that held at the time asked: at the instant, or longest within the window. One slot
    holds one value at a time (unless its role is ``several``'s): when facts read under two names of one
    organization both still hold, the one that started last is the answer, as it would have superseded the
    other had the names been one entity."""
    live = [f for f in facts if not f.negated and f.valid_at is not None]
    starts = {f.uuid: f.valid_at for f in live if f.valid_at is not None}  # the same, typed as set
    if when.window is None:
        held = [f for f in live if starts[f.uuid] <= when.at and (f.invalid_at is None or f.invalid_at > when.at)]
        held.sort(key=lambda f: starts[f.uuid], reverse=True)
        if not several:
            held = [f for f in held if f.valid_at == held[0].valid_at]
        return [f.uuid for f in held]
    start, end = when.window.start, when.window.end
    overlap = {f.uuid: (min(f.invalid_at or end, end) - max(starts[f.uuid], start)).total_seconds()
               for f in live}
    best = [f for f in live if overlap[f.uuid] > 0]
    best.sort(key=lambda f: (overlap[f.uuid], f.valid_at), reverse=True)
    return [f.uuid for f in best[:1]]


def _superseded(fact: Fact, by_uuid: dict[str, Fact]) -> str | None:
    if fact.negated or fact.invalid_at is None:
        return None
    closer = by_uuid.get(fact.invalidated_by or "")
    day = f"{fact.invalid_at:%Y-%m-%d}"
    if closer is None or closer.negated:
        return f"ended {day}"
    value = closer.subject_name if closer.object_uuid == fact.object_uuid else closer.object_name
    return f"superseded {day}: {value}"


def _latest_said_first(hits: list[SearchHit], when: AskedTime, named: str) -> list[SearchHit]:
    """Among the best hits, what was said by the time asked comes first, the latest first; those that name the
    slot's organization or person before those that do not (a report about another country's president)."""
    top, rest = hits[:REORDERED], hits[REORDERED:]
    said = [h for h in top if h.kind == "episode" and h.said_at is not None and _utc(h.said_at) <= when.end]
    wanted = fold_words(named)
    said.sort(key=lambda h: (bool(wanted) and wanted in fold_words(h.episode.text if h.episode else ""),
                             _utc(h.said_at)), reverse=True)
    keep = {id(h) for h in said}
    return said + [h for h in top if id(h) not in keep] + rest


def _utc(value: Any) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
