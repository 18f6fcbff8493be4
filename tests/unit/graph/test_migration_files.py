import re

from strata.graph.migrate import load_migrations, split_statements


def test_migrations_are_numbered_without_gaps_and_idempotent() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    for m in migrations:
        assert m.statements, m.name
        for statement in m.statements:
            if statement.startswith("CREATE"):
                assert "IF NOT EXISTS" in statement, statement
            elif statement.startswith("DROP"):
                assert re.fullmatch(r"DROP INDEX \w+ IF EXISTS", statement), statement
            else:  # a data fix: it may only set values, so running it twice is harmless
                assert statement.startswith("MATCH") and re.search(r"\bSET\b", statement), statement
                assert not re.search(r"\b(DELETE|CREATE|MERGE|REMOVE)\b", statement.upper()), statement


def test_split_statements_drops_comments_and_blank_parts() -> None:
    text = "// a comment; with a semicolon\nCREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);\n\n;CREATE X;"
    assert split_statements(text) == ["CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x)", "CREATE X"]


def test_vector_dimension_is_a_parameter_not_formatted() -> None:
    vector = [s for m in load_migrations() for s in m.statements if "VECTOR INDEX" in s]
    assert len(vector) == 4
    assert all("$embedding_dim" in s for s in vector)
