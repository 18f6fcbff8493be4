"""The gender of the person a quote speaks to, from its forms of address ("Yes, sir.", "Thank you, madam").

The forms are data (``ingest/assets/address_terms.json``); a form counts when it stands as a vocative: at the
quote's start or end, or set off by punctuation ("I am, sir, your servant"). "Sir" and "madam" tell whom the
speaker answers or is answered by, never the speaker's own gender.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from strata.resolve.lexicon import Gender

LEXICON = Path(__file__).resolve().parent.parent / "assets" / "address_terms.json"


@lru_cache(maxsize=1)
def _pattern() -> tuple[re.Pattern[str], dict[str, Gender]]:
    data = json.loads(LEXICON.read_text(encoding="utf-8"))
    genders: dict[str, Gender] = {term: g for g in ("f", "m") for term in data[g]}
    terms = "|".join(re.escape(t) for t in sorted(genders, key=len, reverse=True))
    # "sir" between punctuation or the quote's edges, never a name's title ("Sir William")
    return re.compile(rf"(?:^|[,!?;:.—–-])\s*(?P<term>{terms})\s*(?=[,!?;:.—–-]|$)", re.I), genders


def addressed_gender(pieces: list[str]) -> Gender | None:
    """The gender the forms of address of a quote's pieces tell for the one spoken to; None when none, or
    when they disagree."""
    pattern, genders = _pattern()
    found = {genders[m.group("term").lower()] for piece in pieces for m in pattern.finditer(piece.strip())}
    return next(iter(found)) if len(found) == 1 else None
