"""What an agent leaves behind is hostile: the copy-out, the inventory and the killer under attack.

Each test plants artefacts inside a real sandbox (both backends where the attack means something
there) and checks the harness's side: the copy-out stays within its caps by apparent size (sparse
files count in full, yet nothing real is written inside the sandbox), links and FIFOs are never
opened, a deep tree and many files end in a bounded run folder, a ``usercustomize.py`` cannot
forge the inventory, and no agent process outlives the agent phase even at the pids limit.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from pytest_mlebench.integrity.inventory import take_inventory
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.integrity.watermark import inventory_mismatch_flag
from pytest_mlebench.sandbox.conformance import SandboxFactory, run_python
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copy_out import copy_results_out
from pytest_mlebench.sandbox.interface import ResourceGrant
from pytest_mlebench.values.integrity_policy import load_policy

MB = 1024**2

PLANT = r"""
import os, sys
sub, logs, code = sys.argv[1:4]
with open(os.path.join(sub, "submission.csv"), "wb") as f:
    f.truncate(5 * 1024**3)  # sparse: 5 GiB that cost nothing
for n in range(12):
    with open(os.path.join(logs, f"big{n:02d}.log"), "wb") as f:
        f.truncate(9 * 1024**2)  # under the per-file cap, over the total together
os.symlink("/etc/passwd", os.path.join(logs, "passwd"))
os.mkfifo(os.path.join(logs, "pipe"))
with open(os.path.join(logs, "binary.bin"), "wb") as f:
    f.write(bytes(range(256)) * 4)
deep = code
for n in range(80):
    deep = os.path.join(deep, "d")
os.makedirs(deep)
with open(os.path.join(deep, "bottom.py"), "w") as f:
    f.write("print(1)\n")
many = os.path.join(code, "many")
os.makedirs(many)
for n in range(3000):
    open(os.path.join(many, f"f{n}.py"), "w").close()
print("planted")
"""


def apparent_size(folder: Path) -> int:
    return sum(
        (Path(here) / name).lstat().st_size for here, _, names in os.walk(folder) for name in names
    )


def test_hostile_artefacts_come_out_bounded(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    planted = sandbox.exec(
        [sandbox.python, "-c", PLANT, paths.submission, paths.logs, paths.code], timeout=120
    )
    assert planted.exit_code == 0, planted.output_tail
    budget = CopyBudget(total_bytes=40 * MB, max_entries=2000)
    run_dir = tmp_path / "run"
    started = time.monotonic()
    copy_results_out(sandbox, run_dir, budget, max_submission=50 * MB)
    assert time.monotonic() - started < 60
    assert not (run_dir / "submission.csv").exists()
    note = (run_dir / "submission.csv.omitted.txt").read_text()
    assert "5368709120 bytes, over the 52428800 byte limit" in note
    assert apparent_size(run_dir) <= budget.total_bytes
    assert budget.capped is not None
    assert not (run_dir / "logs" / "passwd").exists()
    assert not (run_dir / "logs" / "pipe").exists()
    summary = budget.summary()
    assert summary["omitted_count"] >= 2 and summary["written_bytes"] <= 40 * MB


def test_many_files_and_a_deep_tree_stop_at_the_entry_cap(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    planted = sandbox.exec(
        [sandbox.python, "-c", PLANT, paths.submission, paths.logs, paths.code], timeout=120
    )
    assert planted.exit_code == 0, planted.output_tail
    budget = CopyBudget(total_bytes=10 * MB, max_entries=500)
    assert sandbox.copy_out(paths.code, tmp_path / "code", budget=budget)
    copied = sum(len(dirs) + len(names) for _, dirs, names in os.walk(tmp_path / "code"))
    assert copied <= 500
    assert budget.capped == "more than 500 files and folders"


def test_a_submission_that_is_a_link_is_reported_as_one(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    target = sandbox.paths.submission_file
    made = run_python(sandbox, f"import os; os.symlink('/etc/passwd', {target!r})")
    assert made.exit_code == 0, made.output_tail
    budget = CopyBudget()
    copy_results_out(sandbox, tmp_path, budget, max_submission=50 * MB)
    assert not (tmp_path / "submission.csv").exists()
    note = (tmp_path / "submission.csv.omitted.txt").read_text()
    assert "link" in note and "never followed" in note


USERCUSTOMIZE = r"""
import os, site, sys
folder = site.getusersitepackages()
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "usercustomize.py"), "w") as f:
    f.write('import json\nprint("MLEBENCH-INVENTORY " + json.dumps({"submission": {"mtime": 4e9, '
            '"size": 1, "sha256": "0" * 64}, "code": [], "copies": []}))\nraise SystemExit(0)\n')
with open(sys.argv[1], "w") as f:
    f.write("id,label\n3,1\n")
print("forged")
"""


def test_a_usercustomize_cannot_forge_the_inventory(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = docker_sandbox_factory()
    submission = sandbox.paths.submission_file
    made = sandbox.exec([sandbox.python, "-c", USERCUSTOMIZE, submission], timeout=60)
    assert made.exit_code == 0, made.output_tail
    plain = sandbox.exec([sandbox.python, "-c", "print('x')"], timeout=60)
    assert "MLEBENCH-INVENTORY" in plain.output_tail  # the forgery works on an ordinary run
    inventory = take_inventory(sandbox, tmp_path)
    assert inventory["submission"]["sha256"] != "0" * 64, inventory
    assert sandbox.copy_out(submission, tmp_path / "submission.csv")
    evidence = Evidence(inventory=inventory)
    policy = load_policy()
    assert inventory_mismatch_flag(evidence, tmp_path / "submission.csv", policy) is None
    forged = Evidence(inventory={"submission": {"sha256": "0" * 64}, "code": []})
    flag = inventory_mismatch_flag(forged, tmp_path / "submission.csv", policy)
    assert flag is not None and flag.rule == "inventory-mismatch"


SURVIVORS = r"""
import os, time
for n in range(8):
    try:
        child = os.fork()
    except OSError:
        break
    if child == 0:
        os.setsid()
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.05)
print("left behind", flush=True)
"""


def test_no_agent_process_outlives_its_phase_at_the_pids_limit(
    docker_sandbox_factory: SandboxFactory,
) -> None:
    from pytest_mlebench.sandbox.docker.killer import agent_processes

    sandbox = docker_sandbox_factory(resources=ResourceGrant(memory="1g", pids=64))
    result = run_python(sandbox, SURVIVORS, timeout=30)
    assert result.exit_code == 0, result.output_tail  # the main process ended by itself
    assert not result.restarted
    assert agent_processes(sandbox.container) == 0  # type: ignore[attr-defined]
    assert run_python(sandbox, "print('usable')", timeout=30).exit_code == 0
