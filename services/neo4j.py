"""Neo4j 5.26 Community from Maven Central jars, launched with ``CommunityEntryPoint``.

``neo4j-server`` + ``neo4j`` + ``neo4j-browser`` are resolved once with Maven into a cache outside the
work tree. The JVM is started directly (not through the tarball's launcher), so heap and ``--add-opens``
flags are passed here; without ``java.nio`` opened, vector index population stalls.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

from strata.schema.errors import ServiceError
from strata.schema.neo4j_browser import style_rules
from strata.schema.settings import Settings
from strata.services.memory import MemoryPlan, StoreSizes, plan, store_sizes
from strata.services.process import pid_alive, port_open, read_pid, stop_by_pid_file, stop_pid, wait_until

SUPPORTED_JAVA = (17, 21)

JVM_FLAGS = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
)


class Neo4jService:
    name = "neo4j"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.home = (settings.services_dir / "neo4j").resolve()
        self.lib = (settings.cache_dir / f"neo4j-{settings.neo4j_version}" / "lib").expanduser().resolve()
        self.pid_file = self.home / "run" / "strata-neo4j.pid"
        self.log_file = self.home / "logs" / "console.log"

    # -- paths and prerequisites -------------------------------------------------------------------
    def java(self) -> str:
        if self.settings.java_home:
            candidate = self.settings.java_home / "bin" / "java"
            if not candidate.exists():
                raise ServiceError(f"STRATA_JAVA_HOME={self.settings.java_home} has no bin/java")
            java = str(candidate)
        else:
            found = shutil.which("java")
            if not found:
                raise ServiceError(
                    "Java 17 or 21 is required for Neo4j 5.26 but `java` is not on PATH "
                    "(apt-get install openjdk-17-jre-headless, or set STRATA_JAVA_HOME)"
                )
            java = found
        major = java_major_version(java)
        if major not in SUPPORTED_JAVA:
            raise ServiceError(f"Neo4j 5.26 runs on Java 17 or 21; {java} is Java {major} (set STRATA_JAVA_HOME)")
        return java

    def jars_ready(self) -> bool:
        return (self.lib / ".complete").exists()

    def ensure_jars(self) -> Path:
        """Resolve the server jars from Maven Central once; later calls reuse the cache."""
        if self.jars_ready():
            return self.lib
        mvn = shutil.which("mvn")
        if not mvn:
            raise ServiceError("Maven (`mvn`) is needed once to fetch the Neo4j jars; apt-get install maven")
        self.lib.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="lib-", dir=self.lib.parent))
        pom = resources.files("strata.services").joinpath("neo4j-runtime.pom.xml")
        with resources.as_file(pom) as pom_path:
            cmd = [
                mvn, "-q", "-B", "-f", str(pom_path), "dependency:copy-dependencies",
                "-DincludeScope=runtime", f"-DoutputDirectory={staging}",
                f"-Dneo4j.version={self.settings.neo4j_version}",
                f"-Dneo4j.browser.version={self.settings.neo4j_browser_version}",
            ]
            done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not any(staging.glob("neo4j-server-*.jar")):
            shutil.rmtree(staging, ignore_errors=True)
            tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
            raise ServiceError(
                f"could not resolve Neo4j {self.settings.neo4j_version} jars from Maven Central: "
                + " | ".join(tail)
            )
        (staging / ".complete").write_text(self.settings.neo4j_version)
        if self.lib.exists():
            shutil.rmtree(self.lib)
        staging.rename(self.lib)
        return self.lib

    @property
    def databases(self) -> Path:
        return self.home / "data" / "databases"

    def memory_plan(self) -> MemoryPlan:
        """Heap and page cache for the next start: the settings, else sized to this machine and the store."""
        return plan(self.settings.neo4j_heap, self.settings.neo4j_pagecache, self.databases)

    def started_with(self) -> MemoryPlan | None:
        """The memory the running server was started with."""
        try:
            return MemoryPlan.model_validate_json((self.home / "run" / "memory.json").read_text())
        except (OSError, ValueError):
            return None

    def sizes(self) -> StoreSizes:
        return store_sizes(self.databases)

    def vector_segments(self, index_ids: dict[str, int]) -> dict[str, int]:
        """Lucene segments of each vector index (a query searches every segment's HNSW graph): the ``.si`` files
        under the index's folder, named by its id; empty where the store is not under this home."""
        home = self.databases / self.settings.neo4j_database / "schema" / "index"
        if not home.exists():
            return {}
        return {name: sum(1 for _ in home.glob(f"vector-*/{index_id}/**/*.si")) for name, index_id in index_ids.items()}

    def write_config(self, memory: MemoryPlan | None = None) -> Path:
        s = self.settings
        memory = memory or self.memory_plan()
        for sub in ("conf", "data", "logs", "run", "plugins", "import"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        conf = self.home / "conf" / "neo4j.conf"
        auth = s.neo4j_password is not None
        lines = [
            "# Written by `strata services up`; edit STRATA_* settings instead.",
            "server.default_listen_address=127.0.0.1",
            "server.bolt.enabled=true",
            f"server.bolt.listen_address=127.0.0.1:{s.neo4j_bolt_port}",
            "server.http.enabled=true",
            f"server.http.listen_address=127.0.0.1:{s.neo4j_http_port}",
            "server.https.enabled=false",
            f"dbms.security.auth_enabled={'true' if auth else 'false'}",
            f"server.directories.data={self.home / 'data'}",
            f"server.directories.logs={self.home / 'logs'}",
            f"server.directories.run={self.home / 'run'}",
            f"server.directories.plugins={self.home / 'plugins'}",
            f"server.directories.import={self.home / 'import'}",
            f"server.memory.pagecache.size={memory.pagecache}",
            "dbms.usage_report.enabled=false",
            "db.tx_log.rotation.retention_policy=2 days",
            "server.bolt.thread_pool_max_size=200",
            # A new graph grows by thousands of rows a second; plans cached while it was empty (label scans)
            # would otherwise be kept for the default 10 s, several times slower per commit.
            "dbms.cypher.min_replan_interval=1s",
            *browser_settings(s),
            *vector_merge_settings(s),
        ]
        conf.write_text("\n".join(lines) + "\n")
        return conf

    # -- lifecycle -----------------------------------------------------------------------------------
    def pid(self) -> int | None:
        pid = read_pid(self.pid_file)
        return pid if pid_alive(pid) else None

    def bolt_ready(self) -> bool:
        if not port_open("127.0.0.1", self.settings.neo4j_bolt_port):
            return False
        from neo4j import GraphDatabase
        from neo4j.exceptions import Neo4jError, ServiceUnavailable

        auth = None
        if self.settings.neo4j_password is not None:
            auth = (self.settings.neo4j_user, self.settings.neo4j_password.get_secret_value())
        try:
            with GraphDatabase.driver(f"bolt://127.0.0.1:{self.settings.neo4j_bolt_port}", auth=auth) as d:
                d.verify_connectivity()
            return True
        except (ServiceUnavailable, Neo4jError, OSError):
            return False

    def start(self) -> int:
        s = self.settings
        if self.pid():
            raise ServiceError(f"neo4j is already running (pid {self.pid()}); see `strata services status`")
        for port in (s.neo4j_bolt_port, s.neo4j_http_port):
            if port_open("127.0.0.1", port):
                raise ServiceError(f"port {port} on 127.0.0.1 is already in use by another process")
        java = self.java()
        lib = self.ensure_jars()
        memory = self.memory_plan()
        self.write_config(memory)
        (self.home / "run" / "memory.json").write_text(memory.model_dump_json())
        cmd = [
            java, f"-Xms{memory.heap}", f"-Xmx{memory.heap}", *JVM_FLAGS,
            "-cp", f"{lib}/*:{self.home / 'plugins'}/*",
            "org.neo4j.server.CommunityEntryPoint",
            f"--home-dir={self.home}", f"--config-dir={self.home / 'conf'}", "--console-mode",
        ]
        log = open(self.log_file, "ab")  # noqa: SIM115 - handed to the child process
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, cwd=self.home)
        log.close()
        self.pid_file.write_text(str(proc.pid))
        ready = wait_until(self.bolt_ready, s.service_start_timeout_s, 0.5, abort=lambda: proc.poll() is not None)
        if not ready:
            stop_pid(proc.pid, 10)
            self.pid_file.unlink(missing_ok=True)
            raise ServiceError(f"neo4j did not answer on Bolt; last log lines: {self.log_tail()}")
        return proc.pid

    def stop(self) -> bool:
        return stop_by_pid_file(self.pid_file, 60)

    def log_tail(self, lines: int = 5) -> str:
        try:
            return " | ".join(self.log_file.read_text(errors="replace").strip().splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"


def api_url(settings: Settings) -> str:
    """The API as a browser on this machine names it: a loopback or wildcard bind as `localhost`, which every
    Neo4j's default allowlist for remote content holds."""
    host = settings.api_host
    if host in ("127.0.0.1", "0.0.0.0", "::", ""):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.api_port}"


def browser_settings(settings: Settings) -> list[str]:
    """Neo4j Browser: Strata's style applied on every connect, and the API allowed as a source of guides.

    The style travels inline (GraSS as JSON) rather than as `style <api>/browser/style.grass`, so it applies
    whether or not the API runs (`make demo` runs none); the guide is one `:play` away and not played on every
    connect. Browser fetches `:play`/`:style` URLs only from the allow-listed hosts; Neo4j 5.26 still names
    that setting `..._whitelist` (an `..._allowlist` line stops the server: unknown settings are refused).
    """
    hosts = ["guides.neo4j.com", "localhost", "127.0.0.1"]
    if settings.api_host not in (*hosts, "0.0.0.0", "::", ""):
        # Browser compares a URL's hostname, which keeps an IPv6 address in brackets.
        hosts.append(f"[{settings.api_host}]" if ":" in settings.api_host else settings.api_host)
    return [
        "browser.post_connect_cmd=style " + json.dumps(style_rules(), separators=(",", ":")),
        "browser.remote_content_hostname_whitelist=" + ",".join(hosts),
    ]


def java_major_version(java: str) -> int:
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not match:
        raise ServiceError(f"cannot read the Java version from `{java} -version`")
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 and match.group(2) else major


def vector_merge_settings(s: Settings) -> list[str]:
    """Neo4j reads the vector indexes' merge factor and population buffer from internal settings (5.26):
    each written only when set."""
    lines = []
    if s.neo4j_vector_merge_factor is not None:
        lines.append(f"internal.dbms.index.vector.standard_merge_factor={s.neo4j_vector_merge_factor}")
    if s.neo4j_vector_population_buffer_mb is not None:
        lines.append(f"internal.dbms.index.vector.population_ram_buffer_size={s.neo4j_vector_population_buffer_mb}")
    return lines
