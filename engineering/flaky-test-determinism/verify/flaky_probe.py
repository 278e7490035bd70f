"""The verifier's probe inside one run of the agent's suite (``python3 -m pytest -p flaky_probe``).

It is copied next to the run, never into the workspace. With ``FLAKY_ORDER_SEED`` it shuffles
the collected tests last (an outer hook wrapper, after every other plugin and conftest had its
say) and records the order it asked for and the order the tests really ran in, so a suite that
puts its own order back is seen. It writes every test's outcome to ``FLAKY_REPORT``. With
``FLAKY_MUTANT`` it first plants one bug in datakit, so that a suite whose assertions were
weakened is seen to miss it.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

_ORDER: list[str] = []
_RAN: list[str] = []
_OUTCOMES: dict[str, str] = {}
_DURATION = [0.0]


def _tie_reversed(texts: list[str], k: int) -> list[str]:
    """top_tokens with ties in reverse alphabetical order (the documented order, inverted)."""
    from datakit.vocab import tokenize

    counts = Counter(token for text in texts for token in tokenize(text))
    ranked = sorted(counts, reverse=True)
    return sorted(ranked, key=lambda token: -counts[token])[:k]


def _plant(mutant: str) -> None:
    """Replace one datakit function with a subtly wrong one, before any test module imports
    it."""
    from datakit import pipeline, registry, sampling, vocab

    if mutant == "bootstrap":
        original = sampling.bootstrap_means

        def shifted(values: list[float], *args: Any, **kwargs: Any) -> list[float]:
            offset = max(values) - min(values) + 1.0
            return [m + offset for m in original(values, *args, **kwargs)]

        sampling.bootstrap_means = shifted
    elif mutant == "ties":
        vocab.top_tokens = _tie_reversed
    elif mutant == "register":
        registry.register = lambda name, function: None
    elif mutant == "transform":
        original_transform = pipeline.transform
        pipeline.transform = lambda text: [i + 1 for i in original_transform(text)]
    else:
        raise pytest.UsageError(f"unknown mutant {mutant!r}")


if os.environ.get("FLAKY_MUTANT"):
    _plant(os.environ["FLAKY_MUTANT"])


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Any:
    yield
    seed = os.environ.get("FLAKY_ORDER_SEED")
    if seed is not None:
        random.Random(int(seed)).shuffle(items)
    _ORDER[:] = [item.nodeid for item in items]


def pytest_runtest_logstart(nodeid: str) -> None:
    _RAN.append(nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _DURATION[0] += report.duration
    state = _OUTCOMES.get(report.nodeid, "passed")
    if report.failed:
        state = "error" if report.when != "call" else "failed"
    elif hasattr(report, "wasxfail"):
        state = "xfailed" if report.skipped else "xpassed"
    elif report.skipped and state == "passed":
        state = "skipped"
    _OUTCOMES[report.nodeid] = state


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(exitstatus: int) -> None:
    target = os.environ.get("FLAKY_REPORT")
    if not target:
        return
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "order": _ORDER,
                "ran": _RAN,
                "outcomes": _OUTCOMES,
                "duration": _DURATION[0],
                "exit": int(exitstatus),
            },
            handle,
        )
