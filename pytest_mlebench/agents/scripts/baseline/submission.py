"""Handing in: write the submission, ask the sandbox's validator about it, or fall back to the
sample submission so a valid file is always left behind."""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pandas as pd

from .contract import Env

LOG = logging.getLogger("baseline")
VALIDATOR_TIMEOUT = 300


def hand_in(env: Env, submission: pd.DataFrame, output: Path) -> None:
    """Write ``submission`` to ``output``; raise when the validator rejects it."""
    submission.to_csv(output, index=False)
    LOG.info("wrote %s (%d rows) after %.0f s", output, len(submission), env.elapsed())
    if not validate(env, output):
        raise RuntimeError("the validator rejected the submission")


def hand_in_sample(env: Env, output: Path) -> None:
    """Copy the sample submission to ``output`` and let the validator see it."""
    shutil.copyfile(env.data / "sample_submission.csv", output)
    validate(env, output)


def validate(env: Env, path: Path) -> bool:
    """Ask the sandbox's validator; True when it says valid (or when there is none)."""
    if not env.validator:
        return True
    for command in ([env.validator, str(path)], ["sh", env.validator, str(path)]):
        try:
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=VALIDATOR_TIMEOUT
            )
        except OSError:
            continue
        LOG.info("validator: %s", (result.stdout or result.stderr).strip()[:500])
        return result.returncode == 0
    LOG.warning("could not run the validator %s", env.validator)
    return True
