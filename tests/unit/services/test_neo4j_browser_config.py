"""The local Neo4j's Browser settings: Strata's style applied on connect, the API allowed as a guide source."""

from __future__ import annotations

import json
from pathlib import Path

from strata.schema.neo4j_browser import style_rules
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService, api_url


def _conf(tmp_path: Path, **kw) -> dict[str, str]:
    cfg = Settings(services_dir=tmp_path / "svc", cache_dir=tmp_path / "cache", _env_file=None, **kw)
    lines = Neo4jService(cfg).write_config().read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_post_connect_applies_the_style_sheet_inline(tmp_path: Path) -> None:
    conf = _conf(tmp_path)
    command, _, sheet = conf["browser.post_connect_cmd"].partition(" ")
    assert command == "style"  # Browser prefixes the colon itself
    assert json.loads(sheet) == style_rules()
    assert ";" not in conf["browser.post_connect_cmd"]  # Browser splits post-connect commands on semicolons


def test_allowlist_names_the_api_host(tmp_path: Path) -> None:
    # Neo4j 5.26 knows only the `_whitelist` spelling; an `_allowlist` line stops the server at start.
    assert "browser.remote_content_hostname_allowlist" not in _conf(tmp_path)
    hosts = _conf(tmp_path)["browser.remote_content_hostname_whitelist"].split(",")
    assert {"localhost", "127.0.0.1", "guides.neo4j.com"} <= set(hosts)
    hosts = _conf(tmp_path, api_host="strata.internal", api_port=9000)["browser.remote_content_hostname_whitelist"]
    assert "strata.internal" in hosts.split(",")


def test_api_url_as_a_local_browser_reaches_it() -> None:
    assert api_url(Settings(_env_file=None)) == "http://localhost:8000"
    assert api_url(Settings(_env_file=None, api_host="0.0.0.0", api_port=9000)) == "http://localhost:9000"
    assert api_url(Settings(_env_file=None, api_host="::1")) == "http://[::1]:8000"
