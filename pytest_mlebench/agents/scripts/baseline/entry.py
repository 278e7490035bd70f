"""One run of the baseline agent from start to hand-in: logging, reading the task, solving it,
handing in (the sample submission when anything fails) and keeping a copy of the code."""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path

from .contract import Env
from .layout import solve
from .submission import hand_in, hand_in_sample
from .task import Unsupported, load_task

LOG = logging.getLogger("baseline")
PACKAGE = Path(__file__).resolve().parent


def main() -> int:
    env = Env.from_environ()
    _setup_logging(env.logs)
    output = env.submission / "submission.csv"
    env.submission.mkdir(parents=True, exist_ok=True)
    try:
        hand_in(env, solve(load_task(env)), output)
    except Unsupported as exc:
        LOG.warning("not supported: %s; writing the sample submission instead", exc)
        hand_in_sample(env, output)
    except Exception:
        LOG.exception("falling back to the sample submission")
        hand_in_sample(env, output)
    _save_code(env)
    return 0


def _setup_logging(logs: Path) -> None:
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stdout)]
    try:
        logs.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(logs / "baseline.log"))
    except OSError:
        pass
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(message)s", handlers=handlers, force=True
    )


def _save_code(env: Env) -> None:
    """Copy the agent's modules to ``$CODE_DIR/baseline/``: the code that made the submission.

    Plain copies, not ``copy2``: the files get the time of this run, as code the agent wrote
    would, instead of the older times of the harness's copy (the integrity watermark flags code
    last modified before the sandbox started).
    """
    if env.code is None:
        return
    try:
        env.code.mkdir(parents=True, exist_ok=True)
        shutil.copytree(
            PACKAGE,
            env.code / "baseline",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            copy_function=shutil.copyfile,
            dirs_exist_ok=True,
        )
    except OSError:
        pass
