"""Former home of the engineering run; kept as an alias while other branches move to :mod:`.run`.

Remove this module once nothing imports it.
"""

from __future__ import annotations

from pytest_mlebench.run.engineering import EngineeringRun

__all__ = ["EngineeringRun"]
