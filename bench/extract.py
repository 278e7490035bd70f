"""Extraction + placing speed and memory on a Kaggle-shaped image archive (on demand; not a test).

    .venv/bin/python bench/extract.py [--images 50000] [--rounds 5] [--workdir DIR] [--archive ZIP]
                                      [--disk]

Writes ``<id>.zip`` shaped like an image competition's download (``train.csv`` plus
``train/<id>.jpg``; the JPEGs are random-noise pictures of 64–200 pixels a side made with Pillow,
about 5–60 KB each, deflated as Kaggle's zips are), then, in alternating rounds, times two ways
of getting from the archive to a prepared folder, each in a fresh process under
``/usr/bin/time -v`` (wall time and peak resident memory of the whole process):

- **ours**: :func:`pytest_mlebench.kaggle.archives.extract_zip` (streamed, resumable, CRC-checked)
  into ``raw/``, then :func:`pytest_mlebench.placing.place_file` of every image and the CSV into
  ``prepared/public/`` (hard links on one file system);
- **unzip + cp**: ``unzip -q`` into ``raw/`` then ``cp -r`` of it into ``prepared/``.

Each round runs both, in turn, each into a new folder, and prints the load average before it.
Nothing is deleted until the end (about 3 GB a round): ext4's inode allocator passes over inodes
freed in the last minute or so, so creating 50,000 files right after deleting 100,000 costs
several times the kernel time, which no prepare meets (and which made earlier figures swing).
The summary gives min, median and max of each, and the median of the per-round ratio
ours / unzip + cp (pairing keeps the ratio fair when the load drifts). ``--archive ZIP`` reuses
an archive written by an earlier ``--keep`` run. Every generated file is deleted at the end
(``--keep`` keeps them). ``--disk`` adds, to every round, the disk's own speed for scale — ``dd``
reading the archive once, ``dd`` writing as many bytes as it unpacks to (through the page cache,
then again with ``conv=fdatasync``) — and the CPU's share: every member inflated by one thread
with nothing written.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = """
import sys
from pathlib import Path
from pytest_mlebench.kaggle.archives import extract_zip
from pytest_mlebench.placing import place_file

archive, work = Path(sys.argv[1]), Path(sys.argv[2])
raw, public = work / "raw", work / "prepared" / "public"
extract_zip(archive, raw)
place_file(raw / "train.csv", public / "train.csv")
for image in (raw / "train").iterdir():
    place_file(image, public / "train" / image.name)
"""
BASELINE = (
    'unzip -q "$1" -d "$2/raw" && mkdir -p "$2/prepared" && cp -r "$2/raw" "$2/prepared/public"'
)
# The disk's own speed, for scale (``--disk``): the archive read once, sequentially, and as many
# bytes as the archive unpacks to written as one file, through the page cache as a prepare
# writes, and again forced to the disk; and the CPU's share: every member inflated and
# CRC-checked by one thread, nothing written.
DD_READ = 'dd if="$1" of=/dev/null bs=4M status=none'
DD_WRITE = 'dd if=/dev/zero of="$2/dd.out" bs=4M count="$1" status=none'
DD_WRITE_SYNC = 'dd if=/dev/zero of="$2/dd.out" bs=4M count="$1" conv=fdatasync status=none'
INFLATE = """
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as bundle:
    for member in bundle.infolist():
        with bundle.open(member) as stream:
            while stream.read(1 << 20):
                pass
"""


def make_archive(path: Path, images: int, seed: int) -> None:
    """Write the archive."""
    from PIL import Image

    rng = random.Random(seed)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        rows = ["id,label"]
        for index in range(images):
            side = rng.randint(64, 200)
            picture = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
            buffer = io.BytesIO()
            picture.save(buffer, "JPEG", quality=90)
            name = f"{index:08x}"
            bundle.writestr(f"train/{name}.jpg", buffer.getvalue())
            rows.append(f"{name},{rng.randint(0, 1)}")
        bundle.writestr("train.csv", "\n".join(rows) + "\n")


def measure(command: list[str], work: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of ``command`` under ``/usr/bin/time -v``, run into ``work``.

    ``work`` must be new: nothing is deleted between runs (see the module docstring).
    """
    work.mkdir(parents=True)
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command, str(work)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if wall is None or peak is None:
        raise SystemExit(f"cannot read /usr/bin/time output:\n{done.stderr}")
    hours, minutes, seconds = wall.groups()
    elapsed = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return elapsed, int(peak.group(1)) / 1024


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--archive", type=Path, default=None, help="reuse this archive")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--disk", action="store_true", help="also time dd's read and writes and inflating alone"
    )
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="mlebench-bench-", dir=args.workdir))
    try:
        archive = args.archive or base / "bench-competition.zip"
        if args.archive is None:
            make_archive(archive, args.images, seed=0)
        with zipfile.ZipFile(archive) as bundle:
            members = bundle.infolist()
        print(
            f"archive: {len(members) - 1} JPEGs + train.csv, "
            f"{archive.stat().st_size / 1e6:.0f} MB zipped, "
            f"{sum(m.file_size for m in members) / 1e6:.0f} MB unpacked; "
            f"Python {platform.python_version()}, {os.cpu_count()} CPUs",
            flush=True,
        )
        commands = {
            "ours": [sys.executable, "-c", OURS, str(archive)],
            "unzip + cp": ["sh", "-c", BASELINE, "sh", str(archive)],
        }
        unpacked = sum(m.file_size for m in members)
        if args.disk:
            blocks = str(-(-unpacked // (4 << 20)))
            commands |= {
                "dd read": ["sh", "-c", DD_READ, "sh", str(archive)],
                "dd write": ["sh", "-c", DD_WRITE, "sh", blocks],
                "dd write+sync": ["sh", "-c", DD_WRITE_SYNC, "sh", blocks],
                "inflate only": [sys.executable, "-c", INFLATE, str(archive)],
            }
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_ in range(args.rounds):
            print(f"round {round_ + 1}, load average {_load()}", flush=True)
            for index, (name, command) in enumerate(commands.items()):
                results[name].append(measure(command, base / f"run-{round_}-{index}"))
                wall, peak = results[name][-1]
                print(f"  {name:<10} {wall:6.1f} s  {peak:6.0f} MB", flush=True)
        print(f"load average at the end {_load()}")
        for name, runs in results.items():
            walls, peaks = [r[0] for r in runs], [r[1] for r in runs]
            print(
                f"{name:<10} wall s min {min(walls):.1f}, median {statistics.median(walls):.1f}, "
                f"max {max(walls):.1f}; peak RSS {max(peaks):.0f} MB"
            )
        for name, runs in results.items():
            rate = unpacked / 1e6 / max(statistics.median(r[0] for r in runs), 0.01)
            print(f"{name:<14} {rate:,.0f} MB/s of unpacked bytes (median wall)")
        ours, baseline = (results[name] for name in ("ours", "unzip + cp"))
        ratios = [a[0] / b[0] for a, b in zip(ours, baseline, strict=True)]
        print(
            f"ours / unzip + cp, per round: median {statistics.median(ratios):.2f} "
            f"(min {min(ratios):.2f}, max {max(ratios):.2f})"
        )
    finally:
        if args.keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
