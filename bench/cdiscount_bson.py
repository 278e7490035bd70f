"""Prepare speed and memory of cdiscount's BSON streaming on a generated file (on demand).

    .venv/bin/python bench/cdiscount_bson.py [--megabytes 500] [--rounds 3] [--workdir DIR] [--cold]

Writes ``raw/train.bson`` shaped like cdiscount-image-classification-challenge's (one document per
product: an integer ``_id``, ``imgs`` with one to four ``{"picture": <bytes>}``, ``category_id``;
pictures are random bytes of 1–5.6 KB, about 8 KB a product on average like Kaggle's 58.2 GB for
7,069,896 products; never decoded, so their content does not matter) up to the size asked for,
plus ``category_names.csv``. Then, in rounds, each step in a fresh process with its wall time and
peak resident memory (``ru_maxrss`` of the child):

- **read once**: the file read front to back in 1 MB blocks, nothing decoded (the floor for any
  prepare that must look at every byte);
- **prepare**: the competition's own ``prepare.py`` — two streamed passes over ``train.bson``
  (labels, then the split files), writing ``train.bson``, ``test.bson``, ``train_example.bson``,
  the sample submission and the answers.

The file is read once before the first round so that every step finds it in the page cache;
``--cold`` instead empties the page cache before every step (``sync``, then
``/proc/sys/vm/drop_caches``: root only), so that each step reads the file from disk, as a
58 GB file that does not fit the page cache is read.
Prints the median of each (for prepare also the time of the ``prepare()`` call alone, without
the interpreter's start and the imports of pandas and scikit-learn), the ratio of the call to
read once, and the throughput in MB/s. Every
generated file is deleted at the end (``--keep`` keeps them).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import bson
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
COMPETITION = ROOT / "competitions" / "cdiscount-image-classification-challenge"
CATEGORIES = 5270
READ_ONCE = """
import sys
with open(sys.argv[1], "rb", buffering=0) as handle:
    block = bytearray(1 << 20)
    while handle.readinto(block):
        pass
"""
PREPARE = """
import sys, time
from pathlib import Path
from pytest_mlebench.definition import load_competition, load_prepare

raw, work = Path(sys.argv[1]), Path(sys.argv[2])
public, private = work / "public", work / "private"
public.mkdir(parents=True)
private.mkdir(parents=True)
prepare = load_prepare(load_competition(Path(sys.argv[3])))
start = time.perf_counter()
prepare(raw, public, private)
print(time.perf_counter() - start)
"""


def write_train_bson(path: Path, size: int, seed: int = 0) -> int:
    """Write products until the file holds ``size`` bytes; return how many were written."""
    rng = np.random.default_rng(seed)
    categories = 1000000000 + rng.choice(20000, size=CATEGORIES, replace=False)
    pool = rng.bytes(1 << 22)  # pictures are slices of one random buffer: cheap to make
    written = products = 0
    with path.open("wb", buffering=1 << 20) as handle:
        while written < size:
            pictures = []
            for _ in range(int(rng.integers(1, 5))):
                start, length = (
                    int(rng.integers(0, len(pool) - 5600)),
                    int(rng.integers(1000, 5600)),
                )
                pictures.append({"picture": pool[start : start + length]})
            document = {
                "_id": products,
                "imgs": pictures,
                "category_id": int(rng.choice(categories)),
            }
            data = bson.encode(document)
            handle.write(data)
            written += len(data)
            products += 1
    return products


def write_category_names(path: Path) -> None:
    lines = ["category_id,category_level1,category_level2,category_level3"]
    lines += [f"{1000000000 + n},LEVEL1,LEVEL2,LEVEL3 {n}" for n in range(CATEGORIES)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-c", sys.argv[1], *sys.argv[2:]], check=True)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def drop_page_cache() -> None:
    """Write dirty pages back and empty the page cache (root only)."""
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def measure(script: str, *args: str) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MB) and the script's own last printed number (seconds) or 0.

    A small probe process starts it and reads ``ru_maxrss`` of its only child, so each
    measurement is that one process's peak (the maximum over a parent's children would carry
    the largest earlier step).
    """
    out = subprocess.run(
        [sys.executable, "-c", PROBE, script, *args], check=True, cwd=ROOT, capture_output=True
    )
    words = out.stdout.split()
    inner = float(words[-3]) if len(words) >= 3 else 0.0
    return float(words[-2]), int(words[-1]) / 1024, inner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--cold", action="store_true", help="empty the page cache before each step")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cdiscount-bench-", dir=options.workdir))
    raw = work / "raw"
    raw.mkdir()
    try:
        products = write_train_bson(raw / "train.bson", options.megabytes * 10**6)
        write_category_names(raw / "category_names.csv")
        size = (raw / "train.bson").stat().st_size / 10**6
        print(f"train.bson: {size:.0f} MB, {products:,} products; {platform.python_version()}; "
              f"{'cold (page cache emptied before each step)' if options.cold else 'cached'}; "
              f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
        if not options.cold:
            measure(READ_ONCE, str(raw / "train.bson"))  # warm the page cache
        reads, prepares = [], []
        for round_number in range(options.rounds):
            if options.cold:
                drop_page_cache()
            reads.append(measure(READ_ONCE, str(raw / "train.bson")))
            out = work / f"round-{round_number}"
            if options.cold:
                drop_page_cache()
            prepares.append(measure(PREPARE, str(raw), str(out), str(COMPETITION)))
            shutil.rmtree(out)
            print(f"round {round_number + 1}: read once {reads[-1][0]:.2f} s "
                  f"{reads[-1][1]:.0f} MB; prepare {prepares[-1][0]:.2f} s (the call "
                  f"{prepares[-1][2]:.2f} s) {prepares[-1][1]:.0f} MB")  # fmt: skip
        read_s = statistics.median(r[0] for r in reads)
        prep_s = statistics.median(p[0] for p in prepares)
        call_s = statistics.median(p[2] for p in prepares)
        peak = max(p[1] for p in prepares)
        print(f"median: read once {read_s:.2f} s ({size / read_s:.0f} MB/s); prepare process "
              f"{prep_s:.2f} s ({size / prep_s:.0f} MB/s); the prepare call {call_s:.2f} s "
              f"({size / call_s:.0f} MB/s), {call_s / read_s:.1f}x read once; "
              f"prepare peak RSS {peak:.0f} MB; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    finally:
        if not options.keep:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
