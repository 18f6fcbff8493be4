"""Helpers every extractor shares: facts episodes without NLP, span location, name and predicate cleanup."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import islice

from rapidfuzz import fuzz

from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractorInfo,
    Span,
)

MAX_SPANS_PER_ENTITY = 50
# Below this partial-ratio score a quote is treated as not found rather than pinned to the wrong passage.
QUOTE_MATCH_MIN_SCORE = 90.0

_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
_EDGE_JUNK = " \t\r\n\"'“”‘’.,;:!?()[]{}-—_*"
_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)


def snake_case(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def normalize_space(text: str) -> str:
    return " ".join(text.split())


def clean_mention(content: str, start: int, end: int, drop_article: bool = False) -> tuple[str, int, int]:
    """Trim punctuation, possessive "'s" and (optionally) a leading "the" from content[start:end].

    Returns the normalized name and the trimmed offsets, so content[start:end] is still the raw mention.
    """
    while start < end and content[start] in _EDGE_JUNK:
        start += 1
    while end > start and content[end - 1] in _EDGE_JUNK:
        end -= 1
    if m := _POSSESSIVE.search(content[start:end]):
        end = start + m.start()
        while end > start and content[end - 1] in _EDGE_JUNK:
            end -= 1
    if drop_article and (m := _LEADING_THE.match(content[start:end])):
        start += m.end()
    return normalize_space(content[start:end]), start, end


def find_mentions(content: str, name: str, limit: int = MAX_SPANS_PER_ENTITY) -> list[Span]:
    """Spans of whole-word occurrences of name (whitespace-flexible; case-insensitive if no exact hit)."""
    words = name.split()
    if not words:
        return []
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)"
    spans = [Span(start=m.start(), end=m.end()) for m in islice(re.finditer(pattern, content), limit)]
    if spans:
        return spans
    found = islice(re.finditer(pattern, content, re.IGNORECASE), limit)
    return [Span(start=m.start(), end=m.end()) for m in found]


def locate_quote(content: str, quote: str) -> Span | None:
    """Where a model's evidence quote sits in content; never trust model offsets."""
    quote = quote.strip().strip("\"“”")
    if not quote:
        return None
    if (i := content.find(quote)) >= 0:
        return Span(start=i, end=i + len(quote))
    # whitespace/case differences (line breaks in books, "I" vs "i")
    words = quote.split()
    pattern = r"\s+".join(re.escape(w) for w in words)
    if m := re.search(pattern, content, re.IGNORECASE):
        return Span(start=m.start(), end=m.end())
    if len(quote) < 12:
        return None
    hit = fuzz.partial_ratio_alignment(normalize_space(quote), content, score_cutoff=QUOTE_MATCH_MIN_SCORE)
    if hit is None:
        return None
    return Span(start=hit.dest_start, end=hit.dest_end)


class SpeakerIndex:
    """Which chat message (and so which speaker) a content offset falls in."""

    def __init__(self, episode: Episode) -> None:
        messages = sorted(episode.messages, key=lambda m: m.start)
        self._starts = [m.start for m in messages]
        self._messages = messages

    def speaker_at(self, offset: int) -> str | None:
        i = bisect_right(self._starts, offset) - 1
        if i < 0:
            return None
        message = self._messages[i]
        # offsets between messages (speaker labels) belong to the next message's speaker line
        return message.speaker if offset < max(message.end, message.start + 1) else self._label_owner(i)

    def _label_owner(self, i: int) -> str | None:
        return self._messages[i + 1].speaker if i + 1 < len(self._messages) else None


def facts_extraction(episode: Episode, info: ExtractorInfo) -> Extraction:
    """Turn a ``facts`` episode's explicit statements into an Extraction, with no NLP and no LLM.

    When the content has one line per statement (as the facts sources render it), each statement's line is
    its evidence and names are looked up inside that line only, so large episodes stay linear.
    """
    lines = _line_spans(episode.content)
    per_line = len(lines) == len(episode.facts)
    entities: dict[str, ExtractedEntity] = {}
    spans: dict[str, list[Span]] = {}
    facts: list[ExtractedFact] = []
    for k, statement in enumerate(episode.facts):
        line = lines[k] if per_line else Span(start=0, end=len(episode.content))
        for name, type_ in ((statement.subject, statement.subject_type),
                            (statement.object, statement.object_type)):
            name = normalize_space(name)
            known = entities.get(name)
            if known is None or (known.type == "Entity" and type_ != "Entity"):
                entities[name] = ExtractedEntity(name=name, type=type_)
            found = spans.setdefault(name, [])
            if len(found) < MAX_SPANS_PER_ENTITY:
                at = episode.content.find(name, line.start, line.end)
                if at >= 0:
                    found.append(Span(start=at, end=at + len(name)))
        predicate = snake_case(statement.predicate) or statement.predicate
        text = statement.fact or f"{statement.subject} {predicate.replace('_', ' ')} {statement.object}"
        facts.append(
            ExtractedFact(
                subject=normalize_space(statement.subject),
                predicate=statement.predicate,  # as the client wrote it: the planner normalizes, the fact keeps it
                object=normalize_space(statement.object),
                fact=text,
                subject_type=statement.subject_type,
                object_type=statement.object_type,
                valid_at=statement.valid_at,
                invalid_at=statement.invalid_at,
                functional=statement.functional,
                spans=[line] if per_line else [],
                asserted_by=episode.agent,
                role=statement.role,
            )
        )
    entity_list = [e.model_copy(update={"spans": spans.get(n, [])}) for n, e in entities.items()]
    return Extraction(episode_uuid=episode.uuid, entities=entity_list, facts=facts, extractor=info)


def _line_spans(content: str) -> list[Span]:
    out, start = [], 0
    for line in content.split("\n"):
        out.append(Span(start=start, end=start + len(line)))
        start += len(line) + 1
    return out
