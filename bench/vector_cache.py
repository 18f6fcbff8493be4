"""Real embeddings for a generated graph, computed once and kept on disk: the scale bench loads 1M facts with
ONNX MiniLM vectors (the recall goal is stated for them), and embedding 1.17M texts takes most of an hour on
two cores, so it is done in the background, resumable, before the run.

The texts are those ``strata.ingest.testing.synthetic.load`` embeds, in a fixed order: every entity name,
then every fact sentence, then every episode's content (facts in runs of ``FACTS_PER_EPISODE``).
So a cache stopped part way still holds every name and the first facts: the graph cut to those facts
(``bench_scale --max-facts``) can be loaded with real vectors. Their vectors go to one ``.npy`` memmap
(float32, rows in that order) in chunks; ``progress.json`` says how many rows are written, so a killed run
continues where it stopped. ``CachedEmbedder`` serves them back by text to ``load``.

Run: nice -n 19 .venv/bin/python -m bench.vector_cache --facts 1000000 --dir /work/scale-cache
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from strata.ingest.embedders import make_embedder
from strata.ingest.protocols import Embedder
from strata.ingest.testing.synthetic import FACTS_PER_EPISODE, Generated, generate
from strata.schema.settings import Settings

CHUNK = 2048
# The texts do not depend on the group (only uuids do): any group name gives the same cache.
GROUP = "bench-cache"


def texts(gen: Generated) -> Iterator[str]:
    """What ``load`` embeds: names (short, quick), facts (the fact channel's recall is the goal), episodes."""
    yield from (e.name for e in gen.entities())
    yield from (f.sentence for f in gen.facts())
    run: list[str] = []
    for f in gen.facts():
        run.append(f.sentence)
        if len(run) == FACTS_PER_EPISODE:
            yield "\n".join(run)
            run = []
    if run:
        yield "\n".join(run)


def n_texts(gen: Generated) -> int:
    return gen.n_facts + gen.n_entities + -(-gen.n_facts // FACTS_PER_EPISODE)


def paths(directory: Path, n_facts: int, seed: int) -> tuple[Path, Path]:
    stem = directory / f"minilm-{n_facts}-seed{seed}"
    return stem.with_suffix(".npy"), stem.with_suffix(".progress.json")


def build(gen: Generated, embedder: Embedder, directory: Path) -> dict:
    """Embed what is not yet on disk, a chunk at a time; returns rows done and the rate of this run."""
    directory.mkdir(parents=True, exist_ok=True)
    vectors_path, progress_path = paths(directory, gen.n_facts, gen.seed)
    total = n_texts(gen)
    done = json.loads(progress_path.read_text())["rows"] if progress_path.exists() else 0
    mode = "r+" if vectors_path.exists() else "w+"
    vectors = np.lib.format.open_memmap(vectors_path, mode=mode, dtype=np.float32, shape=(total, embedder.dimension))
    started, start_rows = time.perf_counter(), done
    stream = texts(gen)
    for _ in range(done):  # skip what is written (generating is ~40x faster than embedding)
        next(stream)
    while done < total:
        chunk = [t for _, t in zip(range(CHUNK), stream, strict=False)]
        vectors[done:done + len(chunk)] = np.asarray(embedder.embed(chunk), dtype=np.float32)
        vectors.flush()
        done += len(chunk)
        progress_path.write_text(json.dumps({"rows": done, "total": total}))
        rate = (done - start_rows) / (time.perf_counter() - started)
        print(f"{done:,}/{total:,} rows, {rate:.0f} texts/s", flush=True)
    return {"rows": done, "total": total, "seconds": round(time.perf_counter() - started, 1)}


class CachedEmbedder:
    """The cached vectors by text; a text not in the cache (or not yet embedded) is embedded by ``fallback``."""

    name = "onnx-minilm"  # the model the cache was embedded with, recorded per group

    def __init__(self, gen: Generated, directory: Path, fallback: Embedder) -> None:
        vectors_path, progress_path = paths(directory, gen.n_facts, gen.seed)
        self.rows = json.loads(progress_path.read_text())["rows"]
        self.vectors = np.load(vectors_path, mmap_mode="r")
        self.dimension = self.vectors.shape[1]
        self.fallback = fallback
        self.index = {t: i for i, t in zip(range(self.rows), texts(gen), strict=False)}
        self.missed = 0

    def embed(self, batch: Sequence[str]) -> list[list[float]]:
        rows = [self.index.get(t) for t in batch]
        missing = [t for t, r in zip(batch, rows, strict=True) if r is None]
        self.missed += len(missing)
        computed = iter(self.fallback.embed(missing)) if missing else iter(())
        return [self.vectors[r].tolist() if r is not None else next(computed) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=Path("/work/scale-cache"))
    args = parser.parse_args()
    gen = generate(GROUP, args.facts, args.seed)
    print(json.dumps(build(gen, make_embedder(Settings(embedder="onnx-minilm", embedding_threads=2)), args.dir)))


if __name__ == "__main__":
    main()
