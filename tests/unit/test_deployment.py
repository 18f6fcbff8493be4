"""The Docker deployment as files (no Docker engine here): docker-compose.yml, the Dockerfile, .dockerignore."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
DOCKERFILE = (REPO / "Dockerfile").read_text()


def _option(command: list[str], name: str) -> str | None:
    return command[command.index(name) + 1] if name in command else None


def test_exactly_one_service_runs_the_periodic_tasks_and_it_is_a_worker() -> None:
    beats = [name for name, svc in SERVICES.items() if "--beat" in svc.get("command", [])]
    assert beats == ["beat"]
    beat = SERVICES["beat"]
    assert beat["command"][:2] == ["strata", "worker"]
    assert beat["environment"] == SERVICES["worker"]["environment"]  # same services, same settings
    assert {"neo4j", "redis"} <= set(beat["depends_on"])


@pytest.mark.parametrize("name", ["worker", "beat"])
def test_workers_serve_metrics_on_the_port_they_expose(name: str) -> None:
    svc = SERVICES[name]
    port = _option(svc["command"], "--metrics-port")
    assert port is not None and int(port) > 0
    assert port in [str(p) for p in svc.get("expose", [])]


def test_the_llm_base_url_left_empty_by_compose_means_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    env = SERVICES["api"]["environment"]
    assert re.fullmatch(r"\$\{STRATA_LLM_BASE_URL:-\}", env["STRATA_LLM_BASE_URL"])  # empty unless the host sets it
    monkeypatch.setenv("STRATA_LLM_BASE_URL", "")
    monkeypatch.setenv("STRATA_LLM_API_KEY", "")
    settings = Settings(_env_file=None)
    assert settings.llm_base_url is None and settings.llm_api_key is None
    monkeypatch.setenv("STRATA_LLM_BASE_URL", "http://llm:8081/v1")
    assert Settings(_env_file=None).llm_base_url == "http://llm:8081/v1"


def test_every_strata_service_talks_to_the_compose_services_by_name() -> None:
    for name in ("api", "worker", "beat"):
        env = SERVICES[name]["environment"]
        assert env["STRATA_NEO4J_URI"] == "bolt://neo4j:7687" and env["STRATA_REDIS_URL"] == "redis://redis:6379/0"
        assert SERVICES[name]["build"] == "."


def test_the_image_runs_as_an_unprivileged_user() -> None:
    users = re.findall(r"^USER\s+(\S+)", DOCKERFILE, flags=re.MULTILINE)
    assert users and users[-1] not in ("root", "0")


def test_the_image_copies_every_folder_the_package_is_built_from() -> None:
    copied = set(re.findall(r"^COPY\s+(\S+)\s+\S+$", DOCKERFILE, flags=re.MULTILINE))
    layers = {p.name for p in (REPO / "src" / "strata").iterdir() if p.is_symlink()}
    assert layers and layers | {"src"} <= copied


def test_the_build_context_leaves_out_local_state() -> None:
    ignored = set((REPO / ".dockerignore").read_text().split())
    assert {".git", ".venv", ".services"} <= ignored
