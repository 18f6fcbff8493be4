"""Recall, as REST, MCP and the CLI serve it: search with the query's time words, and the context block.

``recall_search`` is graph search plus what the outside adds: the time the question names ("in May 2023",
"last year") read from its words (resolve/timewords.py) and ranked higher. ``context_block`` turns the hits
into one memory block an agent pastes into its prompt, within a token budget: facts with when they were
true, quotes with speaker and date, entity summaries, each section in rank order; the structured hits behind
it travel beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field

from strata.graph.driver import Graph
from strata.graph.search import EmbedFn, SearchHit, SearchQuery, SearchResult, search
from strata.resolve.timewords import time_window

# Hits a context block is drawn from, best first, before the budget cuts it.
CONTEXT_HITS = 40
MIN_BUDGET, MAX_BUDGET = 50, 32_000
QUOTE_CHARS = 600  # a quote longer than this is cut (with an ellipsis) so that one turn cannot fill the block


def recall_search(graph: Graph, group: str, query: SearchQuery, embed: EmbedFn | None,
                  time_words: bool = True) -> SearchResult:
    """Search; unless told not to, the time the question names is ranked higher (never filtered)."""
    if time_words and query.around is None and query.q.strip():
        window = time_window(query.q, query.as_of)
        if window is not None:
            query = query.model_copy(update={"around": window})
    return search(graph, group, query, embed=embed)


class QuotedMessage(BaseModel):
    episode_uuid: str
    index: int
    speaker: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class ContextBlock(BaseModel):
    query: str
    as_of: datetime | None = None
    text: str
    tokens: int
    budget_tokens: int
    quoted: list[QuotedMessage] = Field(default_factory=list)  # the chat messages the block quotes, in order
    hits: list[SearchHit]  # the hits the block holds, best first
    degraded: list[str] = Field(default_factory=list)


@lru_cache(maxsize=1)
def _wordpiece() -> Any:
    from tokenizers import Tokenizer

    from strata.ingest.embedders.onnx_minilm import tokenizer_path

    tokenizer = Tokenizer.from_file(str(tokenizer_path()))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def count_tokens(text: str) -> int:
    """Tokens as the bundled WordPiece tokenizer (BERT uncased) counts them, without the [CLS]/[SEP] pair:
    English text comes out at about as many tokens as GPT-style BPE tokenizers count, or more."""
    return len(_wordpiece().encode(text, add_special_tokens=False).ids)


def context_block(graph: Graph, group: str, q: str, budget_tokens: int, embed: EmbedFn | None,
                  as_of: datetime | None = None, time_words: bool = True,
                  count: Callable[[str], int] = count_tokens, agent: str | None = None) -> ContextBlock:
    result = recall_search(graph, group, SearchQuery(q=q, limit=CONTEXT_HITS, as_of=as_of, agent=agent), embed,
                           time_words)
    header = (f'Memory for "{_one_line(q)}"' + (f" as of {as_of:%Y-%m-%d}" if as_of else "")
              + (f" from {_one_line(agent)}" if agent else "") + ":")
    sections: dict[str, list[str]] = {"Facts": [], "Quotes": [], "Entities": []}
    kept: list[SearchHit] = []
    quoted: list[QuotedMessage] = []
    used = count(header)
    for hit in result.hits:
        line, section = _line(hit)
        if line is None:
            continue
        # A section's title costs once, when its first line goes in.
        cost = count(line) + (0 if sections[section] else count(f"{section}:"))
        if used + cost > budget_tokens:
            continue  # a shorter hit further down may still fit
        used += cost
        sections[section].append(line)
        kept.append(hit)
        if hit.kind == "episode":
            quoted += [QuotedMessage(episode_uuid=p.episode_uuid, index=m.index, speaker=m.speaker,
                                     metadata=m.metadata) for p in hit.provenance for m in p.messages]
    text = "\n".join([header] + [part for title, lines in sections.items() if lines
                                 for part in (f"{title}:", *lines)])
    return ContextBlock(query=q, as_of=as_of, text=text, tokens=count(text), budget_tokens=budget_tokens,
                        quoted=quoted, hits=kept, degraded=list(result.degraded))


def _line(hit: SearchHit) -> tuple[str | None, str]:
    if hit.fact is not None:
        f = hit.fact
        since = f"{f.valid_at:%Y-%m-%d}" if f.valid_at else "?"
        until = f"{f.invalid_at:%Y-%m-%d}" if f.invalid_at else "now"
        said = f"; said {hit.said_at:%Y-%m-%d}" if hit.said_at else ""
        statement = _one_line(f.fact or f"{f.subject_name} {f.predicate} {f.object_name}")
        return f"- {statement} (true {since} to {until}{said})", "Facts"
    if hit.episode is not None:
        when = f"{hit.said_at:%Y-%m-%d}, " if hit.said_at else ""
        speaker = hit.episode.speaker
        text = _one_line(hit.episode.text)
        if speaker and text.startswith(f"{speaker}:"):
            text = text[len(speaker) + 1:].strip()
        if len(text) > QUOTE_CHARS:
            text = text[:QUOTE_CHARS].rsplit(" ", 1)[0] + " ..."
        return f'- [{when}{speaker or "text"}] "{text}"', "Quotes"
    if hit.entity is not None and hit.entity.summary:
        return f"- {hit.entity.name} ({hit.entity.type}): {_one_line(hit.entity.summary)}", "Entities"
    return None, "Entities"


def _one_line(text: str) -> str:
    return " ".join(text.split())
