"""Resolve date expressions ("yesterday", "last May", "in 2019", "3 weeks ago") against a reference time.

Deliberately simple: a wrong guess is worse than None, so anything dateutil cannot read plainly is dropped.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august", "september",
         "october", "november", "december"]
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_UNITS = {"day": "days", "week": "weeks", "month": "months", "year": "years"}


def _delta(unit: str, n: int) -> relativedelta:
    """``n`` of a unit ("week") as a relativedelta."""
    days, weeks, months, years = (n if _UNITS[unit] == name else 0 for name in ("days", "weeks", "months", "years"))
    return relativedelta(days=days, weeks=weeks, months=months, years=years)
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

_AGO = re.compile(r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+"
                  r"(day|week|month|year)s?\s+ago\b")
_REL_UNIT = re.compile(r"\b(last|next|this)\s+(week|month|year)\b")
_REL_NAME = re.compile(r"\b(last|next|this)\s+([a-z]+)\b")
_DECADE = re.compile(r"\b(1[5-9]\d0|20\d0)'?s\b")
_YEAR_ONLY = re.compile(r"^(?:in\s+|the\s+year\s+)?(1[5-9]\d\d|20\d\d)$")
_HAS_ANCHOR = re.compile(r"\d|\b(" + "|".join(_MONTHS) + r")\b")


def _midnight(value: datetime) -> datetime:
    return value.replace(hour=0, minute=0, second=0, microsecond=0)


def resolve_date(text: str, reference: datetime) -> datetime | None:
    """Turn a date phrase into a UTC datetime (midnight), or None when it is not a confident date."""
    ref = reference if reference.tzinfo else reference.replace(tzinfo=UTC)
    ref = _midnight(ref.astimezone(UTC))
    phrase = " ".join(text.lower().replace("’", "'").split()).strip(" .,;:")
    if not phrase:
        return None
    simple = {"today": 0, "tonight": 0, "now": 0, "yesterday": -1, "last night": -1, "tomorrow": 1}
    for word, days in simple.items():
        if re.search(rf"\b{word}\b", phrase):
            return ref + timedelta(days=days)
    if m := _AGO.search(phrase):
        n = int(m.group(1)) if m.group(1).isdigit() else _NUMBER_WORDS[m.group(1)]
        return ref - _delta(m.group(2), n)
    if m := _REL_UNIT.search(phrase):
        sign = {"last": -1, "next": 1, "this": 0}[m.group(1)]
        moved = ref + _delta(m.group(2), sign)
        if m.group(2) == "year":
            return moved.replace(month=1, day=1)
        if m.group(2) == "month":
            return moved.replace(day=1)
        return moved - timedelta(days=moved.weekday()) if m.group(2) == "week" else moved
    if m := _REL_NAME.search(phrase):
        direction, name = m.group(1), m.group(2)
        if name in _MONTHS:
            return _relative_month(ref, _MONTHS[name], direction)
        if name in _WEEKDAYS:
            return _relative_weekday(ref, _WEEKDAYS.index(name), direction)
    if m := _DECADE.search(phrase):
        return datetime(int(m.group(1)), 1, 1, tzinfo=UTC)
    if m := _YEAR_ONLY.match(phrase):
        return datetime(int(m.group(1)), 1, 1, tzinfo=UTC)
    if not _HAS_ANCHOR.search(phrase):
        return None  # "the next day", "that evening": needs narrative context we do not have
    try:
        parsed = date_parser.parse(phrase, default=ref.replace(month=1, day=1, tzinfo=None), fuzzy=True)
    except (ValueError, OverflowError):
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _relative_month(ref: datetime, month: int, direction: str) -> datetime:
    year = ref.year
    if direction == "last" and month >= ref.month:
        year -= 1
    elif direction == "next" and month <= ref.month:
        year += 1
    return ref.replace(year=year, month=month, day=1)


def _relative_weekday(ref: datetime, weekday: int, direction: str) -> datetime:
    delta = weekday - ref.weekday()
    if direction == "last":
        return ref + timedelta(days=delta - 7 if delta >= 0 else delta)
    if direction == "next":
        return ref + timedelta(days=delta + 7 if delta <= 0 else delta)
    return ref + timedelta(days=delta)


def parse_iso(value: str | None) -> datetime | None:
    """Parse a model-supplied timestamp (ISO 8601 expected, anything dateutil reads accepted)."""
    if not value or not value.strip():
        return None
    try:
        parsed = date_parser.isoparse(value.strip())
    except ValueError:
        try:
            parsed = date_parser.parse(value.strip())
        except (ValueError, OverflowError):
            return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
