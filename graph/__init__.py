"""strata.graph: the only package that speaks Cypher."""

from strata.graph.driver import Graph, make_driver, mapped_errors
from strata.graph.migrate import MigrationReport, apply_migrations, load_migrations

__all__ = ["Graph", "MigrationReport", "apply_migrations", "load_migrations", "make_driver", "mapped_errors"]
