"""Snapshots of a live sandbox (both backends): what they take, what they leave, what they share.

A snapshot takes the submission, ``code/``, ``logs/`` and the agent's folder, never the data;
under attack (a link out of the sandbox, a FIFO, a sparse file far over the cap) it stays within
its cap and says what it left; the second snapshot hard-links what did not change; a snapshot
taken while the agent writes does not disturb it, and a failing one is recorded, not raised.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from pytest_mlebench.checkpoint.resume import restore_snapshot
from pytest_mlebench.checkpoint.snapshot import latest_snapshot, snapshots_of, take_snapshot
from pytest_mlebench.checkpoint.snapshotter import CheckpointPlan, Snapshotter
from pytest_mlebench.sandbox.conformance import SandboxFactory
from pytest_mlebench.sandbox.interface import Sandbox

MB = 1024**2

WRITE = r"""
import os, sys
sub, logs, code, agent = sys.argv[1:5]
with open(os.path.join(sub, "submission.csv"), "w") as f:
    f.write("id,label\n1,0\n")
os.makedirs(os.path.join(code, "model"), exist_ok=True)
with open(os.path.join(code, "model", "weights.bin"), "wb") as f:
    f.write(os.urandom(2 * 1024**2))
with open(os.path.join(code, "train.py"), "w") as f:
    f.write("print('step 1')\n")
with open(os.path.join(agent, "journal.json"), "w") as f:
    f.write('{"step": 1}')
"""

HOSTILE = r"""
import os, sys
logs, code = sys.argv[1:3]
os.symlink("/etc/passwd", os.path.join(logs, "passwd"))
os.symlink("/", os.path.join(code, "root"))
os.mkfifo(os.path.join(logs, "pipe"))
with open(os.path.join(logs, "huge.bin"), "wb") as f:
    f.truncate(5 * 1024**3)  # sparse: 5 GiB that cost nothing here
with open(os.path.join(code, "odd name\nwith 'quotes' and \u00e9"), "w") as f:
    f.write("odd\n")
"""


def plant(sandbox: Sandbox, code: str, *args: str) -> None:
    done = sandbox.exec([sandbox.python, "-c", code, *args], timeout=120)
    assert done.exit_code == 0, done.output_tail


def test_a_snapshot_takes_the_agents_work_and_the_next_links_what_did_not_change(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    plant(sandbox, WRITE, paths.submission, paths.logs, paths.code, paths.agent)

    first = take_snapshot(sandbox, tmp_path, 1, 12.5)
    assert (first.folder / "submission.csv").read_text() == "id,label\n1,0\n"
    assert (first.folder / "agent" / "journal.json").is_file()
    assert not (first.folder / "data").exists()
    assert first.info.time_used == 12.5 and first.info.new_bytes >= 2 * MB

    plant(
        sandbox,
        "open(__import__('sys').argv[1], 'a').write('print(2)\\n')",
        paths.code + "/train.py",
    )
    second = take_snapshot(sandbox, tmp_path, 2, 20.0, previous=first)
    weights = "code/model/weights.bin"
    assert os.path.samefile(first.folder / weights, second.folder / weights)
    assert not os.path.samefile(first.folder / "code/train.py", second.folder / "code/train.py")
    assert second.info.linked_bytes >= 2 * MB > second.info.new_bytes
    assert [s.info.number for s in snapshots_of(tmp_path)] == [1, 2]
    assert latest_snapshot(tmp_path) == second


def test_hostile_files_are_left_behind_within_the_cap(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    plant(sandbox, WRITE, paths.submission, paths.logs, paths.code, paths.agent)
    plant(sandbox, HOSTILE, paths.logs, paths.code)

    snapshot = take_snapshot(sandbox, tmp_path, 1, 1.0, cap_bytes=3 * MB)

    folder = snapshot.folder
    assert not (folder / "logs" / "passwd").exists() and not (folder / "code" / "root").exists()
    assert not (folder / "logs" / "pipe").exists()
    assert not (folder / "logs" / "huge.bin").exists()
    assert (folder / "code" / "odd name\nwith 'quotes' and \u00e9").read_text() == "odd\n"
    assert snapshot.info.copied_bytes <= 3 * MB
    stored = sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file())
    assert stored <= 3 * MB + 64 * 1024  # the two JSON files beside what was copied
    written = json.loads((folder / "snapshot.json").read_text())
    whys = " ".join(entry["why"] for entry in written["omitted"])
    assert written["omitted_count"] >= 2 and "link" in whys


def test_a_snapshot_over_its_cap_stops_and_says_so(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    plant(sandbox, WRITE, paths.submission, paths.logs, paths.code, paths.agent)

    snapshot = take_snapshot(sandbox, tmp_path, 1, 1.0, cap_bytes=MB)

    assert snapshot.info.capped is not None
    assert snapshot.info.copied_bytes <= MB
    assert not (snapshot.folder / "code" / "model" / "weights.bin").exists()


def test_restored_files_belong_to_the_agent(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    first = sandbox_factory()
    paths = first.paths
    plant(first, WRITE, paths.submission, paths.logs, paths.code, paths.agent)
    snapshot = take_snapshot(first, tmp_path, 1, 1.0)

    fresh = sandbox_factory()
    restored = restore_snapshot(fresh, snapshot.folder)

    assert restored == ["submission.csv", "code", "logs", "agent"]
    check = "open(__import__('sys').argv[1], 'a').write('print(3)\\n')"
    plant(fresh, check, fresh.paths.code + "/train.py")  # the agent can go on writing it


class BrokenCopy:
    """A fake sandbox whose copy-out fails, as an engine that went away mid-run does."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.paths = sandbox.paths

    def copy_out(self, *args: object, **kwargs: object) -> bool:
        raise OSError("the engine went away")


def test_a_failed_snapshot_is_recorded_and_the_run_goes_on(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    broken = BrokenCopy(sandbox)
    snapshotter = Snapshotter(
        broken,  # type: ignore[arg-type]
        tmp_path,
        CheckpointPlan(interval=3600),
        max_submission=MB,
    )
    with snapshotter:
        assert snapshotter.snapshot_now() is None
    log = json.loads((tmp_path / "checkpoints" / "log.json").read_text())
    assert log == [{"number": 1, "error": "OSError: the engine went away"}]
    assert latest_snapshot(tmp_path) is None
    assert list((tmp_path / "checkpoints").glob("0001.partial"))  # never taken for whole


def test_the_snapshotter_takes_snapshots_while_the_agent_runs(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    taken = threading.Event()
    published: list[int] = []

    def publish(snapshot: object) -> None:
        published.append(snapshot.info.number)  # type: ignore[attr-defined]
        if len(published) >= 2:
            taken.set()

    plan = CheckpointPlan(interval=0.2, time_used_before=100.0)
    with Snapshotter(sandbox, tmp_path, plan, max_submission=MB, publish=publish):
        assert taken.wait(60)
    assert published[:2] == [1, 2]
    first = snapshots_of(tmp_path)[0]
    assert first.info.time_used >= 100.0  # the time of the attempts it resumed from counts


def test_an_engineering_runs_workspace_is_snapshotted_and_restored(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    first = sandbox_factory(workspace=True)
    work = first.paths.work
    plant(first, "open(__import__('sys').argv[1] + '/fix.py', 'w').write('fixed\\n')", work)
    snapshot = take_snapshot(first, tmp_path, 1, 1.0)
    assert (snapshot.folder / "workspace" / "fix.py").read_text() == "fixed\n"

    fresh = sandbox_factory(workspace=True)
    assert "workspace" in restore_snapshot(fresh, snapshot.folder)
    read = fresh.exec(["cat", f"{fresh.paths.work}/fix.py"], timeout=60)
    assert read.exit_code == 0 and "fixed" in read.output_tail
