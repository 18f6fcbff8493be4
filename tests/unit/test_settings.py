import pytest
from pydantic import ValidationError

from strata.schema.settings import Settings


def test_settings_read_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRATA_NEO4J_URI", "bolt://db.example:7687")
    monkeypatch.setenv("STRATA_AUTH_DISABLED", "false")
    cfg = Settings(_env_file=None)
    assert cfg.neo4j_uri == "bolt://db.example:7687"
    assert cfg.auth_disabled is False


def test_settings_reject_garbage_booleans_and_are_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRATA_AUTH_DISABLED", "maybe")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)
    monkeypatch.delenv("STRATA_AUTH_DISABLED")
    cfg = Settings(_env_file=None)
    with pytest.raises(ValidationError):
        cfg.neo4j_uri = "x"  # type: ignore[misc]


def test_empty_variables_mean_unset(monkeypatch) -> None:
    """docker-compose passes `${STRATA_LLM_BASE_URL:-}`: an empty value must not become a base URL."""
    monkeypatch.setenv("STRATA_LLM_BASE_URL", "")
    monkeypatch.setenv("STRATA_LLM_API_KEY", "")
    monkeypatch.setenv("STRATA_NEO4J_HEAP", "")
    cfg = Settings(_env_file=None)
    assert cfg.llm_base_url is None and cfg.llm_api_key is None and cfg.neo4j_heap is None
    monkeypatch.setenv("STRATA_LLM_BASE_URL", "http://127.0.0.1:8081/v1")
    assert Settings(_env_file=None).llm_base_url == "http://127.0.0.1:8081/v1"


def test_a_lease_must_be_renewed_before_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = Settings(_env_file=None)
    assert cfg.episode_lease_renew_s < cfg.episode_lease_s
    monkeypatch.setenv("STRATA_EPISODE_LEASE_S", "10")
    with pytest.raises(ValidationError, match="episode_lease_renew_s"):
        Settings(_env_file=None)
    monkeypatch.setenv("STRATA_EPISODE_LEASE_RENEW_S", "3")
    assert Settings(_env_file=None).episode_lease_s == 10
