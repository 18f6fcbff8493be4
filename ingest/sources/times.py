"""Timestamp parsing for sources: ISO 8601 fast path, python-dateutil for the rest, naive = UTC.

A value that lacks a date (``10:02``, ``March 5``) only resolves against an anchor date (the session
date); without one it is refused instead of silently taking today's date, which dateutil would do.
"""

from __future__ import annotations

import re
import warnings
from datetime import UTC, datetime, timedelta

from dateutil import parser as du_parser

_DEFAULT_A = datetime(2000, 1, 1)
_DEFAULT_B = datetime(2001, 2, 2)
_DIGITS = re.compile(r"^\d+(?:\.\d+)?$")
_RELATIVE = re.compile(r"(\d+(?:\.\d+)?)\s*(second|sec|minute|min|hour|hr|day|week|month|year)s?\b", re.I)
_UNIT_SECONDS = {
    "second": 1,
    "sec": 1,
    "minute": 60,
    "min": 60,
    "hour": 3600,
    "hr": 3600,
    "day": 86400,
    "week": 7 * 86400,
    "month": 30 * 86400,
    "year": 365 * 86400,
}


def to_utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _from_epoch(number: float) -> datetime | None:
    # 9-10 digit values are seconds, 12-13 digit values milliseconds; anything else is not an epoch.
    if 1e8 <= number < 1e11:
        return datetime.fromtimestamp(number, UTC)
    if 1e11 <= number < 1e14:
        return datetime.fromtimestamp(number / 1000, UTC)
    return None


def parse_timestamp(value: object, anchor: datetime | None = None) -> datetime | None:
    """Parse a timestamp from JSON or text; None when it cannot be read unambiguously.

    ``anchor`` supplies missing date parts (a time-only value inside a dated session).
    Missing month/day with a year present default to the first ("2020" -> 2020-01-01).
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return _from_epoch(float(value))
    if isinstance(value, datetime):
        return to_utc(value)
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > 64:
        return None
    if _DIGITS.match(text):
        if len(text) == 4:
            return datetime(int(text), 1, 1, tzinfo=UTC)
        return _from_epoch(float(text))
    try:
        return to_utc(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        pass
    return _parse_loose(text, anchor)


def _parse_loose(text: str, anchor: datetime | None) -> datetime | None:
    with warnings.catch_warnings():
        # Unknown zone names ("EST") only warn and give a naive time, which is taken as UTC.
        warnings.simplefilter("ignore")
        try:
            first = du_parser.parse(text, default=_DEFAULT_A)
            second = du_parser.parse(text, default=_DEFAULT_B)
        except (ValueError, OverflowError, TypeError):
            return None
        if first.year == second.year:
            # The year was given; month/day default to the first of the period.
            return to_utc(first)
        if anchor is None:
            return None
        base = to_utc(anchor).replace(tzinfo=None, hour=0, minute=0, second=0, microsecond=0)
        try:
            return to_utc(du_parser.parse(text, default=base))
        except (ValueError, OverflowError, TypeError):
            return None


def parse_relative(text: str) -> timedelta | None:
    """``"5 days 1 hour ago"`` -> timedelta(days=5, hours=1); None when no unit is found."""
    total = 0.0
    found = False
    for number, unit in _RELATIVE.findall(text or ""):
        total += float(number) * _UNIT_SECONDS[unit.lower()]
        found = True
    return timedelta(seconds=total) if found else None
