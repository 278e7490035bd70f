"""The verifier of an engineering run: hidden tests over a copy of the agent's workspace, run
where no agent process can reach them, their results read back by the harness.

The verifier runs ``python3 -m pytest -p mlebench_verify`` in ``verify/`` with the folders
of :class:`VerifierJob`: in a fresh container of the verifier image (Docker,
:mod:`~pytest_mlebench.sandbox.docker.verifier_container`: ``--network none``, the task's
limits, ``/verify``, ``/private`` and ``/pristine`` read-only, ``/work`` a copy, ``/out`` inside
the container, read with the engine's copy API after it exited), or in a fresh temp tree and a
fresh process on this machine (:func:`run_local_verifier`: weaker isolation, the same
folders). Either way the workspace copy first gets back every file the pristine workspace has
under ``tests/`` (edited visible tests do not count).

Two outcomes besides results (:mod:`.verifier_results`): a verifier that could not run — its
container did not start, the engine failed, its interpreter is missing — raises
:class:`VerifierError`, an infrastructure error never charged to the agent; a verifier that ran
but whose results cannot be trusted — killed, broken (pytest 2–5), past its time limit, results
without this run's seal — raises :class:`VerifierRejected`: the run *failed*.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.interface import ResourceGrant
from pytest_mlebench.sandbox.process import run_process_tree
from pytest_mlebench.sandbox.verifier_results import (
    RESULTS_NAME,
    accept_results,
    new_key,
    time_out,
)

PLUGIN_DIR = Path(__file__).resolve().parent.parent / "eng" / "verifier"
PLUGIN_NAME = "mlebench_verify"
IMAGE_PLUGIN_DIR = "/opt/mlebench-verify"
LOG_NAME = "verify.log"
KEY_FD_ENV = "MLEBENCH_VERIFY_KEY_FD"  # local backend: the pipe the plugin reads the key from
PYTEST_ARGS = ("-m", "pytest", "-p", PLUGIN_NAME, "-p", "no:cacheprovider", "-q")
PASS_THROUGH_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


class VerifierError(SandboxError):
    """The verifier itself broke (infrastructure): the run's outcome is ``error``."""


@dataclass(frozen=True)
class VerifierJob:
    """One verifier run.

    Attributes:
        task_id: The task (``TASK_ID``).
        seed: The run's seed (``MLEBENCH_SEED``).
        verify_dir: The task's hidden ``verify/``.
        private_dir: The seed's private files.
        pristine_dir: The workspace as the agent received it.
        work_dir: The agent's workspace as copied out after the agent stopped.
        env: The values ``prepare()`` returned (``{WORK_DIR}`` is substituted here).
        time_limit: Seconds the verifier may run.
        resources: Its CPU and memory limits (Docker).
        log_path: Where the verifier's output is kept (host side).
        start_time_ns: The agent phase's start (``START_TIME_NS``).
        image: The verifier image (Docker).
        labels: Labels of the verifier container (Docker: the cleanup's ownership labels).
        build_dir: The facts of the task's verify-side image builds (``$BUILD_DIR``, read-only;
            ``None``: the task builds no image).
    """

    task_id: str
    seed: int
    verify_dir: Path
    private_dir: Path
    pristine_dir: Path
    work_dir: Path
    env: Mapping[str, str]
    time_limit: float
    log_path: Path
    start_time_ns: int = 0
    resources: ResourceGrant = field(default_factory=ResourceGrant)
    image: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    build_dir: Path | None = None


@dataclass(frozen=True)
class VerifierResult:
    """What the verifier reported: the ``checks.json`` document and the run's facts."""

    document: dict[str, Any]
    exit_status: int
    wall_s: float
    image: str | None
    log: str

    def facts(self) -> dict[str, Any]:
        """The record's ``verifier`` entry."""
        return {
            "wall_s": round(self.wall_s, 3),
            "exit_status": self.exit_status,
            "image": self.image,
            "log": self.log,
        }


def verifier_env(job: VerifierJob, paths: Mapping[str, str]) -> dict[str, str]:
    """The verifier's environment for folders at ``paths`` (``work``, ``private``, …)."""
    work = paths["work"]
    build = {"BUILD_DIR": paths["build"]} if job.build_dir is not None else {}
    return {
        **build,
        **{key: value.replace("{WORK_DIR}", work) for key, value in job.env.items()},
        "WORK_DIR": work,
        "PRIVATE_DIR": paths["private"],
        "PRISTINE_DIR": paths["pristine"],
        "VERIFY_OUT": paths["out"],
        "MLEBENCH_SEED": str(job.seed),
        "TASK_ID": job.task_id,
        "START_TIME_NS": str(job.start_time_ns),
        "VERIFY_TIME_LIMIT": str(int(job.time_limit)),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }


def stage_workspace(agent_work: Path, pristine: Path, target: Path) -> None:
    """``target``: a copy of the agent's workspace with the pristine ``tests/`` files put back."""
    if agent_work.is_dir():
        shutil.copytree(agent_work, target, symlinks=True)
    else:
        target.mkdir(parents=True)
    visible = pristine / "tests"
    if not visible.is_dir():
        return
    for source in sorted(visible.rglob("*")):
        if source.is_dir() or source.is_symlink():
            continue
        relative = source.relative_to(pristine)
        folder = target
        for part in relative.parts[:-1]:  # never follow a link the agent planted on the way
            folder = folder / part
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                folder.unlink()
            folder.mkdir(exist_ok=True)
        destination = folder / relative.name
        if destination.is_symlink() or destination.is_file():
            destination.unlink()
        elif destination.is_dir():
            shutil.rmtree(destination)
        shutil.copy2(source, destination)


def run_local_verifier(job: VerifierJob) -> VerifierResult:
    """The verifier in a fresh temp tree and a fresh process of this machine's Python; its key
    goes through a pipe that the plugin drains and closes before the first test runs."""
    root = Path(tempfile.mkdtemp(prefix=f"mlebench-verify-{job.task_id[:20]}-"))
    key_read: int | None = None
    try:
        paths = {name: root / name for name in ("verify", "private", "pristine", "work", "out")}
        shutil.copytree(job.verify_dir, paths["verify"])
        shutil.copytree(job.private_dir, paths["private"])
        shutil.copytree(job.pristine_dir, paths["pristine"], symlinks=True)
        if job.build_dir is not None:
            paths["build"] = root / "build"
            shutil.copytree(job.build_dir, paths["build"], symlinks=True)
        stage_workspace(job.work_dir, job.pristine_dir, paths["work"])
        paths["out"].mkdir()
        key = new_key()
        key_read = key_pipe(key)
        env = {key: os.environ[key] for key in PASS_THROUGH_ENV if key in os.environ}
        env.update(verifier_env(job, {name: str(path) for name, path in paths.items()}))
        env["HOME"] = str(root)
        env["PYTHONPATH"] = str(PLUGIN_DIR)
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # not our own plugin, nor any other
        env[KEY_FD_ENV] = str(key_read)
        started = time.monotonic()
        result = run_process_tree(
            [sys.executable, *PYTEST_ARGS],
            cwd=paths["verify"],
            env=env,
            timeout=job.time_limit,
            log_path=job.log_path,
            pass_fds=(key_read,),
        )
        wall = time.monotonic() - started
        status = result.exit_code if result.exit_code is not None else -1
        if result.timed_out:
            raise time_out(job.time_limit, None, wall)
        if status == 127 and result.output_tail.startswith("cannot start"):
            raise VerifierError(f"the verifier {result.output_tail}")
        results = paths["out"] / RESULTS_NAME
        text = results.read_text("utf-8") if results.is_file() else None
        document = accept_results(text, status, key, f"log: {job.log_path}", wall)
        return VerifierResult(document, status, wall, None, str(job.log_path))
    except OSError as exc:  # the temp tree could not be made: this machine's fault
        raise VerifierError(f"the local verifier could not be set up: {exc}") from exc
    finally:
        if key_read is not None:
            os.close(key_read)
        shutil.rmtree(root, ignore_errors=True)


def key_pipe(key: bytes) -> int:
    """The read end of a pipe that holds ``key`` (hex) and nothing else: the writer is closed,
    so the reader sees the key, then the end of the pipe."""
    read, write = os.pipe()
    try:
        os.write(write, key.hex().encode())
    finally:
        os.close(write)
    return read
