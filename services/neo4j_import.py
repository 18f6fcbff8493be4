"""A first load through ``neo4j-admin database import full``: import files (``strata.graph.admin_csv``) into an
empty store, then the server started, the schema applied and its indexes populated.

The importer writes the store files directly (no transactions, no index updates), so it runs with the server
stopped and only into a store holding nothing but the migrations' records; it replaces that store. Incremental
ingestion stays on Cypher (the per-episode commit, or ``strata.graph.bulk`` for bench groups).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from pydantic import BaseModel

from strata.graph import Graph, apply_migrations
from strata.graph.admin_csv import ARRAY_DELIMITER, ImportManifest
from strata.graph.admin_export import set_empty_lists, user_nodes
from strata.schema.errors import InputError, ServiceError
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService

ADMIN_MAIN = "org.neo4j.cli.AdminTool"  # neo4j-command-line's entry point; the import command is neo4j-import-tool's
# The importer's off-heap caches (node id mapping, relationship grouping); its default is 90% of the machine.
OFF_HEAP = "25%"


class ImportReport(BaseModel):
    nodes: int
    relationships: int
    stop_s: float  # the server checked empty and stopped
    import_s: float  # neo4j-admin
    start_s: float
    empty_lists_s: float
    schema_and_population_s: float  # constraints, indexes and their population (the server's work)
    total_s: float


def admin_command(service: Neo4jService, folder: Path, manifest: ImportManifest, database: str) -> list[str]:
    def files(groups: list[list[str]]) -> list[str]:
        return [",".join(str(folder / name) for name in group) for group in groups]

    cmd = [service.java(), "-cp", f"{service.ensure_jars()}/*", ADMIN_MAIN, "database", "import", "full", database,
           "--overwrite-destination=true", f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
           f"--max-off-heap-memory={OFF_HEAP}", f"--report-file={service.home / 'logs' / 'import.report'}",
           *(f"--nodes={f}" for f in files(manifest.nodes)),
           *(f"--relationships={f}" for f in files(manifest.relationships))]
    if manifest.multiline:  # only these files are parsed line-spanning (it costs parallel parsing)
        multiline = ",".join(str(folder / name) for name in manifest.multiline)
        cmd += ["--multiline-fields-format=v2", f"--multiline-fields={multiline}"]
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


def first_load(settings: Settings, folder: Path, population_timeout_s: int = 7200) -> ImportReport:
    """Import ``folder`` into the local store that ``strata services`` runs (it must be empty), then start it,
    write what the importer cannot, apply the schema and wait for every index."""
    manifest = ImportManifest.read(folder)
    service = Neo4jService(settings)
    began = time.perf_counter()
    if not service.pid():
        service.start()
    with Graph.from_settings(settings) as graph:
        if (held := user_nodes(graph)) > 0:
            raise InputError("a first load goes into an empty store; this one holds nodes", {"nodes": held})
    service.stop()
    stopped = time.perf_counter()
    run_admin_import(service, folder, manifest, settings.neo4j_database)
    imported = time.perf_counter()
    service.start()  # memory sized to the new store
    started = time.perf_counter()
    with Graph.from_settings(settings) as graph:
        set_empty_lists(graph, manifest.empty_lists)
        fixed = time.perf_counter()
        apply_migrations(graph, settings.embedding_dim, await_timeout_s=population_timeout_s, data_fixes=False)
    done = time.perf_counter()
    return ImportReport(nodes=manifest.counts.get("nodes", 0), relationships=manifest.counts.get("relationships", 0),
                        stop_s=round(stopped - began, 1), import_s=round(imported - stopped, 1),
                        start_s=round(started - imported, 1), empty_lists_s=round(fixed - started, 1),
                        schema_and_population_s=round(done - fixed, 1), total_s=round(done - began, 1))
