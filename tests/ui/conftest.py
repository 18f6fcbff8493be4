"""A live API over HTTP (uvicorn in a thread, episodes committed in the request) and a headless Chromium."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from tests.support.chromium import chromium_paths, start_chromium


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_api(settings) -> Iterator[str]:
    """The base URL of the API served by uvicorn on a free local port."""
    import uvicorn

    from strata.api.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(settings, inline=True), host="127.0.0.1",
                                           port=_free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the API did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{server.config.port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """A headless Chromium. Missing browser: a skip on a developer's machine, a failure in CI (`make setup`
    installs Debian's chromium and chromium-driver)."""
    paths = chromium_paths()
    if paths is None:
        reason = "needs Debian's chromium and chromium-driver (`make setup` installs them)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    driver = start_chromium(*paths, tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()
