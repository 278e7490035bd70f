"""The running account of one run's LLM calls: tokens, cost, budget, and the record's summary.

Thread-safe: the gateway serves calls concurrently. A call is checked against the budget before
it goes upstream (:meth:`Ledger.refusal`); a call that starts under the budget runs to its end, so
the total may pass the budget by at most the calls in flight when it was reached. A call that
failed (an error status from the provider, or a provider the gateway could not reach: 502) counts
as a call and a failed call, and the record's messages say how many failed with which status.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any

from pytest_mlebench.gateway.config import Budget
from pytest_mlebench.gateway.prices import PriceTable
from pytest_mlebench.gateway.usage import Usage


@dataclass
class ModelTotals:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0

    def add(self, usage: Usage, cost: float | None) -> None:
        self.calls += 1
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        self.cost_usd = None if cost is None or self.cost_usd is None else self.cost_usd + cost


@dataclass
class Ledger:
    """Totals of a run's calls and its budget (see the module docstring)."""

    prices: PriceTable
    budget: Budget = field(default_factory=Budget)
    calls: int = 0
    failed_calls: int = 0
    refused_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    priced_cost_usd: float = 0.0
    unpriced_models: set[str] = field(default_factory=set)
    models: dict[str, ModelTotals] = field(default_factory=dict)
    failed_statuses: dict[int, int] = field(default_factory=dict)
    truncated_calls: int = 0
    invalid_bridged_calls: int = 0
    budget_exhausted: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """The totals without the lock: a run's ledger travels to a Ray node and back."""
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def refusal(self, model: str | None) -> tuple[str, str] | None:
        """Why a call to ``model`` may not go upstream now (error type, message), or ``None``."""
        with self._lock:
            spent = self._spent_text()
            if spent is not None:
                self.budget_exhausted = True
                self.refused_calls += 1
                return "budget_exhausted", f"the run's LLM budget is spent ({spent})"
            if self.budget.cost_usd is not None and self.prices.price_of(model) is None:
                self.refused_calls += 1
                return "unpriced_model", (
                    f"model {model!r} is not in the price table, so the run's cost budget cannot "
                    "be kept; add it with --mle-price-table FILE (docs/agents.md)"
                )
        return None

    def charge(self, usage: Usage, model: str | None, status: int) -> float | None:
        """Book one answered call; returns its cost (``None`` when its model has no price)."""
        name = usage.model or model or "unknown"
        cost = self.prices.cost(name, usage.input_tokens, usage.output_tokens)
        if cost is None and (usage.input_tokens or usage.output_tokens):
            cost = self.prices.cost(model, usage.input_tokens, usage.output_tokens)
        unpriced = cost is None and (usage.input_tokens > 0 or usage.output_tokens > 0)
        with self._lock:
            self.calls += 1
            self.truncated_calls += int(usage.truncated)
            if status >= 400:
                self.failed_calls += 1
                self.failed_statuses[status] = self.failed_statuses.get(status, 0) + 1
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            self.priced_cost_usd += cost or 0.0
            if unpriced:
                self.unpriced_models.add(name)
            self.models.setdefault(name, ModelTotals()).add(usage, cost if not unpriced else None)
            self.budget_exhausted = self.budget_exhausted or self._spent_text() is not None
        return None if unpriced else (cost or 0.0)

    def note_invalid_bridge(self) -> None:
        """Count a bridged forced call whose answer could not be the call (the agent got 502)."""
        with self._lock:
            self.invalid_bridged_calls += 1

    def _spent_text(self) -> str | None:
        tokens, dollars = self.budget.tokens, self.budget.cost_usd
        if tokens is not None and self.total_tokens >= tokens:
            return f"{self.total_tokens} of {tokens} tokens"
        if dollars is not None and self.priced_cost_usd >= dollars:
            return f"${self.priced_cost_usd:.4f} of ${dollars:.4f}"
        return None

    def summary(self, transcript: str | None) -> dict[str, Any]:
        """What the run record keeps (``cost_usd`` is ``None`` when a model had no price)."""
        with self._lock:
            messages = [
                f"model {name!r} is not in the price table: its cost is unknown (add it with "
                "--mle-price-table FILE)"
                for name in sorted(self.unpriced_models)
            ]
            if self.failed_calls:
                statuses = ", ".join(
                    f"HTTP {status} x{count}"
                    for status, count in sorted(self.failed_statuses.items())
                )
                messages.append(
                    f"{self.failed_calls} LLM call(s) failed ({statuses}); the agent got each "
                    f"error with its status, and {transcript or 'the transcript'} in the run "
                    "folder has the provider's message"
                )
            messages += self._answer_messages(transcript)
            return {
                "calls": self.calls,
                "failed_calls": self.failed_calls,
                "refused_calls": self.refused_calls,
                "truncated_calls": self.truncated_calls,
                "invalid_bridged_calls": self.invalid_bridged_calls,
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "total_tokens": self.total_tokens,
                "cost_usd": None if self.unpriced_models else _rounded(self.priced_cost_usd),
                "unpriced_models": sorted(self.unpriced_models),
                "models": {
                    name: {
                        "calls": totals.calls,
                        "input_tokens": totals.input_tokens,
                        "output_tokens": totals.output_tokens,
                        "cost_usd": _rounded(totals.cost_usd),
                    }
                    for name, totals in sorted(self.models.items())
                },
                "budget": {"tokens": self.budget.tokens, "cost_usd": self.budget.cost_usd},
                "budget_exhausted": self.budget_exhausted,
                "transcript": transcript,
                "messages": messages,
            }

    def _answer_messages(self, transcript: str | None) -> list[str]:
        """What the record says of cut answers and unusable bridged calls (lock held)."""
        messages = []
        if self.truncated_calls:
            messages.append(
                f"{self.truncated_calls} answer(s) were cut at the answer cap (finish_reason: "
                "length); raise the cap (the agent's max_tokens, or mlebench model serve "
                "--max-tokens for a local server)"
            )
        if self.invalid_bridged_calls:
            messages.append(
                f"{self.invalid_bridged_calls} forced tool call(s) bridged for the upstream came "
                "back cut or not JSON; the agent got HTTP 502 bridged_call_invalid for each "
                f"({transcript or 'the transcript'} has the upstream's answer)"
            )
        return messages


def _rounded(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 8)
