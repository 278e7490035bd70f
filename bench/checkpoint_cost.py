"""What a snapshot of a live run costs: a run that writes 1 GB, snapshotted three times.

Not a test. For each backend (``local``, ``docker``) a sandbox is started on a tiny public
folder and the "agent" writes ``--files`` files of ``--file-mb`` MB of random bytes into
``code/`` (1 GB by default, each file under the 100 MB per-file cap). Then three snapshots are
taken as the running harness takes them (:func:`~pytest_mlebench.checkpoint.snapshot.take_snapshot`,
the default 2 GiB cap):

- **first**: everything is new;
- **incremental**: after one file was rewritten (a new checkpoint of a model, say);
- **unchanged**: nothing changed since.

Per snapshot the table gives its time, the bytes read out of the sandbox (``copied``), the bytes
stored anew on the host (``new``) and those hard-linked to the previous snapshot (``linked``).

    .venv/bin/python bench/checkpoint_cost.py                 # both backends, 20 x 50 MB
    .venv/bin/python bench/checkpoint_cost.py --backends local --files 4
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

MB = 1024**2


def measure(backend: str, files: int, file_mb: int) -> list[tuple[str, float, int, int, int]]:
    from pytest_mlebench.checkpoint.snapshot import Snapshot, take_snapshot
    from pytest_mlebench.sandbox import create_sandbox
    from pytest_mlebench.sandbox.conformance.support import make_spec

    rows = []
    with tempfile.TemporaryDirectory(prefix="mlebench-bench-ckpt-") as folder:
        root = Path(folder)
        public = root / "public"
        public.mkdir()
        (public / "sample_submission.csv").write_text("id,label\n1,0\n")
        image = None
        if backend == "docker":
            from pytest_mlebench.sandbox.docker import ensure_image

            image = ensure_image()
        spec = make_spec(public, validator=None, time_limit=3600)
        with create_sandbox(backend, spec, image=image) as sandbox:
            code = sandbox.paths.code
            one = f"head -c {file_mb}M /dev/urandom > {code}/part$i.bin"
            write = f"for i in $(seq 1 {files}); do {one}; done"
            done = sandbox.exec(["bash", "-c", write], timeout=1800)
            assert done.exit_code == 0, done.output_tail
            previous: Snapshot | None = None
            steps = [
                ("first", None),
                ("incremental", f"head -c {file_mb}M /dev/urandom > {code}/part1.bin"),
                ("unchanged", None),
            ]
            for number, (name, change) in enumerate(steps, start=1):
                if change:
                    sandbox.exec(["bash", "-c", change], timeout=600)
                started = time.monotonic()
                previous = take_snapshot(sandbox, root / "run", number, 0.0, previous=previous)
                seconds = time.monotonic() - started
                info = previous.info
                rows.append((name, seconds, info.copied_bytes, info.new_bytes, info.linked_bytes))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="local,docker")
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--file-mb", type=int, default=50)
    options = parser.parse_args()
    total = options.files * options.file_mb
    print(f"a run that wrote {total} MB ({options.files} x {options.file_mb} MB) into code/")
    columns = ("seconds", "copied MB", "new MB", "linked MB")
    print(f"{'backend':8} {'snapshot':12} " + " ".join(f"{name:>10}" for name in columns))
    for backend in options.backends.split(","):
        for name, seconds, copied, new, linked in measure(backend, options.files, options.file_mb):
            print(
                f"{backend:8} {name:12} {seconds:10.2f} {copied / MB:10.0f} {new / MB:10.0f} "
                f"{linked / MB:10.0f}"
            )


if __name__ == "__main__":
    main()
