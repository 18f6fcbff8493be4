"""The gender a given name tells, from the US census first-name lists of the ``names`` package (public data).

The built-in lists of resolve/lexicon.py know the common English names; a novel's cast goes wider (Noah, Thaddeus,
Gilbert, Ruby). A name on both census lists counts only when one list uses it far more often ("James" is male,
"Jordan" is neither), so a rare or shared name still tells nothing and no rule leans on it. Without the package,
only the built-in lists decide.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from strata.resolve.lexicon import Gender

# How many times more often one census list must use a name than the other for it to count as that gender.
DOMINANCE = 8.0
_LISTS: tuple[tuple[Gender, str], ...] = (("f", "dist.female.first"), ("m", "dist.male.first"))


@lru_cache(maxsize=1)
def census_frequencies() -> dict[Gender, dict[str, float]]:
    freq: dict[Gender, dict[str, float]] = {"f": {}, "m": {}}
    for gender, filename in _LISTS:
        try:
            text = resources.files("names").joinpath(filename).read_text(encoding="ascii")
        except (ModuleNotFoundError, FileNotFoundError):
            continue
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 2:
                freq[gender][parts[0].lower()] = float(parts[1]) or 0.0005
    return freq


@lru_cache(maxsize=1)
def census_first_names() -> frozenset[str]:
    """Every first name on either census list, of clear gender or not ("Toby", "Jordan")."""
    return frozenset(name for names in census_frequencies().values() for name in names)


@lru_cache(maxsize=1)
def census_genders() -> dict[str, Gender]:
    freq = census_frequencies()
    out: dict[str, Gender] = {}
    pairs: tuple[tuple[Gender, Gender], ...] = (("f", "m"), ("m", "f"))
    for gender, other in pairs:
        for name, share in freq[gender].items():
            if share >= DOMINANCE * freq[other].get(name, 0.0):
                out[name] = gender
    return out
