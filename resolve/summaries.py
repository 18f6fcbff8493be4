"""Entity summaries, offline: the entity's most salient current facts and latest notes, as sentences.

Salience, highest first: the current value of a functional slot (where someone lives, whom they are married
to), the extractor's description, a relation of the ontology stated often, the character's most frequent
interlocutors, the latest memory notes, the characters it appears with most (when it is quoted with none), then
generic verbs the extractor read (only those stated often rank high). Facts of one relation to several others
are said once ("Jane Bennet is a sibling of Elizabeth, Lydia and Kitty"). Sentences are packed in that order
within the length limit; one that does not fit is skipped and a shorter one further down may still go in.

The same ranked lines are what an LLM summary is asked to condense (``digest_lines``), and their fingerprint
(``fingerprint``) tells whether an entity needs a new summary at all: when the lines did not change, neither
would the summary.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime

from strata.resolve.lexicon import NAME_ABBREVIATIONS
from strata.resolve.ontology import load_ontology
from strata.schema.ids import content_hash
from strata.schema.summaries import INTERACTION_PREDICATES, DigestFact, EntityDigest

MAX_SENTENCE_CHARS = 160  # a fact sentence longer than this is said as subject, predicate, object
MAX_GROUP = 4  # names listed in one grouped sentence
SUMMARY_VERSION = "1"
# How a relation reads when several of its facts are said in one sentence (the subject first).
_PHRASES = {
    "lives_in": "lives in", "employed_by": "works for", "member_of": "is a member of", "owns": "owns",
    "likes": "likes", "dislikes": "dislikes", "visits": "visited", "knows": "knows", "danced_with": "danced with",
    "dined_with": "dined with", "wrote_to": "wrote to", "attended": "attended", "practices": "practises",
    "studies": "studies", "studies_at": "studied at", "works_as": "works as", "has_pet": "has",
    "founded": "founded", "succeeded": "succeeded", "located_in": "is in", "heir_of": "is heir of",
    "boss_of": "is the boss of", "disagrees_with": "disagrees with", "holds_office": "holds",
}
_EPOCH = datetime(1, 1, 1, tzinfo=UTC)


def extractive_summary(digest: EntityDigest, max_chars: int) -> str:
    """The ranked sentences that fit in ``max_chars``, in rank order."""
    out: list[str] = []
    used = 0
    for sentence in ranked_sentences(digest):
        cost = len(sentence) + (1 if out else 0)
        if used + cost <= max_chars:
            out.append(sentence)
            used += cost
    return " ".join(out)


def digest_lines(digest: EntityDigest, max_lines: int = 40) -> list[str]:
    """What the graph says about the entity, most salient first: the input of an LLM summary."""
    return ranked_sentences(digest)[:max_lines]


def fingerprint(digest: EntityDigest, method: str, max_chars: int) -> str:
    """Changes exactly when the summary's input does: the ranked lines, the name and the way it is written."""
    body = [SUMMARY_VERSION, method, max_chars, digest.name, digest.type, digest_lines(digest)]
    return content_hash(json.dumps(body, ensure_ascii=False))[:32]


def ranked_sentences(digest: EntityDigest) -> list[str]:
    items: list[tuple[float, float, str]] = []  # (score, recency, sentence)
    ontology = load_ontology()
    functional = [f for f in digest.facts if f.functional]
    interactions = [f for f in digest.facts if f.predicate in INTERACTION_PREDICATES and not f.functional]
    rest = [f for f in digest.facts if not f.functional and f.predicate not in INTERACTION_PREDICATES]
    for f in _unique_symmetric(functional):
        items.append((100.0, _recency(f), _fact_sentence(f)))
    if digest.description.strip():
        items.append((70.0, 0.0, _sentence(digest.description)))
    if interactions:
        items.append((58.0, 0.0, _interaction_sentence(digest.name, interactions)))
    elif digest.partners:
        items.append((40.0, 0.0, _sentence(f"{digest.name} appears most with {_listing(digest.partners)}")))
    grouped: dict[tuple[str, bool], list[DigestFact]] = defaultdict(list)
    for f in rest:
        if f.predicate in ontology.predicates:
            grouped[(f.predicate, f.outgoing)].append(f)
        else:
            items.append((20.0 + 5.0 * min(f.evidence, 8), _recency(f), _fact_sentence(f)))
    for (predicate, outgoing), facts in grouped.items():
        evidence = sum(f.evidence for f in facts)
        if len(facts) == 1:
            items.append((50.0 + 5.0 * min(evidence, 8), _recency(facts[0]), _fact_sentence(facts[0])))
            continue
        facts = sorted(facts, key=lambda f: (-f.evidence, -_recency(f), f.other_uuid))
        others = [f.object_name if outgoing else f.subject_name for f in facts]
        sentence = (_grouped_sentence(digest.name, predicate, others) if outgoing
                    else _grouped_incoming(digest.name, predicate, others))
        items.append((52.0 + 5.0 * min(evidence, 8), max(_recency(f) for f in facts), sentence))
    notes = sorted(digest.notes, key=lambda n: (n.said_at or _EPOCH), reverse=True)
    for k, note in enumerate(notes):
        items.append((45.0 - 2.0 * k, (note.said_at or _EPOCH).timestamp(), _sentence(note.text)))
    items.sort(key=lambda x: (-x[0], -x[1]))
    seen: set[str] = set()
    out = []
    for _, _, sentence in items:
        key = sentence.casefold()
        if sentence and key not in seen:
            seen.add(key)
            out.append(sentence)
    return out


# A sentence ends at . ! or ? before a space, but not after a title or an initial ("Mr. Darcy", "J. Smith").
_ABBREVIATION = re.compile(r"(?:\b(?:" + "|".join([*(a.capitalize() for a in NAME_ABBREVIATIONS), "No", "vs"])
                           + r")|\b[A-Z])\.$")
_BREAK = re.compile(r"(?<=[.!?])[\"'”’)]*\s+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (titles and initials do not end one)."""
    text = " ".join(text.split())
    out: list[str] = []
    start = 0
    for m in _BREAK.finditer(text):
        if not _ABBREVIATION.search(text[start:m.start()]):
            out.append(text[start:m.end()].strip())
            start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def fit(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` at the last sentence end that fits, else the last word (with an ellipsis)."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    kept = ""
    for sentence in sentences(text):
        longer = f"{kept} {sentence}".strip()
        if len(longer) > max_chars:
            break
        kept = longer
    if len(kept) >= max_chars // 2:
        return kept
    return text[:max_chars - 4].rsplit(" ", 1)[0].rstrip(",;:") + " ..."


def _recency(f: DigestFact) -> float:
    if f.story_at is not None:
        return float(f.story_at)
    return (f.valid_at or _EPOCH).timestamp()


def _unique_symmetric(facts: Sequence[DigestFact]) -> list[DigestFact]:
    """A symmetric relation stated both ways ("A married B", "B married A") is said once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for f in sorted(facts, key=lambda f: (-_recency(f), f.uuid)):
        key = (f.predicate, f.other_uuid) if f.functional == "symmetric" else (f.predicate, f.uuid)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _fact_sentence(f: DigestFact) -> str:
    sentence = " ".join(f.sentence.split())
    if sentence and len(sentence) <= MAX_SENTENCE_CHARS and f.predicate not in INTERACTION_PREDICATES:
        return _sentence(sentence)
    return _sentence(f"{f.subject_name} {_words(f.predicate)} {f.object_name}")


def _interaction_sentence(name: str, facts: Sequence[DigestFact]) -> str:
    quotes: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    for f in facts:
        other = f.object_name if f.outgoing else f.subject_name
        quotes[f.other_uuid or other] += max(f.evidence, 1)
        names[f.other_uuid or other] = other
    ranked = sorted(quotes, key=lambda k: (-quotes[k], names[k]))
    return _sentence(f"{name} talks most with {_listing([names[k] for k in ranked[:MAX_GROUP]])}")


def _grouped_sentence(name: str, predicate: str, objects: Sequence[str]) -> str:
    objects = list(dict.fromkeys(objects))
    more = len(objects) - MAX_GROUP
    shown = _listing(objects[:MAX_GROUP] + ([f"{more} more"] if more > 0 else []))
    return _sentence(f"{name} {_phrase(predicate)} {shown}")


def _grouped_incoming(name: str, predicate: str, subjects: Sequence[str]) -> str:
    """ "Jane, Lydia and Kitty are siblings of Elizabeth"; "Mr. Bennet and Mrs. Bennet live in Longbourn"."""
    subjects = list(dict.fromkeys(subjects))
    more = len(subjects) - MAX_GROUP
    shown = _listing(subjects[:MAX_GROUP] + ([f"{more} more"] if more > 0 else []))
    return _sentence(f"{shown} {_plural(_phrase(predicate))} {name}")


def _plural(phrase: str) -> str:
    """The phrase with a plural subject: "works for" -> "work for", "is a member of" -> "are members of"."""
    words = phrase.split()
    if words[0] == "is":
        rest = words[2:] if len(words) > 2 and words[1] in ("a", "the") else words[1:]
        if len(rest) >= 2 and rest[-1] in ("of", "to"):
            rest = [*rest[:-2], rest[-2] + ("es" if rest[-2].endswith(("s", "sh")) else "s"), rest[-1]]
        return " ".join(["are", *rest])
    verb = words[0]
    if verb == "has":
        verb = "have"
    elif verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    return " ".join([verb, *words[1:]])


def _phrase(predicate: str) -> str:
    if predicate in _PHRASES:
        return _PHRASES[predicate]
    if predicate.endswith("_of"):
        return f"is a {_words(predicate[:-3])} of"
    return _words(predicate)


def _words(predicate: str) -> str:
    return predicate.replace("_", " ")


def _listing(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


_END = re.compile(r"[.!?…]['\"”’)]*$")


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if _END.search(text) else text + "."
