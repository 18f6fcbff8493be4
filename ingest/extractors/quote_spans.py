"""Where the quotations of a prose text are: quoted pieces grouped into utterances, paragraph by paragraph.

Pure text scanning, no model. A paragraph is a run of non-blank lines. Inside one, a quotation opens and
closes with double quotes (straight or curly) or, in texts that use them for speech, single curly quotes
(an apostrophe, "it’s", is a closing mark followed by a letter and never closes a quote). Pieces of one
paragraph belong to one utterance: ‹"Yes," said she, "I know."› is one thing said. A paragraph whose last
quote is still open at its end continues into the next paragraph's opening quote (the printed convention for
a speech of several paragraphs).

Spans are the quoted words without their marks, as Python string offsets into the text, end exclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PARAGRAPH = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")
# A single opening mark starts a quote only after a space, a line start or an opening bracket or dash.
_SINGLE_OPEN = re.compile(r"(?:(?<=^)|(?<=[\s(\[—–-]))‘(?=\S)", re.M)
_DOUBLE_OPEN = re.compile(r"[\"“]")


@dataclass(frozen=True)
class Paragraph:
    start: int
    end: int


@dataclass
class Utterance:
    """One thing said: its quoted pieces (maybe over several paragraphs) and the paragraphs they sit in."""

    pieces: list[tuple[int, int]] = field(default_factory=list)
    paragraphs: list[int] = field(default_factory=list)  # indexes into the paragraph list, in order
    open_end: bool = False  # its last quote is still open at its last paragraph's end: it goes on after

    @property
    def start(self) -> int:
        return self.pieces[0][0]

    @property
    def end(self) -> int:
        return self.pieces[-1][1]

    def text(self, source: str) -> str:
        return " ".join(" ".join(source[a:b].split()) for a, b in self.pieces)


def paragraphs(text: str) -> list[Paragraph]:
    return [Paragraph(m.start(), m.end()) for m in _PARAGRAPH.finditer(text)]


def quote_style(text: str) -> str:
    """"double" or "single": which marks the text uses for speech (the one with more opening quotes)."""
    singles = len(_SINGLE_OPEN.findall(text))
    doubles = len(_DOUBLE_OPEN.findall(text)) // 2
    return "single" if singles > doubles else "double"


def _pieces_double(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], bool]:
    """Quoted pieces of one paragraph, and whether the last one is still open at the paragraph's end."""
    pieces: list[tuple[int, int]] = []
    opened: int | None = None
    for i in range(start, end):
        c = text[i]
        if c == "“" or (c == '"' and opened is None):
            if opened is not None and c == "“":  # a curly opening inside an open quote: the first never closed
                pieces.append((opened, i))
            opened = i + 1
        elif c in '"”' and opened is not None:
            pieces.append((opened, i))
            opened = None
    if opened is not None:
        pieces.append((opened, end))
    return pieces, opened is not None


def _pieces_single(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], bool]:
    pieces: list[tuple[int, int]] = []
    opened: int | None = None
    i = start
    while i < end:
        c = text[i]
        if c == "‘" and opened is None and _SINGLE_OPEN.match(text, i) is not None and (
                i == 0 or not text[i - 1].isalnum()):
            opened = i + 1
        elif c == "’" and opened is not None and (i + 1 >= end or not text[i + 1].isalpha()):
            pieces.append((opened, i))
            opened = None
        i += 1
    if opened is not None:
        pieces.append((opened, end))
    return pieces, opened is not None


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def find_utterances(text: str, style: str | None = None) -> tuple[list[Paragraph], list[Utterance]]:
    """The paragraphs of ``text`` and its utterances in reading order."""
    style = style or quote_style(text)
    scan = _pieces_single if style == "single" else _pieces_double
    paras = paragraphs(text)
    out: list[Utterance] = []
    still_open = False
    for k, para in enumerate(paras):
        pieces, open_at_end = scan(text, para.start, para.end)
        pieces = [p for p in (_trim(text, a, b) for a, b in pieces) if p[1] > p[0]]
        if not pieces:
            still_open = False
            continue
        continues = still_open and text[para.start] in "\"“‘" and pieces[0][0] <= para.start + 1
        if continues and out:
            out[-1].pieces.extend(pieces)
            out[-1].paragraphs.append(k)
        else:
            out.append(Utterance(pieces=list(pieces), paragraphs=[k]))
        still_open = out[-1].open_end = open_at_end
    return paras, out


def opens_continuation(text: str, para: Paragraph, u: Utterance) -> bool:
    """The utterance opens its paragraph with a quote mark: it may carry on a speech left open before it."""
    return text[para.start] in "\"“‘" and u.pieces[0][0] <= para.start + 1
