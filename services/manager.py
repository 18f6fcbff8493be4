"""Start, stop and report the local services as one unit."""

from __future__ import annotations

import time

from pydantic import BaseModel

from strata.schema.errors import ServiceError
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService
from strata.services.redis import RedisService


class ServiceStatus(BaseModel):
    name: str
    running: bool
    pid: int | None = None
    address: str
    ready: bool = False
    seconds: float | None = None  # start time, when just started
    # Answering at the configured address without having been started here (a system Redis or Neo4j).
    external: bool = False


class ServicesManager:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.neo4j = Neo4jService(settings)
        self.redis = RedisService(settings)

    def _addresses(self) -> dict[str, str]:
        s = self.settings
        return {
            "neo4j": f"bolt://127.0.0.1:{s.neo4j_bolt_port}  http://127.0.0.1:{s.neo4j_http_port}/browser/",
            "redis": f"redis://127.0.0.1:{s.redis_port}/0",
        }

    def up(self, only_missing: bool = False) -> list[ServiceStatus]:
        """Start both services. With ``only_missing`` a service that already answers at its configured address
        (started here, or another process's, such as a system Redis) is left as it is."""
        present = {svc.name: bool(svc.pid()) or self._answers(svc) for svc in (self.redis, self.neo4j)}
        for svc in (self.redis, self.neo4j):
            if present[svc.name] and not svc.pid() and not only_missing:
                raise ServiceError(f"{svc.name} already answers at {self._addresses()[svc.name]} but was not started "
                                   "by strata: use it (`strata services up --if-needed`) or stop it first")
        # Check prerequisites of both before starting either: a failure leaves nothing half-started.
        if not (only_missing and present["neo4j"]):
            self.neo4j.java()
        if not (only_missing and present["redis"]):
            self.redis.binary()
        statuses = []
        for svc in (self.redis, self.neo4j):
            if only_missing and present[svc.name]:
                statuses.append(self._status(svc))
                continue
            began = time.monotonic()
            pid = svc.start()
            statuses.append(ServiceStatus(name=svc.name, running=True, pid=pid, ready=True,
                                          address=self._addresses()[svc.name],
                                          seconds=round(time.monotonic() - began, 2)))
        return statuses

    def down(self) -> dict[str, bool]:
        return {svc.name: svc.stop() for svc in (self.neo4j, self.redis)}

    def status(self) -> list[ServiceStatus]:
        return [self._status(svc) for svc in (self.redis, self.neo4j)]

    @staticmethod
    def _answers(svc: Neo4jService | RedisService) -> bool:
        return svc.bolt_ready() if isinstance(svc, Neo4jService) else svc.ping()

    def _status(self, svc: Neo4jService | RedisService) -> ServiceStatus:
        pid = svc.pid()
        ready = self._answers(svc)
        return ServiceStatus(name=svc.name, running=pid is not None, pid=pid, ready=ready,
                             external=ready and pid is None, address=self._addresses()[svc.name])
