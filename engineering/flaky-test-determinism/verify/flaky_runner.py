"""Several pytest sessions of the agent's suite in one process: one per order seed.

``python3 flaky_runner.py '[[ORDER_SEED, REPORT_PATH], ...]'`` from the workspace root. The hash
seed is the process's (``PYTHONHASHSEED``); each session gets its own test order. Every module a
session imported (datakit, the suite, the probe) is dropped before the next one, so each starts
from what a fresh ``python3 -m pytest`` would have: the sessions share the interpreter's start-up
cost, not state.
"""

from __future__ import annotations

import json
import os
import sys

import pytest


def main() -> int:
    # the workspace as `python3 -m pytest` run from its root has it, but after this runner's own
    # folder: a flaky_probe.py planted in the workspace cannot stand in for the verifier's probe
    sys.path.insert(1, os.getcwd())
    for order_seed, report in json.loads(sys.argv[1]):
        before = set(sys.modules)
        os.environ["FLAKY_ORDER_SEED"] = str(order_seed)
        os.environ["FLAKY_REPORT"] = report
        pytest.main(["-p", "flaky_probe", "-p", "no:cacheprovider", "-q"])
        for name in set(sys.modules) - before:
            del sys.modules[name]
    return 0


if __name__ == "__main__":
    sys.exit(main())
