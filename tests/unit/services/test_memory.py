"""Neo4j's memory sized to the machine and the store (services/memory.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata.services.memory import (
    GiB,
    MemoryPlan,
    MiB,
    StoreSizes,
    format_size,
    parse_size,
    plan,
    recommend,
    store_sizes,
    warnings,
)


def test_sizes_parse_and_format() -> None:
    assert parse_size("512m") == 512 * MiB and parse_size("1g") == GiB and parse_size("1.5G") == 1536 * MiB
    assert parse_size("2GiB") == 2 * GiB
    assert format_size(GiB) == "1g" and format_size(1536 * MiB) == "1536m"
    with pytest.raises(ValueError):
        parse_size("lots")


@pytest.mark.parametrize("machine_gib", [2, 4, 8, 24, 64, 512])
def test_recommendation_fits_the_machine(machine_gib: int) -> None:
    machine = machine_gib * GiB
    for store in (0, 300 * MiB, 5 * GiB, 80 * GiB):
        heap, pagecache = recommend(machine, StoreSizes(store_bytes=store))
        assert GiB <= heap <= 31 * GiB and pagecache >= 512 * MiB
        if machine_gib >= 8:  # never more than the machine minus what the OS and the workers keep
            assert heap + pagecache <= machine * 0.7 + 1


def test_page_cache_follows_the_store_and_lucene_indexes_are_left_to_the_os() -> None:
    machine = 64 * GiB
    small = recommend(machine, StoreSizes(store_bytes=100 * MiB))
    large = recommend(machine, StoreSizes(store_bytes=10 * GiB))
    assert small[1] == 512 * MiB and large[1] == 15 * GiB  # the store with room to grow by half
    with_vectors = recommend(machine, StoreSizes(store_bytes=10 * GiB, vector_bytes=20 * GiB))
    assert with_vectors[0] < large[0]  # the vector index's file cache comes out of what the heap could take


def test_settings_override_and_store_is_measured(tmp_path: Path) -> None:
    db = tmp_path / "databases" / "neo4j"
    (db / "schema" / "index" / "vector-2.0" / "7").mkdir(parents=True)
    (db / "schema" / "index" / "fulltext-1.0" / "3").mkdir(parents=True)
    (db / "neostore.nodestore.db").write_bytes(b"x" * 3000)
    (db / "schema" / "index" / "vector-2.0" / "7" / "seg").write_bytes(b"x" * 2000)
    (db / "schema" / "index" / "fulltext-1.0" / "3" / "seg").write_bytes(b"x" * 1000)
    sizes = store_sizes(tmp_path / "databases")
    assert (sizes.store_bytes, sizes.vector_bytes, sizes.fulltext_bytes) == (3000, 2000, 1000)
    chosen = plan("2g", None, tmp_path / "databases", machine_bytes=16 * GiB)
    assert (chosen.heap, chosen.heap_from) == ("2g", "setting")
    assert (chosen.pagecache, chosen.pagecache_from) == ("512m", "store")
    assert plan(None, "3g", tmp_path / "databases", machine_bytes=16 * GiB).pagecache == "3g"


def test_warnings_name_what_does_not_fit() -> None:
    chosen = MemoryPlan(heap="4g", pagecache="1g", machine_bytes=16 * GiB, store_bytes=0, heap_from="machine",
                        pagecache_from="store")
    assert warnings(chosen, StoreSizes(store_bytes=512 * MiB, vector_bytes=GiB)) == []
    told = warnings(chosen, StoreSizes(store_bytes=2 * GiB, vector_bytes=8 * GiB))
    assert len(told) == 2 and "page cache" in told[0] and "vector" in told[1]
