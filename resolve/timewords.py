"""The time a question asks about: "in May 2023", "on 3 May, 2023", "in 2022", "last year", "yesterday".

Search ranks what was said or true inside that window higher (``SearchQuery.around``). Only explicit dates
and phrases relative to the reference time (the query's ``as_of``, else now) count; a month without a year
("in May") or a vague phrase ("recently") gives no window: a wrong window is worse than none.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dateutil.relativedelta import relativedelta

from strata.schema.models import TimeWindow

_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december"]
_MONTHS = {name: i + 1 for i, name in enumerate(_MONTH_NAMES)}
_MONTHS.update({name[:3]: i + 1 for i, name in enumerate(_MONTH_NAMES)})
_MONTHS["sept"] = 9
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"((?:19|20)\d\d)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ISO = re.compile(r"\b" + _YEAR + r"-(\d{2})-(\d{2})\b")
_DAY_MONTH_YEAR = re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR + r"\b")
_MONTH_DAY_YEAR = re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR + r"\b")
_MONTH_YEAR = re.compile(r"\b" + _MONTH + r",?\s+(?:of\s+)?" + _YEAR + r"\b")
_YEAR_ALONE = re.compile(r"\b(?:in|during|of|since|by)\s+" + _YEAR + r"\b")
_RELATIVE = re.compile(r"\b(yesterday|today|last\s+(?:week|month|year)|this\s+(?:week|month|year))\b")


def time_window(text: str, reference: datetime | None = None) -> TimeWindow | None:
    """The first time phrase of ``text`` as a window of days, months or a year; None when there is none."""
    lowered = text.lower()
    ref = (reference or datetime.now(UTC)).astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if m := _ISO.search(lowered):
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(0))
    if m := _DAY_MONTH_YEAR.search(lowered):
        return _day(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)), m.group(0))
    if m := _MONTH_DAY_YEAR.search(lowered):
        return _day(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)), m.group(0))
    if m := _MONTH_YEAR.search(lowered):
        start = datetime(int(m.group(2)), _MONTHS[m.group(1)], 1, tzinfo=UTC)
        return TimeWindow(start=start, end=start + relativedelta(months=1), phrase=m.group(0))
    if m := _YEAR_ALONE.search(lowered):
        start = datetime(int(m.group(1)), 1, 1, tzinfo=UTC)
        return TimeWindow(start=start, end=start.replace(year=start.year + 1), phrase=m.group(0))
    if m := _RELATIVE.search(lowered):
        return _relative(" ".join(m.group(1).split()), ref)
    return None


def _day(year: int, month: int, day: int, phrase: str) -> TimeWindow | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return TimeWindow(start=start, end=start + timedelta(days=1), phrase=phrase)


def _relative(phrase: str, ref: datetime) -> TimeWindow:
    if phrase == "yesterday":
        return TimeWindow(start=ref - timedelta(days=1), end=ref, phrase=phrase)
    if phrase == "today":
        return TimeWindow(start=ref, end=ref + timedelta(days=1), phrase=phrase)
    which, unit = phrase.split()
    if unit == "week":
        start = ref - timedelta(days=ref.weekday())
        step = relativedelta(weeks=1)
    elif unit == "month":
        start, step = ref.replace(day=1), relativedelta(months=1)
    else:
        start, step = ref.replace(month=1, day=1), relativedelta(years=1)
    if which == "last":
        start -= step
    return TimeWindow(start=start, end=start + step, phrase=phrase)
