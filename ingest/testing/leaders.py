"""The office-holder table as facts episodes, and the expected answers derived from it.

Each row becomes "Name holds_office Role of Country from Start"; the end of a term is NOT taken from the
End column: it must come from the successor, through the temporal rules. Rows whose source data overlaps
(two holders of one office starting on the same day, or a duplicated row) are reported, not hidden.
"""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from strata.graph.driver import Graph
from strata.graph.read import list_facts
from strata.resolve.normalize import entity_key
from strata.resolve.roles import roles
from strata.schema import ids
from strata.schema.models import Episode, FactStatement

PREDICATE = "holds_office"


@dataclass(frozen=True)
class Row:
    index: int
    country: str
    role: str
    name: str
    start: datetime
    end: datetime | None

    @property
    def office(self) -> str:
        return f"{self.role} of {self.country}"


def _date(text: str) -> datetime | None:
    text = text.strip()
    return datetime.fromisoformat(text[:10]).replace(tzinfo=UTC) if text else None


def _start(text: str) -> datetime:
    """A row's Start: every row is a start (an empty one is a broken file)."""
    found = _date(text)
    if found is None:
        raise ValueError("a row without a Start date")
    return found


def load_rows(path: Path) -> list[Row]:
    with path.open(encoding="utf-8") as fh:
        return [Row(i, r["Country"].strip(), r["Role"].strip(), r["Name"].strip(), _start(r["Start"]),
                    _date(r["End"])) for i, r in enumerate(csv.DictReader(fh))]


def row_episode(group_id: str, row: Row) -> Episode:
    statement = FactStatement(subject=row.name, subject_type="Person", predicate=PREDICATE, object=row.office,
                              object_type="Office", valid_at=row.start, functional="object")
    content = f"{row.name} holds {row.office} from {row.start.date().isoformat()}."
    return Episode(uuid=ids.stable_uuid("leaders", group_id, row.index), group_id=group_id, seq=row.index,
                   kind="facts", content=content, reference_time=row.start, content_hash=ids.content_hash(content),
                   facts=[statement], agent="bench")


def expected_timelines(rows: list[Row]) -> dict[str, list[tuple[datetime, datetime | None, set[str]]]]:
    """Per office: intervals [start, next different start) with the set of holders starting then."""
    by_office: dict[str, dict[datetime, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        by_office[r.office][r.start].add(r.name)
    out = {}
    for office, starts in by_office.items():
        times = sorted(starts)
        out[office] = [(t, times[k + 1] if k + 1 < len(times) else None, starts[t]) for k, t in enumerate(times)]
    return out


def overlapping_rows(rows: list[Row]) -> list[tuple[str, datetime, list[str]]]:
    """Offices where several different people start on the same day (or a row is duplicated)."""
    starts: dict[tuple[str, datetime], list[str]] = defaultdict(list)
    for r in rows:
        starts[(r.office, r.start)].append(r.name)
    return [(office, t, names) for (office, t), names in sorted(starts.items()) if len(names) > 1]


def as_of_checks(rows: list[Row]) -> list[tuple[str, datetime, set[str]]]:
    """(office, a time inside each interval, expected holders): the first instant and the middle of each term."""
    checks = []
    for office, intervals in expected_timelines(rows).items():
        for start, end, holders in intervals:
            checks.append((office, start, holders))
            checks.append((office, start + (end - start) / 2 if end else start + timedelta(days=365), holders))
    return checks


_SQL = re.compile(r'Country = "([^"]+)" and Role = "([^"]+)"')


def now_questions(path: Path) -> list[tuple[str, set[str]]]:
    """(office, expected current holders) from the 'who holds it now' questions."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        match = _SQL.search(q["sql_for_db"])
        if match:
            out.append((f"{match.group(2)} of {match.group(1)}", {r["Name"] for r in q["correct_rows"]}))
    return out


def holders(graph: Graph, group: str, office: str, as_of: datetime | None = None) -> set[str]:
    """Who holds an office ("Prime Minister of Finland") at ``as_of``: the slot (Finland, prime_minister) read
    as a client reads it, by organization and role."""
    role, org = roles().split_office(office)  # type: ignore[misc]
    page = list_facts(graph, group, predicate=PREDICATE, role=role, object_key=entity_key(org, "Organization"),
                      as_of=as_of)
    return {f.subject_name for f in page.items}


def office_of(office: str) -> tuple[str, str] | None:
    """(role key, organization) of an office as the table writes it."""
    return roles().split_office(office)
