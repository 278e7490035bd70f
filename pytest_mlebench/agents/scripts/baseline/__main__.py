#!/usr/bin/env python3
"""Start the baseline agent: ``python3 path/to/baseline`` (the folder itself) runs this file.

The harness copies the whole folder into the sandbox's agent folder and runs it with the sandbox's
Python. That puts the folder first on ``sys.path``; its parent takes that place instead, so the
folder is imported as one package whose modules import each other relatively, and no module name of
the folder (``text``, ``series``, ...) can shadow an installed library's.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

# OpenMP threads sleep instead of spinning while they wait: on a machine whose cores are shared
# (the local sandbox), spinning threads can slow gradient boosting down many times over. Set before
# numpy and scikit-learn are imported, which read it once.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if __name__ == "__main__":
    package = Path(__file__).resolve().parent
    sys.path[0] = str(package.parent)
    sys.exit(importlib.import_module(f"{package.name}.entry").main())
