"""Prove a generated task by hand, the way the engine will: prepare, then run the hidden verifier.

``prepare_pristine`` copies ``workspace/`` and calls the task's ``prepare.py``; ``run_verifier``
runs ``verify/`` with the ``mlebench_verify`` plugin in a fresh process (the local backend's way:
``WORK_DIR``, ``PRISTINE_DIR``, ``PRIVATE_DIR``, ``VERIFY_OUT``) and returns check id → result.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest_mlebench.eng.verifier as verifier_package

PLUGIN_DIR = Path(verifier_package.__file__).resolve().parent


def prepare_pristine(task: Path, root: Path) -> Path:
    pristine = root / "pristine"
    shutil.copytree(task / "workspace", pristine, symlinks=True)
    spec = importlib.util.spec_from_file_location("from_pr_prepare", task / "prepare.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (root / "private").mkdir()
    assert module.prepare(pristine, root / "private", 0) == {}
    return pristine


def run_script(task: Path, script: str, work: Path) -> None:
    subprocess.run(["bash", str(task / script)], cwd=work, check=True, capture_output=True)


def run_verifier(task: Path, pristine: Path, work: Path, out: Path) -> dict[str, Any]:
    verify = out.parent / f"{out.name}-verify"
    shutil.copytree(task / "verify", verify)  # read-only in the engine: a copy here
    env = {
        **os.environ,
        "WORK_DIR": str(work),
        "PRISTINE_DIR": str(pristine),
        "PRIVATE_DIR": str(out.parent / "private"),
        "VERIFY_OUT": str(out),
        "MLEBENCH_SEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join([str(PLUGIN_DIR), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "mlebench_verify",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:mlebench",
            "-q",
        ],
        cwd=verify,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    document: dict[str, Any] = json.loads((out / "checks.json").read_text())
    return document
