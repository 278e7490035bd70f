"""``--mle-max-cost-increase``: how much the mean LLM cost per run may rise over the baseline.

Either a fraction of the baseline's cost (``0.2`` or ``20%``) or dollars per run (``$0.05``);
the cost check of the gate (:mod:`pytest_mlebench.report.cost`) applies it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

COST_LIMIT_HELP = (
    "expected a fraction of the baseline's cost such as 0.2 (or 20%), or a dollar amount per run "
    "such as $0.05"
)


@dataclass(frozen=True)
class CostLimit:
    """How much the mean LLM cost per run may rise: a fraction of the baseline's, or dollars."""

    amount: float
    unit: Literal["fraction", "dollars"]

    def ceiling(self, base: float) -> float:
        """The highest mean cost per run that passes against a baseline of ``base``."""
        return base * (1 + self.amount) if self.unit == "fraction" else base + self.amount

    def text(self) -> str:
        """``+20 %`` or ``+$0.0500 per run``."""
        if self.unit == "fraction":
            return f"+{100 * self.amount:g} %"
        return f"+${self.amount:.4f} per run"


def cost_limit(value: object) -> CostLimit:
    """``0.2`` or ``20%`` (a fraction of the baseline's cost), ``$0.05`` (dollars per run)."""
    text = str(value).strip()
    unit: Literal["fraction", "dollars"] = "dollars" if text.startswith("$") else "fraction"
    number = text.removeprefix("$").removesuffix("%").strip()
    try:
        amount = float(number)
    except ValueError:
        raise ValueError(COST_LIMIT_HELP) from None
    if not math.isfinite(amount) or amount < 0 or (unit == "dollars" and text.endswith("%")):
        raise ValueError(COST_LIMIT_HELP)
    return CostLimit(amount / 100 if text.endswith("%") else amount, unit)
