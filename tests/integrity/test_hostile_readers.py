"""Every host-side reader of sandbox output, over hostile artefacts: memory stays at a chunk.

The artefacts are sparse (nothing real is written), one line without a line break, binary, links,
FIFOs and deep trees. Python's allocation peak (``tracemalloc``) is measured around each reader:
a reader that takes a whole file or a whole line allocates the file's size, far over the bound.
Whole-process figures for the real sizes (a 5 GiB submission) are in ``bench/hostile_output.py``.
"""

from __future__ import annotations

import os
import tarfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.grading import left_behind
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.judge_prompt import judge_prompt
from pytest_mlebench.integrity.rules import copy_out_flag, log_flags, submission_rows
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.integrity.watermark import inventory_mismatch_flag
from pytest_mlebench.sandbox.bounded_read import (
    NotARegularFile,
    iter_lines,
    read_head,
    read_tail,
    text_lines,
)
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copying import ChunkReader, copy_tree_out, extract_stream
from pytest_mlebench.sandbox.fingerprint import fingerprint_file
from pytest_mlebench.values.integrity_policy import load_policy

MB = 1024**2
BIG = 300 * MB  # sparse: costs nothing on disk, far more than any bound below
BOUND = 40 * MB


def sparse(path: Path, size: int = BIG) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def peak_of(read: Callable[[], Any]) -> int:
    """Python's allocation peak while ``read`` runs, in bytes."""
    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def hostile_run(tmp_path: Path) -> Path:
    """A run folder as a hostile agent could leave it, had the copy-out let it all through."""
    run = tmp_path / "run"
    sparse(run / "submission.csv")
    sparse(run / "agent.log")
    sparse(run / "logs" / "one-line.log", 15 * MB)
    (run / "logs" / "binary.bin").write_bytes(bytes(range(256)) * 64)
    (run / "code").mkdir()
    (run / "code" / "solve.py").write_text("print(1)\n" * 10)
    deep = run / "code"
    for _ in range(70):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "x.py").write_text("y = 1\n")
    return run


def test_the_integrity_checks_read_a_sparse_submission_in_bounded_memory(
    hostile_run: Path,
) -> None:
    evidence = Evidence(sandbox_started=time.time(), inventory={"submission": None})
    context = CheckContext(load_policy())
    peak = peak_of(lambda: check_run(evidence, hostile_run, [], context, None))
    assert peak < BOUND, f"{peak / MB:.0f} MB"


def test_the_judge_prompt_reads_bounded_pieces(hostile_run: Path) -> None:
    peak = peak_of(lambda: judge_prompt(hostile_run, 50_000, 100_000))
    assert peak < BOUND, f"{peak / MB:.0f} MB"
    prompt = judge_prompt(hostile_run, 50_000, 100_000)
    assert any("logs were cut" in note for note in prompt.truncated)


def test_rules_read_bounded_lines(hostile_run: Path) -> None:
    rows: list[str] = []
    peak = peak_of(lambda: rows.extend(submission_rows(hostile_run / "submission.csv")))
    assert peak < BOUND and rows == []  # one line of NULs, the header: no data rows
    assert peak_of(lambda: log_flags([hostile_run / "logs"], load_policy())) < BOUND


def test_the_fingerprint_reads_a_line_without_a_break_in_chunks(tmp_path: Path) -> None:
    upload = sparse(tmp_path / "upload.csv")
    peak = peak_of(lambda: fingerprint_file(upload))
    assert peak < 8 * MB, f"{peak / MB:.0f} MB"
    assert fingerprint_file(upload).rows == 0


def test_the_bounded_reader_cuts_long_lines_and_stops_at_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "text"
    path.write_bytes(b"a" * 100 + b"\nshort\n" + b"b" * 50)
    assert list(iter_lines(path, 1000, max_line=10)) == [b"a" * 10, b"short", b"b" * 10]
    assert list(iter_lines(path, 104)) == [b"a" * 100, b"sho"]
    assert read_head(path, 3) == b"aaa" and read_tail(path, 2) == b"bb"


def test_links_and_fifos_are_never_opened(tmp_path: Path) -> None:
    target = tmp_path / "secret"
    target.write_text("secret\n")
    link, fifo = tmp_path / "link", tmp_path / "fifo"
    link.symlink_to(target)
    os.mkfifo(fifo)
    for path in (link, fifo, tmp_path):
        with pytest.raises(NotARegularFile):
            read_head(path, 10)
        assert list(text_lines(path, 10)) == []  # and no blocking on the FIFO


def test_a_submission_left_behind_says_why(tmp_path: Path) -> None:
    (tmp_path / "submission.csv.omitted.txt").write_text(
        "not copied out of the sandbox: a symbolic link (never followed)\n"
    )
    reason = left_behind(tmp_path / "submission.csv")
    assert reason is not None and "symbolic link" in reason
    assert left_behind(tmp_path / "other.csv") is None


def test_the_local_copy_out_stops_at_its_total_by_apparent_size(tmp_path: Path) -> None:
    source = tmp_path / "logs"
    for n in range(8):
        sparse(source / f"big{n}.log", 3 * MB)
    (source / "link").symlink_to("/etc/passwd")
    os.mkfifo(source / "fifo")
    budget = CopyBudget(total_bytes=10 * MB)
    assert copy_tree_out(source, tmp_path / "out", 5 * MB, budget)
    written = sum(p.stat().st_size for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert written <= 10 * MB and budget.written == written
    assert budget.capped is not None and "total cap" in budget.capped
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "big0.log",
        "big1.log",
        "big2.log",
    ]
    flag = copy_out_flag(budget.summary(), load_policy())
    assert flag is not None and flag.rule == "copy-out-capped"


def test_a_file_over_its_own_cap_leaves_a_note_and_the_copy_goes_on(tmp_path: Path) -> None:
    source = tmp_path / "code"
    sparse(source / "a-model.bin", 6 * MB)
    (source / "b.py").write_text("print(1)\n")
    budget = CopyBudget(total_bytes=10 * MB)
    copy_tree_out(source, tmp_path / "out", 5 * MB, budget)
    assert (tmp_path / "out" / "b.py").read_text() == "print(1)\n"
    note = (tmp_path / "out" / "a-model.bin.omitted.txt").read_text()
    assert "6291456 bytes, over the 5242880 byte limit" in note
    assert budget.capped is None and copy_out_flag(budget.summary(), load_policy()) is None


def tar_stream(tmp_path: Path, members: dict[str, int], chunk: int = 4096) -> Iterator[bytes]:
    """A ``get_archive``-like stream of a folder ``top`` holding sparse members."""
    folder = tmp_path / "top"
    for name, size in members.items():
        sparse(folder / name, size)
    archive = tmp_path / "stream.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(folder, arcname="top")
    with archive.open("rb") as handle:
        while data := handle.read(chunk):
            yield data


def test_the_archive_reader_slices_each_chunk_once_and_stops_at_its_limit(tmp_path: Path) -> None:
    chunks = [bytes([n]) * 1000 for n in range(10)]
    reader = ChunkReader(chunks)
    parts = [reader.read(333) for _ in range(31)]
    assert b"".join(parts) == b"".join(chunks)
    limited = ChunkReader(chunks, limit=2500)
    assert len(limited.read(4000)) == 2500 and limited.read(10) == b"" and limited.cut


def test_the_archive_copy_out_stops_reading_past_twice_its_total(tmp_path: Path) -> None:
    stream = tar_stream(tmp_path, {f"f{n}.log": 4 * MB for n in range(10)})
    budget = CopyBudget(total_bytes=6 * MB)
    reader = ChunkReader(stream, limit=2 * budget.total_bytes)
    assert extract_stream(reader, tmp_path / "out", 5 * MB, budget)
    assert reader.read_bytes <= 12 * MB
    assert budget.written <= 6 * MB and budget.capped is not None


def test_the_inventory_is_checked_against_the_graded_copy(tmp_path: Path) -> None:
    graded = tmp_path / "submission.csv"
    graded.write_text("id,label\n1,0\n")
    policy = load_policy()
    honest = Evidence(inventory={"submission": {"size": 13, "sha256": None}})
    assert inventory_mismatch_flag(honest, graded, policy) is None
    for forged in ({"size": 13, "sha256": "0" * 64}, {"size": 1, "sha256": "0" * 64}, None):
        flag = inventory_mismatch_flag(Evidence(inventory={"submission": forged}), graded, policy)
        assert flag is not None and flag.severity == "high"


def test_a_copied_sparse_file_keeps_its_bytes_and_its_holes(tmp_path: Path) -> None:
    source = tmp_path / "in" / "model.bin"
    sparse(source, 8 * MB)
    with source.open("r+b") as handle:
        handle.seek(3 * MB + 5)
        handle.write(b"weights")
    budget = CopyBudget(total_bytes=10 * MB)
    copy_tree_out(source, tmp_path / "out.bin", None, budget)
    copied = tmp_path / "out.bin"
    assert copied.read_bytes() == source.read_bytes()
    assert copied.stat().st_blocks * 512 < 2 * MB  # the zeros were not written
