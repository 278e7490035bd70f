"""The place of the optional LLM judge (``--mle-judge MODEL``); off by default.

The judge will ask a model, through the LLM gateway (``pytest_mlebench.gateway``), the original
benchmark's questions about a run's code and logs (hand-labelled predictions, an LLM called to
make predictions, unauthorised access), and record its prompt, answer and cost as a flag. The
gateway exists, but the judge's questions are not written yet: asking for a judge is a usage
error that says so, rather than a check that silently does nothing.
"""

from __future__ import annotations

import re
from typing import Any

MODEL_NAME = re.compile(r"[A-Za-z0-9._:/@-]+")


def judge_available() -> bool:
    """Whether this release can run the judge: not yet (its questions are not written)."""
    return False


def judge_model(value: Any) -> str | None:
    """The ``--mle-judge`` setting: unset means no judge; a model needs the gateway."""
    if value is None or not str(value).strip():
        return None
    if not MODEL_NAME.fullmatch(str(value).strip()):
        raise ValueError("expected a model name such as provider/model (no spaces)")
    if not judge_available():
        raise ValueError(
            "the LLM judge is not part of this release yet (its questions are not wired to the "
            "LLM gateway); leave --mle-judge unset (every other integrity check runs without it)"
        )
    return str(value).strip()
