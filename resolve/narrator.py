"""Who the first-person narrator of a book is, from the windows that call the narrator by name. Pure.

Attribution names the narrator's own quotes ("said I") inside one window only when the others call the narrator
by name there (ingest/extractors/narrator.py); many windows never do. Across the whole book the windows that do
mostly agree ("Watson", "Hastings"), so once the book is read the consolidation pass gives the narrator's
unnamed quotes to the name most of those windows gave, when they clearly agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

# Windows that must have named the narrator, and how many times the next name's windows the leader must have
# (a window may take a neighbour's vocative for the narrator's name: "Wiggins", said to the boy, once).
MIN_WINDOWS = 2
LEAD_RATIO = 3.0


def book_narrator(named: Iterable[tuple[str, str]]) -> str | None:
    """The narrator of a book from (window, name) pairs: the narrator's quotes that their window named. The name
    given in most windows, when at least MIN_WINDOWS gave it and LEAD_RATIO times as many as the next name; else
    None (a book told by several narrators, or one the others never name)."""
    votes = Counter(name for _, name in set(named)).most_common(2)
    if not votes:
        return None
    (name, n), runner_up = votes[0], (votes[1][1] if len(votes) > 1 else 0)
    return name if n >= MIN_WINDOWS and n >= LEAD_RATIO * runner_up else None
