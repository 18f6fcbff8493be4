"""Build Lucene query strings for Neo4j full-text indexes from untrusted text.

Every special character is escaped, so user or LLM text is always searched as data, never parsed as
query syntax (``AND``, ``*``, ``~``, field names...).
"""

from __future__ import annotations

import re

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
