"""Entity-resolution precision/recall on alias lists (e.g. PDNC character_info.csv). Pure: callers read files.

Every alias of every character is resolved with ``decide`` against all characters as candidates.
precision = correct merges / merges; recall = correct merges / aliases evaluated. Ambiguous and create
decisions are neither right nor wrong merges; they cost recall only.
With ``leave_one_out`` the alias being resolved is removed from its own character's names first, so an exact
match cannot carry it (characters left with no name are skipped: the right answer would be "create").
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from strata.resolve.decide import decide
from strata.resolve.normalize import fold_name
from strata.resolve.types import CandidateEntity, Decision, MentionCandidate


@dataclass(frozen=True)
class AliasRecord:
    """One gold entity: id, canonical name, aliases."""

    id: str
    name: str
    aliases: tuple[str, ...]
    type: str = "Person"


@dataclass
class ERReport:
    evaluated: int = 0
    merged: int = 0
    correct: int = 0
    wrong: int = 0
    ambiguous: int = 0
    created: int = 0
    skipped: int = 0
    errors: list[tuple[str, str, str]] = field(default_factory=list)  # (alias, gold id, merged id)

    @property
    def precision(self) -> float:
        return self.correct / self.merged if self.merged else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.evaluated if self.evaluated else 0.0

    def summary(self) -> str:
        return (f"aliases={self.evaluated} merged={self.merged} correct={self.correct} wrong={self.wrong} "
                f"ambiguous={self.ambiguous} created={self.created} skipped={self.skipped} "
                f"precision={self.precision:.3f} recall={self.recall:.3f}")


def parse_alias_cell(text: str) -> tuple[str, ...]:
    """Parse a Python-literal set/list cell ("{'Lizzy', 'Eliza'}") into sorted aliases."""
    value = ast.literal_eval(text.strip()) if text.strip() else []
    return tuple(sorted({str(v) for v in value}))


def _candidate(record: AliasRecord, drop: str | None = None) -> CandidateEntity | None:
    forms = [f for f in (record.name, *record.aliases) if drop is None or fold_name(f) != fold_name(drop)]
    if not forms:
        return None
    return CandidateEntity(uuid=record.id, name=forms[0], type=record.type, aliases=forms[1:])


def evaluate_aliases(
    records: Sequence[AliasRecord],
    leave_one_out: bool = False,
    decide_fn: Callable[[MentionCandidate, Sequence[CandidateEntity]], Decision] = decide,
) -> ERReport:
    report = ERReport()
    full = [c for r in records if (c := _candidate(r)) is not None]
    for record in records:
        for alias in sorted({record.name, *record.aliases}):
            if leave_one_out:
                own = _candidate(record, drop=alias)
                if own is None:
                    report.skipped += 1
                    continue
                candidates = [own if c.uuid == record.id else c for c in full]
            else:
                candidates = full
            report.evaluated += 1
            decision = decide_fn(MentionCandidate(name=alias, type=record.type), candidates)
            if decision.action == "merge":
                report.merged += 1
                if decision.uuid == record.id:
                    report.correct += 1
                else:
                    report.wrong += 1
                    report.errors.append((alias, record.id, decision.uuid or ""))
            elif decision.action == "ambiguous":
                report.ambiguous += 1
            else:
                report.created += 1
    return report
