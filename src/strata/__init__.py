"""Strata: text streams in, a bi-temporal memory graph in Neo4j out.

The layers live in the repository's top-level folders (schema/, graph/, resolve/, ingest/, api/, services/);
src/strata links to them so the package installs as a plain src layout (one path entry when editable).
"""
