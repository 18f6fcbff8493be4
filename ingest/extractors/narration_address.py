"""Whom the narration turns a speaker to before a quote: ‹Miss Woodhouse ... turned to Frank Churchill.› then
‹"Why do you smile?" said she.› The person reached by a verb of turning or addressing ("turned to X",
"addressed X", "said to X") in the narration just before the quote is its hearer, and so most likely the next
speaker (the decoder's ``ANSWER``). The verbs are data (``ingest/assets/address_verbs.json``); only a named
person counts, never the verb's own subject.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Token

LEXICON = Path(__file__).resolve().parent.parent / "assets" / "address_verbs.json"


@lru_cache(maxsize=1)
def _verbs() -> tuple[frozenset[str], frozenset[str]]:
    data = json.loads(LEXICON.read_text(encoding="utf-8"))
    return frozenset(data["to"]), frozenset(data["object"])


def hearer_token(tokens: Sequence[Token]) -> Token | None:
    """The last token the narration's last sentence turns its subject to: the object of "to" after a verb of
    turning or speaking, or the direct object of a verb of addressing; None when there is none."""
    if not tokens:
        return None
    to_verbs, object_verbs = _verbs()
    lo, hi = tokens[0].i, tokens[-1].i
    found: Token | None = None
    for t in tokens[-1].sent:
        if not lo <= t.i <= hi or t.pos_ not in ("VERB", "AUX"):
            continue
        lemma = t.lemma_.lower()
        for child in t.children:
            if lemma in to_verbs and child.dep_ in ("prep", "dative") and child.lower_ == "to":
                found = next((c for c in child.children if c.dep_ == "pobj"), found)
            elif lemma in object_verbs and child.dep_ in ("dobj", "dative"):
                found = child
    return found


def narrated_hearer(tokens: Sequence[Token], name_of: Callable[[Token], str | None]) -> str | None:
    """The named person the narration turns its speaker to (``name_of`` reads a name at a token)."""
    t = hearer_token(tokens)
    return name_of(t) if t is not None else None
