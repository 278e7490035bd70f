"""``python -m pytest_mlebench.cli``: the ``mlebench`` command."""

from __future__ import annotations

import sys

from pytest_mlebench.cli import main

sys.exit(main())
