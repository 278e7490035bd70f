"""The submission watcher on a real local sandbox: what it copies, what it refuses, its bound."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.anytime.copies import COPIES, CopyPlan, SubmissionWatcher, read_copies
from pytest_mlebench.sandbox import create_sandbox
from pytest_mlebench.sandbox.conformance.support import make_spec
from pytest_mlebench.sandbox.interface import Sandbox


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    public = tmp_path / "public"
    public.mkdir()
    (public / "sample_submission.csv").write_text("id,label\n1,0\n")
    with create_sandbox("local", make_spec(public, validator=None)) as started:
        yield started


def write(sandbox: Sandbox, text: str) -> None:
    Path(sandbox.paths.submission_file).write_text(text)  # the local sandbox is this machine


def test_each_change_is_copied_once_and_the_oldest_are_thinned(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    watcher = SubmissionWatcher(sandbox, tmp_path / "run", CopyPlan(keep=3), max_submission=1000)
    watcher.folder.mkdir(parents=True)
    assert watcher.look() is None  # nothing written yet
    for number in range(1, 6):
        write(sandbox, f"id,label\n1,{number}\n")
        assert watcher.look() is not None
        assert watcher.look() is None  # unchanged: no second copy
    kept = read_copies(tmp_path / "run")
    assert [entry.number for entry in kept] == [1, 4, 5]
    on_disk = sorted(p.name for p in (tmp_path / "run" / COPIES).glob("*.csv"))
    assert on_disk == ["0001.csv", "0004.csv", "0005.csv"]
    assert (tmp_path / "run" / COPIES / "0004.csv").read_text() == "id,label\n1,4\n"


def test_a_link_or_a_file_over_the_graders_cap_is_never_copied(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("id,label\n1,1\n")
    watcher = SubmissionWatcher(sandbox, tmp_path / "run", CopyPlan(), max_submission=64)
    watcher.folder.mkdir(parents=True)
    Path(sandbox.paths.submission_file).symlink_to(secret)
    assert watcher.look() is None
    Path(sandbox.paths.submission_file).unlink()
    write(sandbox, "id,label\n" + "1,0\n" * 40)  # 169 bytes, over the cap of 64
    assert watcher.look() is None
    assert read_copies(tmp_path / "run") == []
    assert list((tmp_path / "run" / COPIES).iterdir()) == []
