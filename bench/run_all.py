"""`make bench`: every benchmark with its defaults, one after another, each writing its bench/results/*.json.

Those that read the project's shared data (LoCoMo, DialogRE, PDNC, the books) are skipped with the reason when
the folder is not beside the checkout. `--only name,name` runs a subset; `--list` prints them. A failed bench does
not stop the others; the exit code says whether all ran.

    .venv/bin/python -m bench.run_all [--only search,memory] [--list]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

# (name, module, needs the shared data): cheapest first.
BENCHES = (
    ("memory", "bench.bench_memory", True),
    ("search", "bench.bench_search", False),
    ("purge", "bench.bench_purge", False),
    ("extract", "bench.bench_extract", True),
    ("ingest", "bench.bench_ingest", True),
    ("retrieval", "bench.bench_retrieval", True),
    ("conversation", "bench.bench_conversation", True),
    ("dialogre", "bench.bench_dialogre", True),
    ("quotes", "bench.bench_quotes", True),
    ("cast", "bench.bench_cast", True),
    ("network", "bench.bench_network", True),
    ("book_relations", "bench.bench_book_relations", True),
    ("load", "bench.bench_load", True),
    ("updates", "bench.bench_updates", True),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated names (see --list)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for name, module, shared in BENCHES:
            print(f"{name:15} python -m {module}{'   (needs the shared data)' if shared else ''}")
        return 0
    wanted = set(args.only.split(",")) if args.only else {name for name, _, _ in BENCHES}
    unknown = wanted - {name for name, _, _ in BENCHES}
    if unknown:
        parser.error(f"unknown bench(es): {', '.join(sorted(unknown))}")
    failed = []
    for name, module, shared in BENCHES:
        if name not in wanted:
            continue
        if shared and not SHARED.exists():
            print(f"== {name}: skipped, needs the shared data folder at {SHARED}", flush=True)
            continue
        print(f"== {name}: python -m {module}", flush=True)
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", module])
        print(f"== {name}: exit {done.returncode} in {time.monotonic() - began:.0f} s", flush=True)
        if done.returncode != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
