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


def terms(text: str, max_terms: int = 32) -> list[str]:
    return [w for w in _WORD.findall(text) if w.upper() not in _OPERATORS][:max_terms]


def any_terms(text: str, fuzzy: bool = False) -> str:
    """OR of the words of ``text`` (each escaped); ``fuzzy`` adds edit distance 1 to words of 5+ letters."""
    parts = []
    for word in terms(text):
        token = escape(word.lower())
        parts.append(f"{token}~1" if fuzzy and len(word) >= 5 else token)
    return " OR ".join(parts)


def phrase(text: str) -> str:
    return '"' + escape(text) + '"'


# Full-text indexes are shared by every group. Each indexed node and fact also carries its group as text
# (`group_tag`, written by the commit and migration 0010 as 'grpstart ' + group_id + ' grpend'), so a query
# can require the group inside Lucene, before the top k is cut: a small group is never crowded out by a
# large one. The sentinels keep "a" from matching inside "a-b"; the Cypher filter on group_id stays exact.
GROUP_TAG_FIELD = "group_tag"
TEXT_FIELDS = {"entity": ("name", "aliases", "summary"), "fact": ("fact", "predicate"), "passage": ("text",)}


def group_tag(group_id: str) -> str:
    return f"grpstart {group_id} grpend"


def in_group(group_id: str, query: str, fields: Sequence[str]) -> str:
    """``query`` (already built from escaped terms) on the content ``fields``, required to be in the group."""
    if not query.strip():
        return ""
    content = " OR ".join(f"{field}:({query})" for field in fields)
    return f"+{GROUP_TAG_FIELD}:{phrase(group_tag(group_id))} +({content})"
