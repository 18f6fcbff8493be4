"""The first-person narrator as a speaker: "said I", "I asked", "I shook my head." next to a quote.

A novel told by one of its characters tags the narrator's own words with "I". Attribution takes the narrator as
one more person of the exchange (NARRATOR), so the turns around those quotes alternate with the right people.
The narrator's name is what the others call the narrator: the vocative ("Hastings, ...", "my dear Watson") of a
quote that answers or is answered by a narrator's turn. A window that never calls the narrator by name leaves
those quotes without a speaker (no name is better than a wrong one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

NARRATOR = "I"
# The narrator speaks; the narrator's name is called by the neighbour turns this many times at least.
MIN_CALLS = 1


def narrator_name(speakers: Sequence[str | None], called: Sequence[str | None], runs: Sequence[Sequence[int]],
                  acting: frozenset[str] = frozenset()) -> str | None:
    """The name the turns next to the narrator's call the narrator by (most often); else the name any quote of
    the window calls that the narration never shows acting (the narrator is "I" there, never "Hastings"); or
    None.

    ``speakers``: each quote's decoded speaker; ``called``: the name each quote calls (its vocative), if any;
    ``runs``: the exchanges, as lists of quote indices; ``acting``: the names the narration and tags use."""
    if NARRATOR not in speakers:
        return None
    votes: Counter[str] = Counter()
    for run in runs:
        for pos, i in enumerate(run):
            if speakers[i] != NARRATOR:
                continue
            for j in (run[pos - 1] if pos else None, run[pos + 1] if pos + 1 < len(run) else None):
                if j is None or speakers[j] in (None, NARRATOR):
                    continue
                name = called[j]
                if name and name != speakers[j] and name != NARRATOR:
                    votes[name] += 1
    best = votes.most_common(1)
    if best and best[0][1] >= MIN_CALLS:
        return best[0][0]
    unseen = Counter(name for name in called if name and name != NARRATOR and name not in acting)
    best = unseen.most_common(1)
    return best[0][0] if best and best[0][1] >= MIN_CALLS else None
