"""Bad situations for `strata services`: clear one-line errors, never a stack trace."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from strata.schema.errors import ServiceError
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService
from strata.services.redis import RedisService


def _cfg(tmp_path: Path, **kw) -> Settings:
    return Settings(services_dir=tmp_path / "svc", cache_dir=tmp_path / "cache", _env_file=None, **kw)


def test_missing_java_is_a_clear_error(tmp_path: Path) -> None:
    svc = Neo4jService(_cfg(tmp_path, java_home=tmp_path / "no-jdk"))
    with pytest.raises(ServiceError, match="has no bin/java"):
        svc.java()


def test_port_taken_by_another_process_is_refused(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        svc = RedisService(_cfg(tmp_path, redis_port=port))
        with pytest.raises(ServiceError, match=f"port {port} .* already in use"):
            svc.start()


def test_config_binds_loopback_and_disables_auth_without_password(tmp_path: Path) -> None:
    conf = Neo4jService(_cfg(tmp_path, neo4j_bolt_port=17687)).write_config().read_text()
    assert "server.bolt.listen_address=127.0.0.1:17687" in conf
    assert "dbms.security.auth_enabled=false" in conf
    conf = Neo4jService(_cfg(tmp_path, neo4j_password="s3cret")).write_config().read_text()
    assert "dbms.security.auth_enabled=true" in conf


def test_vector_merge_factor_is_written_only_when_set(tmp_path: Path) -> None:
    conf = Neo4jService(_cfg(tmp_path)).write_config().read_text()
    assert "standard_merge_factor" not in conf  # Neo4j's own default
    conf = Neo4jService(_cfg(tmp_path, neo4j_vector_merge_factor=10)).write_config().read_text()
    assert "internal.dbms.index.vector.standard_merge_factor=10" in conf.splitlines()


def test_vector_population_buffer_is_written_unless_unset(tmp_path: Path) -> None:
    conf = Neo4jService(_cfg(tmp_path)).write_config().read_text()
    assert "internal.dbms.index.vector.population_ram_buffer_size=64.0" in conf.splitlines()  # the shipped 64 MB
    conf = Neo4jService(_cfg(tmp_path, neo4j_vector_population_buffer_mb=1)).write_config().read_text()
    assert "internal.dbms.index.vector.population_ram_buffer_size=1.0" in conf.splitlines()
    conf = Neo4jService(_cfg(tmp_path, neo4j_vector_population_buffer_mb=None)).write_config().read_text()
    assert "population_ram_buffer_size" not in conf  # Neo4j's own default


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "strata.api.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_unknown_command_exits_non_zero_without_traceback() -> None:
    done = _cli("frobnicate")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    assert "No such command" in done.stderr + done.stdout


def test_strata_error_prints_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "STRATA_JAVA_HOME": str(tmp_path / "nojdk"),
           "STRATA_SERVICES_DIR": str(tmp_path / "svc"), "STRATA_NEO4J_BOLT_PORT": "17699",
           "STRATA_NEO4J_HTTP_PORT": "17698", "STRATA_REDIS_PORT": "17697"}
    done = _cli("services", "up", env=env)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    subprocess.run([sys.executable, "-m", "strata.api.cli", "services", "down"], env=env, capture_output=True)
