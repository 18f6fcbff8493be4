"""Recall, as REST, MCP and the CLI serve it: search with the query's time words, and the context block.

``recall_search`` is graph search plus what the outside adds: the time the question names ("in May 2023",
"last year") read from its words (resolve/timewords.py) and ranked higher, and for a question about who or
what holds a slot, the fact that held at the time asked first (answers.py). ``context_block`` turns the hits
into one memory block an agent pastes into its prompt, within a token budget: a summary line for each entity the
hits are about (when the budget allows, after the evidence), facts with when they were true, quotes with speaker
and date, each section in rank order; the structured hits behind it travel beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field

from strata.graph.driver import Graph
from strata.graph.ranking import rescoring_weights
from strata.graph.rescore import Rescorer
from strata.graph.search import EmbedFn, SearchHit, SearchQuery, SearchResult, search
from strata.graph.summaries import summaries_of
from strata.memory.answers import answer_first
from strata.resolve.questions import state_question
from strata.resolve.roles import roles
from strata.resolve.timewords import time_window
from strata.schema.requests import ContextRequest

# Hits a context block is drawn from, best first, before the budget cuts it.
CONTEXT_HITS = 40
QUOTE_CHARS = 600  # a quote longer than this is cut (with an ellipsis) so that one turn cannot fill the block
MAX_ENTITY_LINES = 10  # entity summaries at the head of a block, at most


class Asking(BaseModel):
    """How a search embeds the question (the model's query mode, cached) and rescores its best candidates;
    names and predicates keep the stored side's ``embed``. Unset: the question is embedded as ``embed`` does."""

    model_config = {"arbitrary_types_allowed": True, "frozen": True}

    embed: EmbedFn | None = None
    rescorer: Rescorer | None = None


def recall_search(graph: Graph, group: str, query: SearchQuery, embed: EmbedFn | None,
                  time_words: bool = True, asking: Asking | None = None) -> SearchResult:
    """Search; unless told not to, the time the question names is ranked higher (never filtered)."""
    if time_words and query.around is None and query.q.strip():
        window = time_window(query.q, query.as_of)
        if window is not None:
            query = query.model_copy(update={"around": window})
    asking = asking or Asking(embed=embed)
    weights = rescoring_weights() if asking.rescorer is not None else None
    found = search(graph, group, query, embed=asking.embed, weights=weights, rescorer=asking.rescorer)
    return answer_first(graph, group, query, found, embed)


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


def context_block(graph: Graph, group: str, ask: ContextRequest, embed: EmbedFn | None,
                  count: Callable[[str], int] = count_tokens, asking: Asking | None = None) -> ContextBlock:
    q, budget_tokens, as_of, agent = ask.q, ask.budget_tokens, ask.as_of, ask.agent
    result = recall_search(graph, group, SearchQuery(q=q, limit=CONTEXT_HITS, as_of=as_of, agent=agent), embed,
                           ask.time_words, asking)
    header = (f'Memory for "{_one_line(q)}"' + (f" as of {as_of:%Y-%m-%d}" if as_of else "")
              + (f" from {_one_line(agent)}" if agent else "") + ":")
    # Entity summaries say what holds now: a question about a slot at a time reads the dated evidence first
    slot = state_question(q, roles()) is not None
    # (and without an answer, search put the reports said by then first: they lead the facts that hold now)
    order = ("Answer", "Quotes", "Facts", "Entities") if slot else ("Answer", "Entities", "Facts", "Quotes")
    sections: dict[str, list[str]] = {title: [] for title in order}
    kept: set[int] = set()
    quoted: list[QuotedMessage] = []
    about: list[str] = []  # the entities the hits are about: entity hits, then the kept facts' ends, in rank order
    used = count(header)
    # What search ranked at or above its answer is the answer's (a later report the graph could not read)
    answered = max((k for k, h in enumerate(result.hits) if h.answer), default=-1)
    for k, hit in enumerate(result.hits):
        if hit.entity is not None:
            about.append(hit.entity.uuid)
            continue
        line, section = _line(hit)
        if line is None:
            continue
        section = "Answer" if k <= answered else section
        # A section's title costs once, when its first line goes in.
        cost = count(line) + (0 if sections[section] else count(f"{section}:"))
        if used + cost > budget_tokens:
            continue  # a shorter hit further down may still fit
        used += cost
        sections[section].append(line)
        kept.add(k)
        if hit.fact is not None:
            about += [hit.fact.subject_uuid, hit.fact.object_uuid]
        if hit.kind == "episode":
            quoted += [QuotedMessage(episode_uuid=p.episode_uuid, index=m.index, speaker=m.speaker,
                                     metadata=m.metadata) for p in hit.provenance for m in p.messages]
    # Entity summaries head the block, in what the evidence leaves of the budget (they never displace it); not in
    # one agent's block: a summary is written from every agent's facts
    entity_hits = {h.entity.uuid: k for k, h in enumerate(result.hits) if h.entity is not None}
    for s in summaries_of(graph, group, list(dict.fromkeys(about))[:MAX_ENTITY_LINES]) if agent is None else []:
        line = f"- {s.name} ({s.type}): {_one_line(s.summary)}"
        cost = count(line) + (0 if sections["Entities"] else count("Entities:"))
        if used + cost > budget_tokens:
            continue
        used += cost
        sections["Entities"].append(line)
        if s.uuid in entity_hits:
            kept.add(entity_hits[s.uuid])
    text = "\n".join([header] + [part for title, lines in sections.items() if lines
                                 for part in (f"{title}:", *lines)])
    return ContextBlock(query=q, as_of=as_of, text=text, tokens=count(text), budget_tokens=budget_tokens,
                        quoted=quoted, hits=[h for k, h in enumerate(result.hits) if k in kept],
                        degraded=list(result.degraded))


def _line(hit: SearchHit) -> tuple[str | None, str]:
    if hit.fact is not None:
        f = hit.fact
        since = f"{f.valid_at:%Y-%m-%d}" if f.valid_at else "?"
        until = f"{f.invalid_at:%Y-%m-%d}" if f.invalid_at else "now"
        said = f"; said {hit.said_at:%Y-%m-%d}" if hit.said_at else ""
        statement = _one_line(f.fact or f"{f.subject_name} {f.predicate} {f.object_name}")
        later = f"; {hit.superseded}" if hit.superseded else ""
        return f"- {statement} (true {since} to {until}{later}{said})", "Answer" if hit.answer else "Facts"
    if hit.episode is not None:
        when = f"{hit.said_at:%Y-%m-%d}, " if hit.said_at else ""
        speaker = hit.episode.speaker
        text = _one_line(hit.episode.text)
        if speaker and text.startswith(f"{speaker}:"):
            text = text[len(speaker) + 1:].strip()
        if len(text) > QUOTE_CHARS:
            text = text[:QUOTE_CHARS].rsplit(" ", 1)[0] + " ..."
        return f'- [{when}{speaker or "text"}] "{text}"', "Quotes"
    return None, "Facts"


def _one_line(text: str) -> str:
    return " ".join(text.split())
