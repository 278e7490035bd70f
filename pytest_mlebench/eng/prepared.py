"""An engineering task prepared once per task × seed: the seed's workspace, private files and env.

:func:`prepare_task` copies the task's ``workspace/`` to
``<data dir>/engineering/<task>/s<seed>/workspace`` and calls the task's
``prepare(workspace, private, seed)`` on that copy; it edits the workspace in place, writes hidden
expectations to ``private/`` beside it and returns extra environment variables, kept in
``env.json``. A file lock makes it happen once across xdist workers; a digest of the task's
``workspace/`` and ``prepare.py`` in ``prepared.json`` makes an edited task prepare again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from filelock import FileLock

from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.errors import PrepareError

LOCK_TIMEOUT_SECONDS = 3600
MARKER = "prepared.json"
PrepareFunction = Callable[[Path, Path, int], Mapping[str, str] | None]


@dataclass(frozen=True)
class PreparedTask:
    """The prepared folders of one task × seed.

    Attributes:
        workspace: The seed's starting workspace (the pristine copy; runs copy it again).
        private: The seed's hidden files (only the verifier sees them).
        public: An empty folder: the sandbox's ``/home/data`` (a task has no competition data).
        env: What ``prepare()`` returned (``{WORK_DIR}`` not yet substituted).
    """

    workspace: Path
    private: Path
    public: Path
    env: Mapping[str, str]


def prepared_folder(task: EngTask, seed: int, data_dir: Path) -> Path:
    return data_dir / "engineering" / task.id / f"s{seed}"


def task_digest(task: EngTask) -> str:
    """A digest of what preparing reads: ``prepare.py`` and every file of ``workspace/``."""
    digest = hashlib.sha256(task.prepare_path.read_bytes())
    for path in sorted(task.workspace.rglob("*")):
        if path.is_file() and not path.is_symlink():
            digest.update(str(path.relative_to(task.workspace)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def prepare_task(task: EngTask, seed: int, data_dir: Path) -> PreparedTask:
    """The prepared task × seed, made now unless already made from the same task files."""
    folder = prepared_folder(task, seed, data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    paths = PreparedTask(folder / "workspace", folder / "private", folder / "public", {})
    with FileLock(str(folder / ".prepare.lock"), timeout=LOCK_TIMEOUT_SECONDS):
        digest = task_digest(task)
        marker = _read_marker(folder / MARKER)
        if marker.get("digest") == digest and paths.workspace.is_dir():
            return _with_env(paths, marker)
        for stale in (paths.workspace, paths.private, paths.public):
            shutil.rmtree(stale, ignore_errors=True)
        shutil.copytree(task.workspace, paths.workspace, symlinks=True)
        paths.private.mkdir()
        paths.public.mkdir()
        started = time.monotonic()
        env = _call_prepare(task, paths, seed)
        marker = {
            "digest": digest,
            "seed": seed,
            "env": env,
            "seconds": round(time.monotonic() - started, 3),
        }
        (folder / MARKER).write_text(json.dumps(marker, indent=1), "utf-8")
        (folder / "env.json").write_text(json.dumps(env, indent=1), "utf-8")
    return _with_env(paths, marker)


def _read_marker(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _with_env(paths: PreparedTask, marker: Mapping[str, Any]) -> PreparedTask:
    env = {str(key): str(value) for key, value in (marker.get("env") or {}).items()}
    return PreparedTask(paths.workspace, paths.private, paths.public, env)


def _call_prepare(task: EngTask, paths: PreparedTask, seed: int) -> dict[str, str]:
    prepare = load_task_prepare(task)
    try:
        env = prepare(paths.workspace, paths.private, seed)
    except Exception as exc:
        raise PrepareError(f"{task.prepare_path}: prepare() failed: {exc!r}") from exc
    if env is None:
        return {}
    if not isinstance(env, Mapping):
        raise PrepareError(f"{task.prepare_path}: prepare() must return a dict of env values")
    values = {str(key): str(value) for key, value in env.items()}
    undeclared = sorted(set(values) - set(task.env))
    if undeclared:
        raise PrepareError(
            f"{task.prepare_path}: prepare() returned {', '.join(undeclared)}, which "
            f"{task.folder / 'config.yaml'} does not list under env:"
        )
    return values


def load_task_prepare(task: EngTask) -> PrepareFunction:
    """The task's ``prepare`` function; :class:`PrepareError` naming the file otherwise."""
    path = task.prepare_path
    spec = importlib.util.spec_from_file_location(
        f"mlebench_eng_prepare_{task.id.replace('-', '_')}", path
    )
    if spec is None or spec.loader is None:
        raise PrepareError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise PrepareError(f"{path}: failed to import: {exc!r}") from exc
    prepare = getattr(module, "prepare", None)
    if not callable(prepare):
        raise PrepareError(f"{path}: defines no prepare(workspace, private, seed) function")
    return cast(PrepareFunction, prepare)
