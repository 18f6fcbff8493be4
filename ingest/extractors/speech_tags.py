"""Speech tags in the narration next to a quote: "said Elizabeth", "Mr. Bennet replied", "cried his wife".

Pure pattern matching on the narration's text, no parse: tags are formulaic, and the small parser splits them
badly when a dash or a quote mark is glued to a word ("Charlotte,--"you"). A tag's subject is a name, a
pronoun ("said she") or a person noun with its determiner ("his wife", "the lady"); whom it stands for is
decided by the caller, which knows who was named before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from strata.ingest.extractors.relation_words import NOUN_GENDER
from strata.ingest.extractors.tag_descriptors import read
from strata.resolve.lexicon import Gender

# Base forms; the regular past and third-person forms are derived, the irregular ones listed.
SPEECH_VERBS = frozenset({
    "say", "reply", "cry", "answer", "return", "add", "continue", "observe", "ask", "exclaim", "rejoin", "repeat",
    "whisper", "begin", "resume", "remark", "call", "shout", "mutter", "murmur", "declare", "insist", "interrupt",
    "inquire", "enquire", "protest", "explain", "urge", "pursue", "speak", "agree", "admit", "sigh", "laugh",
    "falter", "stammer", "retort", "persist", "conclude", "venture", "demand", "scream", "sob", "groan", "growl",
    "roar", "sing", "reason", "argue", "suggest", "respond", "announce", "think", "tell", "assure", "plead", "beg",
    "confess", "object", "entreat", "hint", "proceed", "sneer", "snap", "squeak", "yell", "bawl", "moan", "wail",
    "chuckle", "giggle", "grumble", "complain", "recollect", "recommence", "acknowledge", "correct", "interpose",
    "shriek", "sniff", "gasp", "hiss", "grunt", "breathe", "bellow", "smile", "write", "read", "go on", "address",
})
_IRREGULAR = {"say": ["said", "says"], "begin": ["began", "begins"], "speak": ["spoke", "speaks"],
              "think": ["thought", "thinks"], "tell": ["told", "tells"], "sing": ["sang", "sings"],
              "write": ["wrote", "writes"], "read": ["read", "reads"], "go on": ["went on", "goes on"]}


def _forms(verb: str) -> list[str]:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        past = verb + "d"
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        past = verb[:-1] + "ied"
    elif re.search(r"[^aeiou][aeiou][bdgmnpt]$", verb) and verb not in ("answer", "murmur", "mutter", "whisper",
                                                                        "enter", "falter", "stammer"):
        past = verb + verb[-1] + "ed"  # "sob" -> "sobbed"
    else:
        past = verb + "ed"
    third = verb[:-1] + "ies" if verb.endswith("y") and verb[-2] not in "aeiou" else (
        verb + "es" if verb.endswith(("s", "sh", "ch", "x")) else verb + "s")
    return [past, third]


_VERB_FORMS = sorted({f for v in SPEECH_VERBS for f in _forms(v)} - {"calls", "called", "reads", "read"},
                     key=len, reverse=True)
SPEECH_VERB = r"\b(?:" + "|".join(re.escape(f) for f in _VERB_FORMS) + r")\b"  # any form, no group
_VERB = r"(?P<verb>" + "|".join(re.escape(f) for f in _VERB_FORMS) + r")\b"
_TITLE = r"(?:Mr|Mrs|Miss|Ms|Dr|Sir|Lady|Lord|Colonel|Captain|Major|General|Aunt|Uncle|Madame|Mme|Mlle|Master)\.?"
_WORD = r"[A-Z][\w'’]*(?:-[A-Za-z][\w'’]*)*"  # a dash ("Emma--quite") ends a name; a hyphen joins its parts
# a title inside ends the name: ‹asked Grimwig of Mr. Brownlow› is Grimwig's
_NAME = rf"(?:{_TITLE}\s+)?{_WORD}(?:\s+(?:de|van|von|of|the|d')?\s*(?!{_TITLE}(?=\s)){_WORD})*"
_DET = r"(?:his|her|their|my|our|your|the|a|an|its|this|that|poor|young|old)"
_NOMINAL = rf"{_DET}(?:\s+(?:[a-z]+(?:-[a-z]+)?))?\s+[a-z]+"
# "the barman", "The stranger", "the Invisible Man": read whole by tag_descriptors.read
_THE = r"\b[Tt]he(?:\s+[A-Za-z][\w'’-]*){1,3}?"
_SUBJECT = rf"(?P<subject>\b(?:he|she|He|She|I)\b|{_THE}|{_NOMINAL}|{_NAME})"
_ADVERBS = r"(?:\s+(?:[a-z]+ly|again|then|now|at\s+last|at\s+length|once\s+more|presently|instantly|too|however))*"
_LEAD = r"^[\s,;:.!?\"“”‘’_—–-]*"
# "said Elizabeth", "replied Mr. Bennet", "cried his wife", "said she" right after the quote
_INVERTED = re.compile(_LEAD + r"(?:(?:[a-z]+ly|then|again)\s+)?" + _VERB + _ADVERBS + r"\s+" + _SUBJECT)
# "Elizabeth replied", "she said", "his wife cried"
_NORMAL = re.compile(_LEAD + _SUBJECT + _ADVERBS + r"\s+" + _VERB)
# narration that introduces the quote: "Jane answered:", "Elizabeth, after a pause, said," (searched in the
# last sentence from each possible subject on)
_INTRO = re.compile(_SUBJECT + r"(?:[^.!?;\"“”]{0,90}?)\s" + _VERB + r"[^.!?;\"“”]{0,60}?[\s,:;—–-]*$")
_SUBJECT_START = re.compile(rf"\b(?:he|she|He|She|{_DET}\s|{_TITLE}\s|[A-Z])")
_CLAUSE_END = re.compile(r"[.!?;]+[\"”’]?\s")
_TITLE_WORD = re.compile(_TITLE + r"$")
_TO = re.compile(r"\s*(?:[a-z]+ly\s+)?to\s+(?P<to>him|her|them|me|" + _NAME + r"|" + _NOMINAL + r")\b")
_NOT_NAMES = frozenset({"The", "A", "An", "And", "But", "Then", "When", "As", "Oh", "Yes", "No", "It", "This",
                        "That", "There", "Here", "Well", "Now", "So", "Nay", "Ah", "O", "What", "Why", "How",
                        "Such", "Her", "His", "They", "We", "You", "Their", "Our", "My", "Your", "Its", "In", "On",
                        "At", "After", "Before", "While", "If", "Though", "Although", "With", "Without", "For"})

# Person nouns, with the gender they tell, that can head a tag's subject ("cried his wife", "said the lady").
PERSON_NOUNS: dict[str, Gender | None] = {
    **NOUN_GENDER, "lady": "f", "gentleman": "m", "woman": "f", "man": "m", "mistress": "f", "master": "m",
    "king": "m", "queen": "f", "duchess": "f", "duke": "m", "child": None, "friend": None, "cousin": None,
    "companion": None, "visitor": None, "guest": None, "stranger": None, "servant": None, "housekeeper": "f",
    "maid": "f", "footman": "m", "officer": "m", "colonel": "m", "captain": "m", "doctor": None, "host": "m",
    "hostess": "f", "ladyship": "f", "lordship": "m", "mamma": "f", "papa": "m", "mama": "f",
}

SubjectKind = Literal["name", "pronoun", "nominal", "first", "descriptor"]


@dataclass(frozen=True)
class Tag:
    """A speech tag found in narration: its subject as written, what kind it is, where, and a "to X"."""

    subject: str
    kind: SubjectKind
    start: int  # offset of the subject inside the narration text
    verb: str
    to: str | None = None


def _kind(subject: str) -> SubjectKind | None:
    low = subject.lower()
    if low in ("he", "she"):
        return "pronoun"
    if low == "i":
        return "first"
    first = subject.split()[0]
    if first[0].islower() or first == "The":
        return "nominal"
    if first in _NOT_NAMES:
        return None
    return "name"


def _clauses(text: str) -> list[tuple[int, str]]:
    """Sentence-like pieces with their offsets; a title's period ("Mrs. Bennet") ends nothing."""
    out, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        if _TITLE_WORD.search(text[max(0, m.start() - 8):m.start() + 1]):
            continue
        out.append((start, text[start:m.end()]))
        start = m.end()
    out.append((start, text[start:]))
    return [(a, c) for a, c in out if c.strip()]


def _tag(match: re.Match[str] | None, narration: str) -> Tag | None:
    if match is None:
        return None
    subject = match.group("subject").strip()
    kind = _kind(subject)
    if kind == "nominal" and subject.split()[0] in ("the", "The"):  # "said the barman" names its speaker
        verb_after = match.start("verb") > match.start("subject")  # "the barman said": the name ends at the verb
        described = read(narration[:match.start("verb")] if verb_after else narration, match.start("subject"))
        if described is None:
            return None
        kind = "nominal" if described.reading == "refers" else "descriptor"
        subject = described.name
    elif kind == "nominal":  # "his wife impatiently" -> "his wife"; "the old lady" stays whole
        words = subject.split()
        noun = next((k for k in range(1, len(words)) if words[k].lower() in PERSON_NOUNS
                     or words[k].lower() in ("former", "latter")), None)
        subject = " ".join(words[:noun + 1]) if noun is not None else ""
    if kind is None or not subject:
        return None
    if kind == "name":  # drop words glued after the name that are not capitalized name words
        subject = " ".join(w for w in subject.split() if w[0].isupper() or w.lower() in ("de", "van", "von", "of"))
        subject = re.sub(r"[’']s$", "", subject)  # "Jane's" owns something; the owner is still the name
        subject = subject.rstrip("-")  # ‹cried Elizabeth.--"You› : the dash after a name is punctuation
    to = _TO.match(narration, max(match.end("verb"), match.end("subject")))
    return Tag(subject=subject, kind=kind, start=match.start("subject"), verb=match.group("verb"),
               to=to.group("to") if to else None)


def tag_after(narration: str) -> Tag | None:
    """The tag that opens the narration right after a quote ("..." said she, / "..." Jane replied.)."""
    clauses = _clauses(narration)
    clause = clauses[0][1] if clauses else ""
    return _tag(_INVERTED.match(clause), narration) or _tag(_NORMAL.match(clause), narration)


def tag_before(narration: str) -> Tag | None:
    """A tag that closes the narration before a quote ("Jane answered:", "said Elizabeth,")."""
    clauses = _clauses(narration.rstrip())
    if not clauses:
        return None
    base, last = clauses[-1]
    for start in _SUBJECT_START.finditer(last):
        found = _tag(_INTRO.match(last, start.start()), last)
        if found is not None:
            return Tag(found.subject, found.kind, found.start + base, found.verb, found.to)
    inverted = _INVERTED.match(last)
    if inverted is not None and re.fullmatch(r"[\s,:;—–-]*", last[inverted.end():]):
        tag = _tag(inverted, last)
        return None if tag is None else Tag(tag.subject, tag.kind, tag.start + base, tag.verb, tag.to)
    return None

