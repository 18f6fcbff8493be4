"""The knowledge-updates bench's world, pure: which slots change when, the chat that tells it, the questions.

A *slot* is what holds one value at a time: an office (country + role: "Prime Minister of Finland"), or one
person's residence, employer, team or spouse. A *change* starts a value (someone became prime minister, moved to
Porto) or ends one with no successor ("stepped down", "no longer lives in"). The gold value of a slot on a day is
what the changes reported up to that day leave (``holders_on``); the chat is one session per date, in which one
speaker tells each change in a phrasing of its slot's half and the other reacts without stating anything.

Offices come from ``shared/data/temporal_facts/dyknow_leaders.csv``: every row is a start on its Start date; an
end is reported on the End date only where the next holder starts strictly later, or nobody follows. The other
kinds are generated for a fictional cast from a seeded RNG (``cast_changes``).
"""

from __future__ import annotations

import csv
import hashlib
import random
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import updates_phrasings as words

LEADERS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "temporal_facts" / "dyknow_leaders.csv"
SEED = 29
MAX_YEARS = 4  # "in YEAR" (and as_of) questions per slot, at most
LAST_DAY = date(2024, 12, 31)  # the cast's changes stop here, like the table's


@dataclass(frozen=True)
class Slot:
    kind: str  # office | residence | employment | team | relationship
    subject: str  # the country (office) or the person
    role: str = ""  # offices: the role as normalised ("Prime Minister")

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}|{self.role}"

    @property
    def half(self) -> str:
        return half_of(self.key)

    @property
    def label(self) -> str:
        return f"{self.role} of {self.subject}" if self.kind == "office" else f"{self.subject} ({self.kind})"


@dataclass(frozen=True)
class Change:
    slot: Slot
    day: date
    value: str
    end: bool = False
    previous: str | None = None  # the value this start replaces (a start only)


@dataclass(frozen=True)
class Question:
    slot: Slot
    qtype: str  # now | year | as_of
    text: str
    gold: str
    values: tuple[str, ...]  # every value the slot ever held: what scoring looks for
    as_of: datetime | None = None  # passed to search and context (as_of asks)
    asked: datetime | None = None  # the time asked about (year and as_of); None: now


@dataclass
class World:
    changes: list[Change]
    sessions: list[dict[str, Any]]
    questions: list[Question]
    phrasing_use: dict[str, int] = field(default_factory=dict)

    def messages(self) -> list[tuple[str, datetime, int]]:
        """(text, timestamp, position) of every chat message, in order."""
        out: list[tuple[str, datetime, int]] = []
        for s in self.sessions:
            for m in s["messages"]:
                out.append((m["text"], datetime.fromisoformat(m["timestamp"]), len(out)))
        return out


def half_of(key: str) -> str:
    """A stable half for a slot key: the same in every run and on every machine."""
    return words.HALVES[hashlib.sha256(key.encode("utf-8")).digest()[0] % 2]


# -- sources of changes -------------------------------------------------------------------------------------------

def normal_role(role: str) -> str:
    return words.ROLES[" ".join(role.split()).casefold()][0]


def leader_changes(path: Path = LEADERS) -> list[Change]:
    """Every row a start; an end on the End date where the next holder starts strictly later or nobody follows."""
    rows: dict[Slot, list[tuple[date, int, str, date | None]]] = defaultdict(list)
    with path.open(encoding="utf-8") as fh:
        for i, r in enumerate(csv.DictReader(fh)):
            slot = Slot("office", r["Country"].strip(), normal_role(r["Role"]))
            end = date.fromisoformat(r["End"].strip()[:10]) if r["End"].strip() else None
            rows[slot].append((date.fromisoformat(r["Start"].strip()[:10]), i, r["Name"].strip(), end))
    changes: list[Change] = []
    for slot, terms in rows.items():
        terms.sort()
        current: str | None = None
        for k, (start, _, name, end) in enumerate(terms):
            changes.append(Change(slot, start, name, previous=current if current != name else None))
            current = name
            following = terms[k + 1][0] if k + 1 < len(terms) else None
            if end is not None and (following is None or following > end):
                changes.append(Change(slot, end, name, end=True))
                current = None
    return changes


def cast_changes(people: int = 36, seed: int = SEED) -> list[Change]:
    """A fictional cast: everyone moves house; athletes (every other person) change teams, the others employers;
    two in three marry (and some divorce, and marry again). Values never repeat within a slot."""
    rng = random.Random(seed)
    last = list(words.LAST_NAMES)
    rng.shuffle(last)
    out: list[Change] = []
    for i in range(min(people, len(words.FIRST_NAMES))):
        person = f"{words.FIRST_NAMES[i]} {last[i]}"
        out += _moves(rng, Slot("residence", person), words.CITIES, rng.randint(3, 5), gap=0.2)
        if i % 2 == 0:
            out += _moves(rng, Slot("team", person), words.TEAMS, rng.randint(2, 5), gap=0.25)
        else:
            out += _moves(rng, Slot("employment", person), words.EMPLOYERS, rng.randint(2, 4), gap=0.3)
        if i % 3 != 2:
            spouses = [f"{f} {rng.choice([n for n in last if n != last[i]])}"
                       for f in rng.sample(words.SPOUSE_FIRST_NAMES, 3)]
            out += _moves(rng, Slot("relationship", person), spouses, rng.randint(1, 3), gap=1.0, last_end=0.3)
    return out


def _moves(rng: random.Random, slot: Slot, pool: Iterable[str], n: int, gap: float,
           last_end: float | None = None) -> list[Change]:
    """n successive values; after each, with probability ``gap``, an end before the next one (``last_end`` for
    the last value: it may stay)."""
    values = rng.sample(list(pool), n)
    day = date(rng.randint(1996, 2006), rng.randint(1, 12), rng.randint(1, 28))
    out: list[Change] = []
    current: str | None = None
    for k, value in enumerate(values):
        if day > LAST_DAY:
            break
        out.append(Change(slot, day, value, previous=current))
        current = value
        day += timedelta(days=rng.randint(300, 1800))
        p = gap if k + 1 < n else (last_end if last_end is not None else gap)
        if rng.random() < p and day <= LAST_DAY:
            out.append(Change(slot, day, value, end=True))
            current = None
            day += timedelta(days=rng.randint(120, 900))
    return out


# -- what holds when ------------------------------------------------------------------------------------------------

def holders_on(changes: Iterable[Change], day: date) -> frozenset[str]:
    """The slot's value(s) after every change reported on or before ``day``: ends close their value; the starts of
    one date replace what held (two starts on the same date are two holders: the source overlaps)."""
    by_day: dict[date, list[Change]] = defaultdict(list)
    for c in changes:
        if c.day <= day:
            by_day[c.day].append(c)
    held: set[str] = set()
    for d in sorted(by_day):
        held -= {c.value for c in by_day[d] if c.end}
        starts = {c.value for c in by_day[d] if not c.end}
        if starts:
            held = starts
    return frozenset(held)


def question_years(changes: list[Change], last_day: date, cap: int = MAX_YEARS) -> list[int]:
    """Years whose 1 July lies between the slot's first change and ``last_day`` with exactly one holder: one year
    from the middle of each run of the same holder, runs spread over the history, at most ``cap``."""
    first = min(c.day for c in changes)
    runs: list[tuple[str, list[int]]] = []
    for year in range(first.year, last_day.year + 1):
        day = date(year, 7, 1)
        if not first <= day <= last_day:
            continue
        held = holders_on(changes, day)
        if len(held) != 1:
            continue
        (who,) = held
        if runs and runs[-1][0] == who and runs[-1][1][-1] == year - 1:
            runs[-1][1].append(year)
        else:
            runs.append((who, [year]))
    if len(runs) > cap:
        runs = [runs[round(i * (len(runs) - 1) / (cap - 1))] for i in range(cap)] if cap > 1 else runs[:1]
    return [years[len(years) // 2] for _, years in runs]


# -- the chat -----------------------------------------------------------------------------------------------------

def _country(name: str) -> str:
    return f"the {name}" if name in words.WITH_ARTICLE else name


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


_SENTENCE_START = re.compile(r"(^|[.!?:]\s+)([a-z])")


def render(template: str, fields: dict[str, str]) -> str:
    """Fill a phrasing; possessives of names ending in s take a bare apostrophe; sentences start upper-case."""
    for name in ("y", "x", "z", "p", "v"):
        if f"{{{name}}}'s" in template and name in fields:
            template = template.replace(f"{{{name}}}'s", _possessive(fields[name]))
    text = template.format(**fields)
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)


def _fields(change: Change) -> dict[str, str]:
    slot = change.slot
    if slot.kind == "office":
        role, running, short, _ = words.ROLES[slot.role.casefold()]
        out = {"x": change.value, "y": _country(slot.subject), "Role": role, "role": running, "role_short": short}
    else:
        out = {"p": slot.subject, "v": change.value, "x": change.value}
    if change.previous and change.previous != change.value:
        out["z"] = change.previous
    return out


def _fits(template: str, roles: str, slot: Slot, fields: dict[str, str]) -> bool:
    if "{z}" in template and "z" not in fields:
        return False
    if slot.kind == "office":
        crown = words.ROLES[slot.role.casefold()][3]
        return roles == "any" or (roles == "crown") == crown
    return True


def phrase(change: Change, rng: random.Random, use: dict[str, int] | None = None) -> str:
    """The change told in a phrasing of its slot's half: among those that fit, one of the least used so far (``use``
    counts them), so that every phrasing is told; ties are broken at random."""
    use = {} if use is None else use
    fields = _fields(change)
    pool = words.PHRASINGS[change.slot.kind][change.slot.half]["end" if change.end else "start"]
    fitting = [t for t, r in pool if _fits(t, r, change.slot, fields)]
    fewest = min(use.get(t, 0) for t in fitting)
    template = rng.choice([t for t in fitting if use.get(t, 0) == fewest])
    use[template] = use.get(template, 0) + 1
    return render(template, fields)


def react(change: Change, rng: random.Random) -> str:
    """The listener's answer: a reaction, or a question that names someone; never a statement of fact."""
    fields = _fields(change)
    if rng.random() < 0.35:
        fitting = [t for t in words.REACTIONS[change.slot.kind]
                   if all(f in fields for f in re.findall(r"\{(\w+)\}", t))]
        if fitting:
            return render(rng.choice(fitting), fields)
    return rng.choice(words.REACTIONS["any"])


def chat_sessions(changes: list[Change], seed: int = SEED) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """One sessions-json session per date with all that date's changes; the reporter alternates change by change,
    the other speaker reacts. Timestamps: the date at 09:00 UTC, a minute per message."""
    rng = random.Random(seed)
    by_day: dict[date, list[Change]] = defaultdict(list)
    for c in changes:
        by_day[c.day].append(c)
    sessions: list[dict[str, Any]] = []
    use: dict[str, int] = {}
    told = 0
    for day in sorted(by_day):
        todays = sorted(by_day[day], key=lambda c: (c.slot.key, c.end, c.value))
        rng.shuffle(todays)
        messages: list[dict[str, str]] = []
        start = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
        for c in todays:
            reporter, listener = words.SPEAKERS[told % 2], words.SPEAKERS[(told + 1) % 2]
            told += 1
            for speaker, text in ((reporter, phrase(c, rng, use)), (listener, react(c, rng))):
                stamp = start + timedelta(minutes=len(messages))
                messages.append({"speaker": speaker, "text": text, "timestamp": stamp.isoformat()})
        sessions.append({"date": day.isoformat(), "session_id": f"s{len(sessions):04d}", "messages": messages})
    return sessions, use


# -- questions ----------------------------------------------------------------------------------------------------

def _question_fields(slot: Slot) -> dict[str, str]:
    if slot.kind == "office":
        role, running, _, _ = words.ROLES[slot.role.casefold()]
        return {"Role": role, "role": running, "y": _country(slot.subject)}
    return {"p": slot.subject}


def questions_for(slot: Slot, changes: list[Change], last_day: date) -> list[Question]:
    """Now (every wording), "in YEAR" and the now question with as_of = YEAR-07-01, where one value holds."""
    values = tuple(dict.fromkeys(c.value for c in changes))
    fields = _question_fields(slot)
    out = []
    now = holders_on(changes, date.max)
    if len(now) == 1:
        out += [Question(slot, "now", render(t, fields), next(iter(now)), values)
                for t in words.NOW_QUESTIONS[slot.kind]]
    year_words = words.YEAR_QUESTIONS[slot.kind]
    now_words = words.NOW_QUESTIONS[slot.kind]
    for k, year in enumerate(question_years(changes, last_day)):
        (gold,) = holders_on(changes, date(year, 7, 1))
        when = datetime(year, 7, 1, tzinfo=UTC)
        out.append(Question(slot, "year", render(year_words[k % len(year_words)], {**fields, "year": str(year)}),
                            gold, values, asked=when))
        out.append(Question(slot, "as_of", render(now_words[year % len(now_words)], fields), gold, values,
                            as_of=when, asked=when))
    return out


def office_subset(changes: list[Change], limit: int) -> list[Change]:
    """The changes of ``limit`` offices, half from each phrasing half (by key order), for quick runs."""
    if not limit:
        return changes
    slots = sorted({c.slot for c in changes if c.slot.kind == "office"}, key=lambda s: s.key)
    keep = set()
    for half in words.HALVES:
        keep |= set([s for s in slots if s.half == half][: (limit + (half == "tune")) // 2])
    return [c for c in changes if c.slot.kind != "office" or c.slot in keep]


def build_world(leaders: Path = LEADERS, limit_offices: int = 0, people: int = 36, seed: int = SEED) -> World:
    changes = office_subset(leader_changes(leaders), limit_offices) + cast_changes(people, seed)
    last_day = max(c.day for c in changes)
    by_slot: dict[Slot, list[Change]] = defaultdict(list)
    for c in changes:
        by_slot[c.slot].append(c)
    questions = [q for slot in sorted(by_slot, key=lambda s: s.key) for q in questions_for(slot, by_slot[slot],
                                                                                          last_day)]
    sessions, use = chat_sessions(changes, seed)
    return World(changes=changes, sessions=sessions, questions=questions, phrasing_use=use)
