"""``neo4j-admin database import full`` from the jars the server runs from: import files
(``strata.graph.admin_csv``) written into the local store, which it replaces. The importer writes the store
files directly (no transactions, no index updates), so the server must be stopped; memory/admin_load.py checks
the store is empty, stops and starts the server, and applies the schema after."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from strata.graph.admin_csv import ARRAY_DELIMITER, ImportManifest
from strata.schema.errors import ServiceError
from strata.services.neo4j import Neo4jService

ADMIN_MAIN = "org.neo4j.cli.AdminTool"  # neo4j-command-line's entry point; the import command is neo4j-import-tool's
# The importer's off-heap caches (node id mapping, relationship grouping); its default is 90% of the machine.
OFF_HEAP = "25%"


def admin_command(service: Neo4jService, folder: Path, manifest: ImportManifest, database: str) -> list[str]:
    def files(groups: list[list[str]]) -> list[str]:
        return [",".join(str(folder / name) for name in group) for group in groups]

    cmd = [service.java(), "-cp", f"{service.ensure_jars()}/*", ADMIN_MAIN, "database", "import", "full", database,
           "--overwrite-destination=true", f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
           f"--max-off-heap-memory={OFF_HEAP}", f"--report-file={service.home / 'logs' / 'import.report'}",
           *(f"--nodes={f}" for f in files(manifest.nodes)),
           *(f"--relationships={f}" for f in files(manifest.relationships))]
    if manifest.multiline:
        # Values with line breaks (episode contents) need the multiline parser; its v2 form (only the files
        # named) fails on a quoted value that crosses a read buffer ("found CR outside a text cell"), so v1, over
        # every file, at the cost of parallel parsing.
        cmd.append("--multiline-fields=true")
    return cmd


def run_admin_import(service: Neo4jService, folder: Path, manifest: ImportManifest, database: str) -> None:
    service.write_config()  # neo4j-admin reads the data directory from the server's configuration
    env = {**os.environ, "NEO4J_HOME": str(service.home), "NEO4J_CONF": str(service.home / "conf")}
    log = service.home / "logs" / "import.log"
    with log.open("wb") as out:
        done = subprocess.run(admin_command(service, folder, manifest, database), env=env, stdout=out,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=service.home)
    if done.returncode != 0:
        tail = " | ".join(log.read_text(errors="replace").strip().splitlines()[-6:])
        raise ServiceError(f"neo4j-admin import failed ({done.returncode}): {tail}")
