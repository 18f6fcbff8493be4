"""Driver and session handling; maps Neo4j driver errors to Strata's exception tree."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DatabaseUnavailable,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from strata.schema.errors import ConfigError, InputError, SchemaMismatchError, UpstreamUnavailableError
from strata.schema.settings import Settings

T = TypeVar("T")


def make_driver(settings: Settings) -> Driver:
    auth = None
    if settings.neo4j_password is not None:
        auth = (settings.neo4j_user, settings.neo4j_password.get_secret_value())
    # Notifications (unknown label on an empty graph, ...) are noise for a service; errors still raise.
    return GraphDatabase.driver(settings.neo4j_uri, auth=auth, max_connection_pool_size=50,
                                notifications_min_severity="OFF")


_MISSING_INDEX = re.compile(r"There is no such (?:fulltext |vector )?(?:schema )?index", re.IGNORECASE)


@contextmanager
def mapped_errors() -> Iterator[None]:
    """Turn driver errors into Strata errors: unreachable/transient -> retryable."""
    try:
        yield
    except (ServiceUnavailable, SessionExpired, TransientError, DatabaseUnavailable) as exc:
        raise UpstreamUnavailableError(f"neo4j unavailable: {exc}") from exc
    except AuthError as exc:
        raise ConfigError(f"neo4j rejected the credentials: {exc.message}") from exc
    except ClientError as exc:
        if _MISSING_INDEX.search(exc.message or ""):  # not the caller's input: the store was never migrated
            raise SchemaMismatchError(f"the schema is not applied to this store ({exc.message}): run "
                                      "`strata schema apply` (the API and workers apply it at start)") from exc
        raise InputError(f"neo4j rejected the query: {exc.message}", {"code": exc.code}) from exc


class Graph:
    """A driver bound to one database; every read and write goes through here.

    ``vector_scan_max``: a group with at most this many items of a kind is searched by an exact scan of its own
    vectors instead of the shared vector index (graph/search.py; 0: always the index). ``vector_rerank``: the
    index's candidates are ordered by their exact cosine instead of the index's (quantized) score.

    ``pool``: threads for the reads a query runs side by side (search's two round trips); the runtime that
    built it owns and closes it. Without one, side work runs in the calling thread."""

    def __init__(self, driver: Driver, database: str = "neo4j",
                 vector_scan_max: int = Settings.model_fields["vector_scan_max"].default,
                 pool: Executor | None = None,
                 vector_rerank: bool = Settings.model_fields["vector_rerank"].default) -> None:
        self.driver = driver
        self.database = database
        self.vector_scan_max = vector_scan_max
        self.pool = pool
        self.vector_rerank = vector_rerank

    @classmethod
    def from_settings(cls, settings: Settings, pool: Executor | None = None) -> Graph:
        return cls(make_driver(settings), settings.neo4j_database, settings.vector_scan_max, pool,
                   settings.vector_rerank)

    def beside(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
        """Start ``work`` beside the caller's own (the driver is thread-safe); its result is the future's."""
        if self.pool is not None:
            return self.pool.submit(work, *args, **kwargs)
        done: Future[T] = Future()
        try:
            done.set_result(work(*args, **kwargs))
        except BaseException as exc:  # the caller meets it at .result(), as with a pool
            done.set_exception(exc)
        return done

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """An auto-commit read-or-write query returning records as dicts."""
        with mapped_errors():
            records, _, _ = self.driver.execute_query(cypher, params, database_=self.database)
        return [r.data() for r in records]

    def fetch(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """A read in an auto-commit transaction: one round trip (a managed one adds a COMMIT), no retry.

        For latency-bound reads (search); a failure reaches the caller as an error to retry or report. Rows
        must hold plain values (no nodes or relationships): they are taken as they arrive, without the
        driver's recursive ``data()`` conversion (a millisecond a search for nested provenance maps).
        """
        with mapped_errors(), self.driver.session(database=self.database, default_access_mode="READ") as session:
            return [dict(record) for record in session.run(cypher, params)]

    def write(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Run ``work`` in one managed write transaction (retried by the driver on transient errors)."""
        with mapped_errors(), self.driver.session(database=self.database) as session:
            return session.execute_write(work)

    def read(self, work: Callable[[ManagedTransaction], T]) -> T:
        with mapped_errors(), self.driver.session(database=self.database) as session:
            return session.execute_read(work)

    def ping(self) -> bool:
        try:
            with mapped_errors():
                self.driver.verify_connectivity()
            return True
        except UpstreamUnavailableError:
            return False
