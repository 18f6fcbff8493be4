"""Data upgrades a Cypher migration cannot finish alone, run once right after it by the caller that applied it.

Migration 0022 moved role predicates onto ``holds_office`` with a role and marked every fact it touched, and
every ``holds_office`` fact without a role, ``slot_pending``. ``upgrade_offices`` finishes: an office written as
the object ("Mayor of Alvorada") becomes its organization with the role (``split`` is resolve/'s rule, handed
in), and the temporal rules run over every touched slot, since facts that were in different predicates or
objects now share one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from strata.graph import lucene
from strata.graph.commit import TimelineFn, recompute_slots
from strata.graph.driver import Graph
from strata.graph.queries import commit as commit_q
from strata.graph.queries import upgrade as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema.models import utcnow
from strata.schema.plan import Predicate

BATCH = 1000


@dataclass(frozen=True)
class OfficeRules:
    split: Callable[[str], tuple[str, str] | None]  # "Mayor of Alvorada" -> ("mayor", "Alvorada")
    organization_key: Callable[[str], str]  # the organization's entity key
    entity_uuid: Callable[[str, str], str]  # (group, key) -> uuid
    timeline: TimelineFn
    office: Predicate  # holds_office as the ontology defines it: registered in every group it now serves


def upgrade_offices(graph: Graph, rules: OfficeRules) -> int:
    """Finish migration 0022 over every marked fact, a batch at a time; returns how many facts it handled."""
    done = 0
    while rows := graph.query(q.PENDING_OFFICE_FACTS, limit=BATCH):
        by_group: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            by_group[row["group_id"]].append(row)
        for group, facts in by_group.items():
            graph.write(partial(_upgrade_group, group=group, facts=facts, rules=rules))
        done += len(rows)
    return done


def _upgrade_group(tx: Any, group: str, facts: list[dict[str, Any]], rules: OfficeRules) -> None:
    now = utcnow()
    moves, seeds = [], []
    for f in facts:
        split = None if f["role"] else rules.split(f["object_name"] or "")
        if split is None:
            seeds.append((f["subject_uuid"], "holds_office", f["object_uuid"]))
            continue
        role, org = split
        key = rules.organization_key(org)
        moves.append({"uuid": f["uuid"], "subject_uuid": f["subject_uuid"], "role": role, "org_name": org,
                      "org_key": key, "org_uuid": rules.entity_uuid(group, key)})
    if moves:
        tx.run(q.MOVE_TO_ORGANIZATION, rows=moves, group_id=group, group_tag=lucene.group_tag(group),
               now=now).consume()
        found = tx.run(q.FACT_ENDS, uuids=[m["uuid"] for m in moves]).data()
        seeds += [(r["subject_uuid"], "holds_office", r["object_uuid"]) for r in found]
    # the slot rules read the group's registry: a group that only knew ceo_of learns holds_office
    office = {**rules.office.model_dump(), "negated": any(f["negated"] for f in facts)}
    tx.run(commit_q.UPSERT_PREDICATES, rows=[office], group_id=group, now=now).consume()
    recompute_slots(tx, group, seeds, rules.timeline, now)
    tx.run(q.CLEAR_PENDING, uuids=[f["uuid"] for f in facts]).consume()
    bump_text_version(tx, group)
