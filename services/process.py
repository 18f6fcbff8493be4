"""Process helpers: pid files, port probes, waiting for readiness."""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path


def read_pid(pid_file: Path) -> int | None:
    try:
        return int(pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers kill(0); treat it as gone.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_until(check: Callable[[], bool], timeout_s: float, interval_s: float = 0.5,
               abort: Callable[[], bool] | None = None) -> bool:
    """Poll ``check`` until it is true, the timeout passes, or ``abort`` says the process died."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        if abort is not None and abort():
            return False
        time.sleep(interval_s)
    return check()


def stop_pid(pid: int, timeout_s: float = 30.0) -> bool:
    """SIGTERM, wait, then SIGKILL. Returns True when the process is gone."""
    if not pid_alive(pid):
        return True
    os.kill(pid, signal.SIGTERM)
    if wait_until(lambda: not pid_alive(pid), timeout_s, 0.2):
        return True
    os.kill(pid, signal.SIGKILL)
    return wait_until(lambda: not pid_alive(pid), 5.0, 0.1)


def stop_by_pid_file(pid_file: Path, timeout_s: float) -> bool:
    """Stop the live process a pid file names and remove the file. True when something was stopped."""
    pid = read_pid(pid_file)
    running = pid_alive(pid)
    if running:
        stop_pid(pid, timeout_s)  # type: ignore[arg-type]
    pid_file.unlink(missing_ok=True)
    return running
