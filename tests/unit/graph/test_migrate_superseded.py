"""A store loaded in its latest shape skips the migrations' data fixes and the indexes a later migration drops,
and ends with the same indexes and constraints as a store that ran every statement."""

from __future__ import annotations

from strata.graph.migrate import _CREATE, _DROP, Migration, load_migrations, superseded


def _schema_after(migrations: list[Migration], skip: set[tuple[int, int]]) -> set[str]:
    names: set[str] = set()
    for m in migrations:
        for i, text in enumerate(m.statements):
            if (m.version, i) in skip:
                continue
            if created := _CREATE.match(text.lstrip()):
                names.add(created.group(1))
            elif dropped := _DROP.match(text.lstrip()):
                names.discard(dropped.group(1))
    return names


def test_created_then_dropped_is_skipped_and_recreated_is_kept() -> None:
    migrations = [
        Migration(version=1, name="a", checksum="", statements=[
            "CREATE INDEX old IF NOT EXISTS FOR (n:X) ON (n.a)",
            "CREATE FULLTEXT INDEX t IF NOT EXISTS FOR (n:X) ON EACH [n.a]"]),
        Migration(version=2, name="b", checksum="", statements=[
            "MATCH (n:X) SET n.b = 1", "DROP INDEX t IF EXISTS",
            "CREATE FULLTEXT INDEX t IF NOT EXISTS FOR (n:X) ON EACH [n.a, n.b]"]),
        Migration(version=3, name="c", checksum="", statements=["DROP INDEX old IF EXISTS"]),
    ]
    assert superseded(migrations) == {(1, 0), (1, 1), (2, 0)}
    assert _schema_after(migrations, superseded(migrations)) == _schema_after(migrations, set()) == {"t"}


def test_the_shipped_migrations_end_with_the_same_schema_either_way() -> None:
    migrations = load_migrations()
    skip = superseded(migrations)
    assert _schema_after(migrations, skip) == _schema_after(migrations, set())
    skipped = {_CREATE.match(m.statements[i].lstrip()).group(1)  # type: ignore[union-attr]
               for m in migrations for i in range(len(m.statements))
               if (m.version, i) in skip and not m.statements[i].lstrip().upper().startswith("MATCH")}
    assert {"fact_fulltext", "passage_embedding", "passage_text"} <= skipped
    kept = {_CREATE.match(m.statements[i].lstrip()).group(1)  # type: ignore[union-attr]
            for m in migrations for i in range(len(m.statements))
            if (m.version, i) not in skip and _CREATE.match(m.statements[i].lstrip())}
    assert {"fact_text", "entity_text", "passage_context_embedding", "fact_embedding"} <= kept
