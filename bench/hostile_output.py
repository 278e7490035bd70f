"""Peak memory of the host's readers on what a hostile agent leaves (issue: sandbox output).

Each reproduction runs in a fresh child process, so its ``ru_maxrss`` is that step's own peak:

- ``sparse-submission``: a run folder whose ``submission.csv`` is a sparse 5 GiB file without a
  line break (it costs the agent nothing), through what the worker does after the copy-out:
  validation (the grader's size guard), then every integrity check (rules, watermark, the
  judge's prompt);
- ``fingerprint``: the validator's fingerprint of a 2 GiB upload without a line break;
- ``archive``: the copy-out's archive reader over a 512 MB stream in 64 KiB chunks.

    PYTHONPATH=$PWD .venv/bin/python bench/hostile_output.py
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

GIB = 1024**3


def sparse(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def sparse_submission(folder: Path) -> None:
    from pytest_mlebench.graders import SubmissionSpec, validate_submission
    from pytest_mlebench.integrity.checks import CheckContext, check_run
    from pytest_mlebench.integrity.judge_prompt import judge_prompt
    from pytest_mlebench.values.integrity_policy import load_policy

    run_dir = folder / "run"
    submission = sparse(run_dir / "submission.csv", 5 * GIB)
    sparse(run_dir / "logs" / "train.log", 15 * 1024**2)
    (run_dir / "agent.log").write_text("started\n")
    (run_dir / "code").mkdir()
    (run_dir / "code" / "solve.py").write_text("print('hi')\n")
    answers = folder / "answers.csv"
    answers.write_text("id,label\n1,0\n2,1\n")
    spec = SubmissionSpec(id_column="id", target_columns=("label",), metric="accuracy")
    print("validation:", validate_submission(submission, answers, spec).reason)
    evidence = {"sandbox_started": time.time() - 60, "inventory": {"submission": None}}
    report = check_run(evidence, run_dir, [], CheckContext(load_policy()), None)
    print("checks:", {k: v for k, v in report.checks.items() if v != "ran"} or "all ran")
    prompt = judge_prompt(run_dir, 200_000, 400_000)
    print("judge prompt:", len(prompt.as_text()), "characters")


def fingerprint(folder: Path) -> None:
    from pytest_mlebench.sandbox.fingerprint import fingerprint_file

    print("rows:", fingerprint_file(sparse(folder / "upload.csv", 2 * GIB)).rows)


def archive(folder: Path) -> None:
    from pytest_mlebench.sandbox.copy_budget import CopyBudget
    from pytest_mlebench.sandbox.copying import ChunkReader, extract_stream

    member = sparse(folder / "member.bin", 512 * 1024**2)
    tar_path = folder / "stream.tar"
    with tarfile.open(tar_path, "w") as tar:
        tar.add(member, arcname="logs/member.bin")
    member.unlink()

    def chunks() -> Iterator[bytes]:
        with tar_path.open("rb") as handle:
            while data := handle.read(64 * 1024):
                yield data

    started = time.monotonic()
    budget = CopyBudget(total_bytes=GIB)
    reader = ChunkReader(chunks(), limit=2 * GIB)
    extract_stream(reader, folder / "out", 600 * 1024**2, budget)
    print(f"read in {time.monotonic() - started:.1f} s")


STEPS = {"sparse-submission": sparse_submission, "fingerprint": fingerprint, "archive": archive}


def child(step: str) -> None:
    with tempfile.TemporaryDirectory(prefix="mlebench-bench-") as tmp:
        started = time.monotonic()
        STEPS[step](Path(tmp))
        wall = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    figures = {"step": step, "peak_rss_mb": round(peak / 1024**2, 1), "wall_s": round(wall, 2)}
    print(json.dumps(figures))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    for step in STEPS:
        done = subprocess.run(
            [sys.executable, __file__, "--child", step], capture_output=True, text=True, check=False
        )
        print(done.stdout.strip() or done.stderr[-2000:])


if __name__ == "__main__":
    main()
