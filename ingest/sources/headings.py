"""Chapter and part headings in plain-text books.

Candidates, by style (the first style with at least two surviving headings is the chapter style; the
others are treated as sub-sections and ignored):
1. keyword:       ``CHAPTER I``, ``Chapter 12.``, ``CHAPTER XII. Title``, ``Chap. 3``, ``LETTER 4``, ``STAVE ONE``
2. numeral_title: ``I. A SCANDAL IN BOHEMIA`` on a line of its own
3. numeral:       ``IV.`` or ``12`` alone on a line
Parts (``BOOK ONE: 1805``, ``PART II``, ``VOLUME 3``, ``FIRST EPILOGUE``) are always boundaries and
prefix the chapter label. A heading followed by no text before the next heading is a table-of-contents
entry and is dropped; numeral styles must also count up (1, 2, 3..., restarting only after a part).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN = re.compile(r"^M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
).split()
_NUM = r"(?P<num>[IVXLCDMivxlcdm]+|\d{1,4}|[A-Za-z]+(?:[- ][A-Za-z]+)?)"
_KEYWORD = re.compile(
    rf"^\[?\s*(?:CHAPTER|Chapter|CHAP\.|Chap\.|LETTER|Letter|STAVE|Stave)\s+{_NUM}\b\.?"
    r"(?:\s*[:.\-—–]?\s*(?P<title>.*?))?\s*\]?$"
)
_PART = re.compile(
    rf"^\[?\s*(?:BOOK|Book|PART|Part|VOLUME|Volume|VOL\.|Vol\.)\s+{_NUM}\b\.?"
    r"(?:\s*[:.\-—–]?\s*(?P<title>.*?))?\s*\]?$"
)
_EPILOGUE = re.compile(
    r"^(?:(?:FIRST|SECOND|THIRD|FINAL|First|Second|Third|Final)\s+)?(?:EPILOGUE|Epilogue|PROLOGUE|Prologue)"
    r"\b[^a-z]{0,40}$"
)
_NUMERAL_TITLE = re.compile(r"^(?P<num>[IVXLCDM]+|\d{1,3})\.\s+(?P<title>[^\W\d_].{0,78})$")
_NUMERAL = re.compile(r"^(?P<num>[IVXLCDM]+|\d{1,3})\.?$")
_MAX_HEADING = 100
STYLES = ("keyword", "numeral_title", "numeral")


@dataclass(frozen=True)
class Heading:
    level: str  # "part" or "chapter"
    style: str
    label: str
    number: int | None
    line: int  # index into the line list
    last_line: int  # last line consumed (a title line below a bare "CHAPTER I")
    start: int
    end: int


def to_number(token: str) -> int | None:
    """Roman, arabic or English number words ("XII", "12", "twelve", "twenty-one", "first")."""
    if token.isdigit():
        return int(token)
    upper = token.upper()
    if _ROMAN.match(upper):
        values = [_ROMAN_VALUES[c] for c in upper]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    total = 0
    for word in re.split(r"[- ]", token.lower()):
        if word in _TENS and total == 0:
            total = _TENS[word]
        elif word in _WORDS:
            total += _WORDS.index(word)
        elif word in _ORDINALS:
            total += _ORDINALS.index(word)
        else:
            return None
    return total or None


def _label(line: str) -> str:
    return " ".join(line.strip().strip("[]").split())


def _candidate(line: str, prev_blank: bool, next_blank: bool) -> tuple[str, str, int | None] | None:
    """(level, style, number) when a line looks like a heading."""
    stripped = line.strip()
    if len(stripped) > _MAX_HEADING or not prev_blank:
        return None
    for regex, level, style in ((_PART, "part", "part"), (_KEYWORD, "chapter", "keyword")):
        match = regex.match(stripped)
        if match and (number := to_number(match["num"])) is not None:
            return level, style, number
    if not next_blank:
        return None
    if _EPILOGUE.match(stripped):
        return "part", "part", None
    match = _NUMERAL_TITLE.match(stripped)
    if match and (number := to_number(match["num"])) is not None:
        return "chapter", "numeral_title", number
    match = _NUMERAL.match(stripped)
    if match and (number := to_number(match["num"])) is not None:
        return "chapter", "numeral", number
    return None


def _listed(next_line: str) -> bool:
    """A heading directly followed by another heading line is a table-of-contents entry."""
    stripped = next_line.strip()
    return bool(stripped) and bool(_KEYWORD.match(stripped) or _PART.match(stripped))


def _title_line(lines: list[tuple[int, int, str]], index: int) -> int | None:
    """A short all-capitals line just below a bare "CHAPTER I" is its title."""
    j = index + 1
    while j < len(lines) and not lines[j][2].strip() and j <= index + 2:
        j += 1
    if j >= len(lines) or not lines[j][2].strip() or (j + 1 < len(lines) and lines[j + 1][2].strip()):
        return None
    text = lines[j][2].strip()
    letters = [c for c in text if c.isalpha()]
    if len(text) > 60 or text[0] in "[“\"'(" or not letters:
        return None
    if sum(c.isupper() for c in letters) < 0.7 * len(letters) or _candidate(text, True, True):
        return None
    return j


def _drop_empty(found: list[Heading], nonblank_before: list[int]) -> list[Heading]:
    """Drop table-of-contents entries: chapters with no text before the next heading, then empty parts."""

    def body(a: int, b: int) -> bool:
        return nonblank_before[b] - nonblank_before[a] > 0

    if not found:
        return []
    ends = [h.line for h in found[1:]] + [len(nonblank_before) - 1]
    chapters = {
        id(h) for h, nxt in zip(found, ends, strict=True) if h.level == "chapter" and body(h.last_line + 1, nxt)
    }
    kept: list[Heading] = []
    for i, heading in enumerate(found):
        if heading.level == "chapter":
            if id(heading) in chapters:
                kept.append(heading)
            continue
        following = found[i + 1 :]
        next_part = next((h.line for h in following if h.level == "part"), len(nonblank_before) - 1)
        has_chapter = any(id(h) in chapters and h.line < next_part for h in following)
        if has_chapter or body(heading.last_line + 1, ends[i]):
            kept.append(heading)
    return kept


def _in_sequence(found: list[Heading]) -> list[Heading]:
    kept: list[Heading] = []
    previous: int | None = None
    for heading in found:
        if heading.level == "part":
            kept.append(heading)
            previous = None
        elif heading.number == (previous or 0) + 1 or (heading.number == 1 and previous is None):
            kept.append(heading)
            previous = heading.number
    return kept


def detect_headings(text: str, start: int, end: int) -> list[Heading]:
    """Headings between offsets start and end, in order."""
    lines: list[tuple[int, int, str]] = []
    pos = start
    while pos < end:
        stop = text.find("\n", pos, end)
        stop = end if stop == -1 else stop
        lines.append((pos, stop, text[pos:stop]))
        pos = stop + 1
    blank = [not line[2].strip() for line in lines]
    nonblank_before = [0]
    for is_blank in blank:
        nonblank_before.append(nonblank_before[-1] + (not is_blank))
    candidates: list[Heading] = []
    for i, (line_start, _, line) in enumerate(lines):
        if blank[i]:
            continue
        found = _candidate(line, i == 0 or blank[i - 1], i + 1 == len(lines) or blank[i + 1])
        if found is None or (i + 1 < len(lines) and _listed(lines[i + 1][2])):
            continue
        level, style, number = found
        label, last = _label(line), i
        if style == "keyword" and _KEYWORD.match(line.strip())["title"] in (None, ""):  # type: ignore[index]
            title = _title_line(lines, i)
            if title is not None:
                label, last = f"{label} {_label(lines[title][2])}", title
        candidates.append(Heading(level, style, label, number, i, last, line_start, lines[last][1]))
    parts = [h for h in candidates if h.level == "part"]
    for style in STYLES:
        chosen = sorted(parts + [h for h in candidates if h.style == style], key=lambda h: h.line)
        kept = _drop_empty(chosen, nonblank_before)
        if style != "keyword":
            kept = _drop_empty(_in_sequence(kept), nonblank_before)
        if sum(h.level == "chapter" for h in kept) >= 2:
            return kept
    return _drop_empty(parts, nonblank_before)
