"""Services that already answer at the configured addresses, started by something else (a system Redis, a
Neo4j of another checkout): `services up --if-needed` uses them, `status` reports them ready, `up` refuses."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from strata.schema.errors import ServiceError
from strata.schema.settings import Settings
from strata.services import ServicesManager

pytestmark = pytest.mark.integration


def test_services_answering_elsewhere_are_used_not_started(tmp_path: Path, service_urls: dict[str, str]) -> None:
    bolt, redis = urlparse(service_urls["neo4j_uri"]), urlparse(service_urls["redis_url"])
    if bolt.hostname not in ("127.0.0.1", "localhost") or redis.hostname not in ("127.0.0.1", "localhost"):
        pytest.skip("the services are not on this machine's loopback")
    cfg = Settings(services_dir=tmp_path / "elsewhere", neo4j_bolt_port=bolt.port, redis_port=redis.port,
                   _env_file=None)
    manager = ServicesManager(cfg)
    statuses = {st.name: st for st in manager.status()}
    assert all(st.ready and st.external and st.pid is None for st in statuses.values()), statuses

    used = {st.name: st for st in manager.up(only_missing=True)}
    assert all(st.ready and st.external for st in used.values())
    assert not (tmp_path / "elsewhere" / "neo4j" / "run" / "strata-neo4j.pid").exists()  # nothing started
    with pytest.raises(ServiceError, match="not started by strata.*--if-needed"):
        manager.up()
