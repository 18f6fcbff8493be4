"""Neo4j's memory sized to the machine and the store, the way `neo4j-admin server memory-recommendation` reasons:
keep back what the operating system and the other processes need, give the JVM heap a bounded share, and let
the page cache hold the store.

Two kinds of files make a Neo4j 5 database: the store and its native indexes (range, text, point, lookup),
read through Neo4j's page cache; and the Lucene-backed indexes (vector and full-text), read through the
operating system's file cache, outside the page cache and the heap. So the Lucene indexes' size is left to the
OS, on top of the reserve. This machine also runs Redis, the API and the workers (each with its spaCy and
ONNX models), so the reserve is larger than a dedicated database server's. The page cache is sized to the
store with room to grow (sized again at every `strata services up`), not to all free memory: an empty
development database does not need gigabytes, and memory the page cache does not use is free for the workers.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pydantic import BaseModel

MiB = 1024**2
GiB = 1024**3
SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": MiB, "g": GiB, "t": 1024 * GiB}

MIN_HEAP, MAX_HEAP = 1 * GiB, 31 * GiB  # above 31 GiB the JVM loses compressed object pointers
MIN_PAGECACHE = 512 * MiB
GROWTH = 1.5  # room for the store to grow by half before the next start re-sizes the page cache


class MemoryPlan(BaseModel):
    heap: str
    pagecache: str
    machine_bytes: int
    store_bytes: int
    heap_from: str  # "setting" or "machine"
    pagecache_from: str  # "setting" or "store"


def parse_size(text: str) -> int:
    """ "512m", "1g", "1.5G", "2GiB" -> bytes."""
    match = SIZE.match(text)
    if not match:
        raise ValueError(f"not a memory size: {text!r} (use e.g. 512m or 4g)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def format_size(n: int) -> str:
    """Bytes as the JVM and neo4j.conf write them, rounded down to whole MiB (whole GiB when exact)."""
    mib = max(1, n // MiB)
    return f"{mib // 1024}g" if mib % 1024 == 0 else f"{mib}m"


def machine_memory() -> int:
    """Physical memory, or the container's limit when one is set (cgroup v2, then v1)."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            raw = Path(limit_file).read_text().strip()
        except OSError:
            continue
        if raw.isdigit() and 0 < int(raw) < total:
            return int(raw)
    return total


class StoreSizes(BaseModel):
    store_bytes: int = 0  # store files and native indexes: the page cache's
    vector_bytes: int = 0  # Lucene-backed, the OS file cache's
    fulltext_bytes: int = 0

    @property
    def lucene_bytes(self) -> int:
        return self.vector_bytes + self.fulltext_bytes


def store_sizes(databases: Path) -> StoreSizes:
    """Sizes of every database under ``databases`` (a server's data/databases folder)."""
    sizes = StoreSizes()
    if not databases.exists():
        return sizes
    for f in databases.rglob("*"):
        if not f.is_file():
            continue
        size = f.stat().st_size
        provider = next((part for part in f.parts if part.startswith(("vector-", "fulltext-"))), None)
        if provider is None:
            sizes.store_bytes += size
        elif provider.startswith("vector-"):
            sizes.vector_bytes += size
        else:
            sizes.fulltext_bytes += size
    return sizes


def reserve(machine_bytes: int) -> int:
    """Kept back for the OS, Redis, the API and the workers' models."""
    return max(2 * GiB, int(machine_bytes * 0.3))


def recommend(machine_bytes: int, sizes: StoreSizes) -> tuple[int, int]:
    """(heap, page cache) in bytes for a machine of ``machine_bytes`` and a database of ``sizes``."""
    available = max(machine_bytes - reserve(machine_bytes) - sizes.lucene_bytes, MIN_HEAP + MIN_PAGECACHE)
    heap = min(max(int(available * 0.25), MIN_HEAP), MAX_HEAP)
    pagecache = min(max(int(sizes.store_bytes * GROWTH), MIN_PAGECACHE), max(available - heap, MIN_PAGECACHE))
    return heap, pagecache


def plan(heap_setting: str | None, pagecache_setting: str | None, databases: Path,
         machine_bytes: int | None = None) -> MemoryPlan:
    """The heap and page cache to start with: the settings when given, else sized to the machine and store."""
    machine = machine_bytes or machine_memory()
    sizes = store_sizes(databases)
    heap, pagecache = recommend(machine, sizes)
    return MemoryPlan(
        heap=format_size(parse_size(heap_setting)) if heap_setting else format_size(heap),
        pagecache=format_size(parse_size(pagecache_setting)) if pagecache_setting else format_size(pagecache),
        machine_bytes=machine, store_bytes=sizes.store_bytes,
        heap_from="setting" if heap_setting else "machine",
        pagecache_from="setting" if pagecache_setting else "store")


def warnings(plan: MemoryPlan, sizes: StoreSizes) -> list[str]:
    """What will be slow: a store larger than the page cache, Lucene indexes larger than what is left to the
    OS file cache."""
    out = []
    pagecache = parse_size(plan.pagecache)
    if sizes.store_bytes > pagecache:
        out.append(f"the store ({format_size(sizes.store_bytes)}) is larger than the page cache ({plan.pagecache}): "
                   "restart the services to size it again, or set STRATA_NEO4J_PAGECACHE")
    left = plan.machine_bytes - reserve(plan.machine_bytes) - parse_size(plan.heap) - pagecache
    if sizes.lucene_bytes > left:
        out.append(f"the vector and full-text indexes ({format_size(sizes.lucene_bytes)}) do not fit in the memory "
                   f"left to the OS file cache ({format_size(max(left, 0))}): vector search will read from disk")
    return out
