"""What the text just before a window tells about its dialogue: who spoke, and in what order.

A book window starts wherever the token budget cut, often inside a conversation. The paragraphs before it
(episode metadata "preceding", set by the book parser) are read here by pattern only, no parse, so the
window's first quotes know who was talking. Nothing is extracted from this text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata.ingest.extractors.discourse import NOT_NAMES
from strata.ingest.extractors.gender import is_given_name
from strata.ingest.extractors.narration_people import CALENDAR
from strata.ingest.extractors.quote_spans import find_utterances
from strata.ingest.extractors.speech_tags import tag_after, tag_before

# How many of the last turns before the window are kept.
CONTEXT_TURNS = 6


# A person named in narration without a parse: a title and a capitalized word, or a known given name.
_NAMED = re.compile(r"\b(?:(?:Mr|Mrs|Miss|Ms|Dr|Sir|Lady|Lord|Colonel|Captain)\.?\s+)?[A-Z][a-z]+\b")


@dataclass(frozen=True)
class ContextDialogue:
    speakers: tuple[str | None, ...] = ()  # the named speaker of each of the last turns (None: untagged)
    open_exchange: bool = False  # the text ends in dialogue: the window's first quotes may continue it
    people: tuple[str, ...] = ()  # people named (narration or tags), earliest first, each once at its latest
    open_speech: bool = False  # its last quote is still open at its end: the window's first quote goes on with it

    def names(self) -> list[str]:
        return list(self.people)


def _narration_names(text: str, start: int, end: int) -> list[tuple[int, str]]:
    out = []
    for m in _NAMED.finditer(text, start, end):
        name = m.group(0)
        if " " in name or (is_given_name(name) and name.lower() not in NOT_NAMES and name.lower() not in CALENDAR):
            out.append((m.start(), " ".join(name.split())))
    return out


def context_dialogue(text: str, gap: int) -> ContextDialogue:
    """The last exchange of ``text`` (turns at most ``gap`` paragraphs apart) and whether it runs to the end."""
    if not text.strip():
        return ContextDialogue()
    paras, utterances = find_utterances(text)
    speakers: list[str | None] = []
    named: list[tuple[int, str]] = []
    cursor = 0
    last_paragraph = -1
    for u in utterances:
        for a, b in u.pieces:
            named += _narration_names(text, cursor, a)
            cursor = b
        if last_paragraph >= 0 and u.paragraphs[0] - last_paragraph > gap:
            speakers = []  # a new exchange
        end = paras[u.paragraphs[-1]].end
        between = [text[u.pieces[k][1]:u.pieces[k + 1][0]] for k in range(len(u.pieces) - 1)]
        tag = next((t for t in (tag_after(n) for n in [*between, text[u.end + 1:end]]) if t), None)
        tag = tag or tag_before(text[paras[u.paragraphs[0]].start:max(0, u.start - 1)])
        named_tag = tag is not None and tag.kind in ("name", "descriptor")  # "said the barman" names him too
        speakers.append(tag.subject if tag is not None and named_tag else None)
        if tag is not None and named_tag:
            named.append((u.end, tag.subject))  # a speaker counts at their quote
        last_paragraph = u.paragraphs[-1]
    named += _narration_names(text, cursor, len(text))
    people: list[str] = []
    for _, name in sorted(named):
        people = [n for n in people if n != name] + [name]
    open_exchange = bool(speakers) and len(paras) - 1 - last_paragraph < gap
    open_speech = bool(utterances) and utterances[-1].open_end and last_paragraph == len(paras) - 1
    return ContextDialogue(tuple(speakers[-CONTEXT_TURNS:]), open_exchange, tuple(people[-CONTEXT_TURNS:]),
                           open_speech)
