"""Redis from Debian's ``redis-server``, started on 127.0.0.1 with its data in the services folder."""

from __future__ import annotations

import os
import shutil
import subprocess

from strata.schema.errors import ServiceError
from strata.schema.settings import Settings
from strata.services.process import pid_alive, port_open, read_pid, stop_by_pid_file, wait_until


class RedisService:
    name = "redis"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.home = (settings.services_dir / "redis").resolve()
        self.pid_file = self.home / "redis.pid"
        self.log_file = self.home / "redis.log"

    def binary(self, install: bool = True) -> str:
        found = shutil.which("redis-server")
        if found:
            return found
        if install and shutil.which("apt-get") and os.geteuid() == 0:
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "redis-server"]):
                subprocess.run(cmd, capture_output=True, env=env, check=False)
            found = shutil.which("redis-server")
            if found:
                return found
        raise ServiceError("redis-server is not installed (apt-get install redis-server)")

    def pid(self) -> int | None:
        pid = read_pid(self.pid_file)
        return pid if pid_alive(pid) else None

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(host="127.0.0.1", port=self.settings.redis_port, socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def start(self) -> int:
        if self.pid():
            raise ServiceError(f"redis is already running (pid {self.pid()}); see `strata services status`")
        port = self.settings.redis_port
        if port_open("127.0.0.1", port):
            raise ServiceError(f"port {port} on 127.0.0.1 is already in use by another process")
        binary = self.binary()
        self.home.mkdir(parents=True, exist_ok=True)
        # Append-only persistence: queued tasks survive a Redis restart.
        cmd = [
            binary, "--bind", "127.0.0.1", "--port", str(port), "--daemonize", "yes",
            "--dir", str(self.home), "--pidfile", str(self.pid_file), "--logfile", str(self.log_file),
            "--appendonly", "yes", "--save", "", "--protected-mode", "yes",
        ]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise ServiceError(f"redis-server failed to start: {(done.stderr or done.stdout).strip()[:300]}")
        if not wait_until(self.ping, self.settings.service_start_timeout_s, 0.2):
            raise ServiceError(f"redis did not answer PING; see {self.log_file}")
        wait_until(lambda: read_pid(self.pid_file) is not None, 5, 0.1)
        return read_pid(self.pid_file) or 0

    def stop(self) -> bool:
        return stop_by_pid_file(self.pid_file, 20)
