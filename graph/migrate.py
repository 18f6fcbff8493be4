"""Versioned, idempotent schema migrations.

Each ``schema/migrations/NNNN_name.cypher`` file is a list of ``;``-terminated statements. A migration runs
once; its version, name and checksum are recorded as ``(:SchemaMigration)`` nodes, so a second apply is a
no-op. Every statement is also idempotent (``IF NOT EXISTS``, or a data fix that sets the same value twice),
so a concurrent apply from another process is harmless.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources

from neo4j.exceptions import ClientError
from pydantic import BaseModel

from strata.graph.driver import Graph, mapped_errors
from strata.graph.queries import migrations as q
from strata.schema.errors import SchemaMismatchError

_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.cypher$")
_ALREADY = ("EquivalentSchemaRuleAlreadyExists", "IndexAlreadyExists", "ConstraintAlreadyExists")


class Migration(BaseModel):
    version: int
    name: str
    statements: list[str]
    checksum: str


class MigrationReport(BaseModel):
    applied: list[str]
    already_applied: list[str]
    indexes: int
    constraints: int
    embedding_dim: int

    def summary(self) -> str:
        return (
            f"schema: {len(self.applied)} migration(s) applied, {len(self.already_applied)} already applied; "
            f"{self.constraints} constraints, {self.indexes} indexes; vector dimension {self.embedding_dim}"
        )


def load_migrations() -> list[Migration]:
    folder = resources.files("strata.schema").joinpath("migrations")
    migrations = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        match = _FILE.match(entry.name)
        if not match:
            continue
        text = entry.read_text(encoding="utf-8")
        migrations.append(
            Migration(
                version=int(match.group(1)),
                name=match.group(2),
                statements=split_statements(text),
                checksum=hashlib.sha256(text.encode()).hexdigest()[:16],
            )
        )
    return migrations


def split_statements(text: str) -> list[str]:
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith("//")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def apply_migrations(graph: Graph, embedding_dim: int, await_timeout_s: int = 300,
                     data_fixes: bool = True) -> MigrationReport:
    """Every migration not applied yet. ``data_fixes=False`` runs only the schema statements (constraints and
    indexes) for a store written in the latest shape at once (a first load through ``neo4j-admin``): a
    migration's data fix (a ``MATCH`` over older data) has nothing to fix there and must not rewrite what was
    loaded, and an index a later migration drops is not built over the loaded data only to be dropped."""
    applied_before = {row["version"] for row in graph.query(q.APPLIED_VERSIONS)}
    applied, skipped = [], []
    params = {"embedding_dim": embedding_dim}
    pending = [m for m in load_migrations() if m.version not in applied_before]
    skip = set() if data_fixes else superseded(pending)
    for migration in load_migrations():
        label = f"{migration.version:04d}_{migration.name}"
        if migration.version in applied_before:
            skipped.append(label)
            continue
        for i, statement in enumerate(migration.statements):
            if (migration.version, i) in skip:
                continue
            _run_schema_statement(graph, statement, params)
        graph.query(q.RECORD_MIGRATION, version=migration.version, name=migration.name,
                    checksum=migration.checksum, params=[f"embedding_dim={embedding_dim}"])
        applied.append(label)
    graph.query(q.AWAIT_INDEXES, timeout_s=await_timeout_s)
    check_vector_dimensions(graph, embedding_dim)
    return MigrationReport(applied=applied, already_applied=skipped,
                           indexes=graph.query(q.COUNT_INDEXES)[0]["n"],
                           constraints=graph.query(q.COUNT_CONSTRAINTS)[0]["n"], embedding_dim=embedding_dim)


_CREATE = re.compile(r"^CREATE\s+(?:\w+\s+)*?(?:INDEX|CONSTRAINT)\s+(\w+)", re.IGNORECASE)
_DROP = re.compile(r"^DROP\s+(?:INDEX|CONSTRAINT)\s+(\w+)", re.IGNORECASE)


def superseded(migrations: list[Migration]) -> set[tuple[int, int]]:
    """(version, statement) pairs a store loaded in its latest shape skips: data fixes, and the creation of an
    index or constraint that a later statement drops (its drop is then a no-op: ``IF EXISTS``)."""
    statements = [(m.version, i, s.lstrip()) for m in migrations for i, s in enumerate(m.statements)]
    skip = set()
    for n, (version, i, text) in enumerate(statements):
        if text.upper().startswith("MATCH"):
            skip.add((version, i))
        elif created := _CREATE.match(text):
            name = created.group(1)
            if any((d := _DROP.match(later)) and d.group(1) == name for _, _, later in statements[n + 1:]):
                skip.add((version, i))
    return skip


def _run_schema_statement(graph: Graph, statement: str, params: dict[str, int]) -> None:
    used = {k: v for k, v in params.items() if f"${k}" in statement}
    try:
        with mapped_errors():
            if "IN TRANSACTIONS" in statement:
                # A backfill over every node of a label commits in batches, so a large graph does not have
                # to fit one transaction in the heap; Neo4j runs these only in an auto-commit transaction.
                with graph.driver.session(database=graph.database) as session:
                    session.run(statement, used).consume()
            else:
                graph.driver.execute_query(statement, used, database_=graph.database)
    except Exception as exc:  # a concurrent apply may have created the same rule first
        cause = exc.__cause__
        if isinstance(cause, ClientError) and any(code in (cause.code or "") for code in _ALREADY):
            return
        raise


def check_vector_dimensions(graph: Graph, embedding_dim: int) -> None:
    """The configured embedder must produce vectors of the indexed dimension."""
    for row in graph.query(q.SHOW_VECTOR_INDEXES):
        if row["dimensions"] is not None and int(row["dimensions"]) != embedding_dim:
            raise SchemaMismatchError(
                f"vector index {row['name']} has dimension {row['dimensions']} but the embedder produces "
                f"{embedding_dim}; drop the vector indexes or configure a matching embedder",
                {"index": row["name"], "indexed": row["dimensions"], "configured": embedding_dim},
            )


def pending_migrations(graph: Graph) -> list[str]:
    """The migrations not applied yet, by label (``0003_name``)."""
    applied = {row["version"] for row in graph.query(q.APPLIED_VERSIONS)}
    return [f"{m.version:04d}_{m.name}" for m in load_migrations() if m.version not in applied]
