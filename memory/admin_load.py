"""First loads and maintenance of a local store: a group exported to import files, files imported through
``neo4j-admin`` into an empty store (then the schema and its indexes), and the vector indexes rebuilt in one
piece after bulk loads. When each applies: docs/scaling.md, "First load and maintenance"."""

from __future__ import annotations

import time
from pathlib import Path

from pydantic import BaseModel

from strata.graph import Graph, apply_migrations
from strata.graph.admin_csv import ImportManifest
from strata.graph.admin_export import export_group, set_empty_lists, user_nodes
from strata.graph.maintain import Rebuilt, rebuild_vector_index, vector_indexes
from strata.graph.text_version import bump_all
from strata.schema.errors import InputError
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService
from strata.services.neo4j_import import run_admin_import

__all__ = ["ImportReport", "MaintainReport", "export_files", "first_load", "rebuild_vectors"]


class ImportReport(BaseModel):
    nodes: int
    relationships: int
    stop_s: float  # the server checked empty and stopped
    import_s: float  # neo4j-admin
    start_s: float
    empty_lists_s: float
    schema_and_population_s: float  # constraints, indexes and their population (the server's work)
    total_s: float


def first_load(settings: Settings, folder: Path, population_timeout_s: int = 7200,
               replace: bool = False) -> ImportReport:
    """Import ``folder`` into the local store that ``strata services`` runs, then start it, write what the
    importer cannot, apply the schema and wait for every index. The store must be empty unless ``replace``
    (everything it holds is deleted)."""
    manifest = ImportManifest.read(folder)
    service = Neo4jService(settings)
    began = time.perf_counter()
    if not service.pid():
        service.start()
    with Graph.from_settings(settings) as graph:
        if (held := user_nodes(graph)) > 0 and not replace:
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
        bump_all(graph)  # a process's kept full-text tables of the store this one replaced are stale
    done = time.perf_counter()
    return ImportReport(nodes=manifest.counts.get("nodes", 0), relationships=manifest.counts.get("relationships", 0),
                        stop_s=round(stopped - began, 1), import_s=round(imported - stopped, 1),
                        start_s=round(started - imported, 1), empty_lists_s=round(fixed - started, 1),
                        schema_and_population_s=round(done - fixed, 1), total_s=round(done - began, 1))


def export_files(settings: Settings, group_id: str, folder: Path) -> ImportManifest:
    """The group, read from the configured store, as import files in ``folder``."""
    with Graph.from_settings(settings) as graph:
        return export_group(graph, group_id, folder)


class MaintainReport(BaseModel):
    segments_before: dict[str, int]
    segments_after: dict[str, int]
    rebuilt: list[Rebuilt]


def rebuild_vectors(settings: Settings, names: list[str] | None = None) -> MaintainReport:
    """Every vector index (or those named) dropped and populated again from its data: few segments. The
    segment counts are read from the local store's folders (empty when the store is not local)."""
    service = Neo4jService(settings)
    with Graph.from_settings(settings) as graph:
        indexes = [i for i in vector_indexes(graph) if names is None or i.name in names]
        before = service.vector_segments({i.name: i.id for i in indexes})
        rebuilt = [rebuild_vector_index(graph, i) for i in indexes]
        after = service.vector_segments({i.name: i.id for i in vector_indexes(graph) if i.name in before})
    return MaintainReport(segments_before=before, segments_after=after, rebuilt=rebuilt)
