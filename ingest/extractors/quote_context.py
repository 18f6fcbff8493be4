"""What the text just before a window tells about its dialogue: who spoke, and in what order.

A book window starts wherever the token budget cut, often inside a conversation. The paragraphs before it
(episode metadata "preceding", set by the book parser) are read here by pattern only, no parse, so the
window's first quotes know who was talking. Nothing is extracted from this text.
"""

from __future__ import annotations

from dataclasses import dataclass

from strata.ingest.extractors.quote_spans import find_utterances
from strata.ingest.extractors.speech_tags import tag_after, tag_before

# How many of the last turns before the window are kept.
CONTEXT_TURNS = 6


@dataclass(frozen=True)
class ContextDialogue:
    speakers: tuple[str | None, ...] = ()  # the named speaker of each of the last turns (None: untagged)
    open_exchange: bool = False  # the text ends in dialogue: the window's first quotes may continue it

    def names(self) -> list[str]:
        """The named speakers, earliest first, each once at its latest turn."""
        out: list[str] = []
        for name in self.speakers:
            if name is not None:
                out = [n for n in out if n != name] + [name]
        return out


def context_dialogue(text: str, gap: int) -> ContextDialogue:
    """The last exchange of ``text`` (turns at most ``gap`` paragraphs apart) and whether it runs to the end."""
    if not text.strip():
        return ContextDialogue()
    paras, utterances = find_utterances(text)
    speakers: list[str | None] = []
    last_paragraph = -1
    for u in utterances:
        if last_paragraph >= 0 and u.paragraphs[0] - last_paragraph > gap:
            speakers = []  # a new exchange
        end = paras[u.paragraphs[-1]].end
        between = [text[u.pieces[k][1]:u.pieces[k + 1][0]] for k in range(len(u.pieces) - 1)]
        tag = next((t for t in (tag_after(n) for n in [*between, text[u.end + 1:end]]) if t), None)
        tag = tag or tag_before(text[paras[u.paragraphs[0]].start:max(0, u.start - 1)])
        speakers.append(tag.subject if tag is not None and tag.kind == "name" else None)
        last_paragraph = u.paragraphs[-1]
    open_exchange = bool(speakers) and len(paras) - 1 - last_paragraph < gap
    return ContextDialogue(tuple(speakers[-CONTEXT_TURNS:]), open_exchange)
