"""Build Lucene query strings for Neo4j full-text indexes from untrusted text.

Every special character is escaped, so user or LLM text is always searched as data, never parsed as
query syntax (``AND``, ``*``, ``~``, field names...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_WORD = re.compile(r"\w+", re.UNICODE)
_OPERATORS = {"AND", "OR", "NOT", "TO"}


def escape(text: str) -> str:
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    return _SPECIAL.sub(r"\\\1", cleaned)


# Lucene's English stop words: the fact and passage indexes use Neo4j's `english` analyzer (stems, drops these;
# migration 0011), so a query of stop words alone would leave only the group filter, which matches everything.
# Entity names keep every word (`standard-no-stop-words`: "The Who").
ENGLISH_STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they "
    "this to was will with".split())
STEMMED_KINDS = frozenset({"fact", "passage"})
# A question's own words ("what did", "when was", "how has") say what is asked, not what to find: queries to the
# stemmed indexes drop them with the stop words (the indexes keep them; only the query leaves them out).
QUESTION_WORDS = frozenset(
    "what when where who whom whose which why how did does do has have had was were is are".split())
_QUERY_DROPPED = ENGLISH_STOP_WORDS | QUESTION_WORDS


def terms(text: str, max_terms: int = 32, drop_stop_words: bool = False) -> list[str]:
    words = [w for w in _WORD.findall(text) if w.upper() not in _OPERATORS]
    if drop_stop_words:
        words = [w for w in words if w.lower() not in _QUERY_DROPPED]
    return words[:max_terms]


def any_terms(text: str, fuzzy: bool = False, drop_stop_words: bool = False) -> str:
    """OR of the words of ``text`` (each escaped); ``fuzzy`` adds edit distance 1 to words of 5+ letters."""
    parts = []
    for word in terms(text, drop_stop_words=drop_stop_words):
        token = escape(word.lower())
        parts.append(f"{token}~1" if fuzzy and len(word) >= 5 else token)
    return " OR ".join(parts)


def phrase(text: str) -> str:
    return '"' + escape(text) + '"'


# Full-text indexes are shared by every group. Each indexed node and fact also carries its group as one
# token (`group_tag`: "grp" + the group id with - _ . : spelled x2d x5f x2e x3a, written by the commit and
# migration 0010), so a query can require the group inside Lucene, before the top k is cut: a small group
# is never crowded out by a large one. The clause has boost 0 (a filter: scores stay those of the content),
# and the Cypher filter on group_id stays exact (the analyzer lowercases, so "A" and "a" share a token).
GROUP_TAG_FIELD = "group_tag"
TEXT_FIELDS = {"entity": ("name", "aliases", "summary"), "fact": ("fact", "predicate"), "passage": ("context",)}
# Name lookups (entity resolution) read the names only: a summary names the entity's relatives and places, so a
# name would otherwise find everyone whose summary mentions it.
NAME_FIELDS = ("name", "aliases")
# Prose under the entity index's analyzer (no stemming, no stop words dropped): queried without the question's
# stop and question words, as the stemmed indexes are, or "is" and "the" would match every summary.
PROSE_FIELDS = frozenset({"summary"})
_TAG_SPELLING = (("-", "x2d"), ("_", "x5f"), (".", "x2e"), (":", "x3a"))


def group_tag(group_id: str) -> str:
    for char, spelled in _TAG_SPELLING:
        group_id = group_id.replace(char, spelled)
    return "grp" + group_id


def on_fields(query: str, fields: Sequence[str], prose: str | None = None) -> str:
    """``query`` (already built from escaped terms) on the content ``fields`` only, never on the group tag;
    ``prose``, when given, is asked of the PROSE_FIELDS instead (empty: they are not asked)."""
    parts = []
    for field in fields:
        text = prose if prose is not None and field in PROSE_FIELDS else query
        if text.strip():
            parts.append(f"{field}:({text})")
    return "(" + " OR ".join(parts) + ")" if parts else ""


def in_group(group_id: str, query: str, fields: Sequence[str], prose: str | None = None) -> str:
    """``on_fields`` required to be in the group: for a group whose matches a shared index would crowd out."""
    content = on_fields(query, fields, prose)
    return f"+{GROUP_TAG_FIELD}:{phrase(group_tag(group_id))}^0 +{content}" if content else ""
