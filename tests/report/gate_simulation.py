"""Simulated sessions for the paired gate: noise only, and a planted regression.

Each simulated agent has a true percentile per competition; a run lands around it with seed
noise, and earns a medal above a fixed percentile. Two sessions of the same agent differ by noise
only; a regressed agent's true percentiles are ``drop`` points lower everywhere.
``python -m tests.report.gate_simulation`` prints the rates quoted in docs/ci.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pytest_mlebench.report.paired import RunPair, paired_verdict

MEDAL_PERCENTILE = 85.0


@dataclass(frozen=True)
class Scenario:
    competitions: int = 12
    seeds: int = 3
    noise: float = 8.0  # standard deviation of a run around its competition's true percentile
    drop: float = 0.0  # planted regression, in percentile points


def _run(rng: random.Random, truth: float, noise: float) -> float:
    return min(100.0, max(0.0, rng.gauss(truth, noise)))


def simulate_pairs(scenario: Scenario, rng: random.Random) -> list[RunPair]:
    pairs = []
    for index in range(scenario.competitions):
        truth = rng.uniform(30.0, 95.0)
        for seed in range(scenario.seeds):
            base = _run(rng, truth, scenario.noise)
            new = _run(rng, truth - scenario.drop, scenario.noise)
            pairs.append(
                RunPair(
                    f"c{index}", seed, base, new, base >= MEDAL_PERCENTILE, new >= MEDAL_PERCENTILE
                )
            )
    return pairs


def regression_rate(scenario: Scenario, trials: int, seed: int, alpha: float = 0.05) -> float:
    """Share of trials in which the paired gate calls a regression."""
    rng = random.Random(seed)
    flagged = 0
    for trial in range(trials):
        result = paired_verdict(
            simulate_pairs(scenario, rng), alpha=alpha, resamples=1000, seed=trial
        )
        flagged += result.verdict == "regression"
    return flagged / trials


if __name__ == "__main__":
    for drop in (0.0, 5.0, 10.0):
        scenario = Scenario(drop=drop)
        rate = regression_rate(scenario, trials=1000, seed=1)
        print(f"{scenario}: regression called in {rate:.1%} of 1000 trials")
