"""Simulated sessions for the paired gate: noise only, and a planted regression.

Each simulated agent has a true percentile per competition; a run lands around it with seed
noise, and earns a medal above a fixed percentile. Two sessions of the same agent differ by noise
only; a regressed agent's true percentiles are ``drop`` points lower everywhere, or ``drop_one``
points lower on one competition only (a change that broke one task). ``margin`` is the paired
gate's allowed mean drop (``--mle-max-drop`` in paired mode; ``None`` for the default 0).
``python -m tests.report.gate_simulation`` prints the rates quoted in docs/ci.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pytest_mlebench.report.paired_comparison import RunPair, paired_verdict

MEDAL_PERCENTILE = 85.0


@dataclass(frozen=True)
class Scenario:
    competitions: int = 12
    seeds: int = 3
    noise: float = 8.0  # standard deviation of a run around its competition's true percentile
    drop: float = 0.0  # planted regression, in percentile points
    drop_one: float = 0.0  # planted regression of the first competition only
    margin: float | None = None  # the gate's allowed mean drop (off by default)


def _run(rng: random.Random, truth: float, noise: float) -> float:
    return min(100.0, max(0.0, rng.gauss(truth, noise)))


def simulate_pairs(scenario: Scenario, rng: random.Random) -> list[RunPair]:
    pairs = []
    for index in range(scenario.competitions):
        truth = rng.uniform(30.0, 95.0)
        for seed in range(scenario.seeds):
            base = _run(rng, truth, scenario.noise)
            planted = scenario.drop + (scenario.drop_one if index == 0 else 0.0)
            new = _run(rng, truth - planted, scenario.noise)
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
            simulate_pairs(scenario, rng),
            alpha=alpha,
            margin=scenario.margin,
            resamples=1000,
            seed=trial,
        )
        flagged += result.verdict == "regression"
    return flagged / trials


SCENARIOS = (
    ("noise only", Scenario()),
    ("noise only, --mle-max-drop 2", Scenario(margin=2.0)),
    ("noise only, --mle-max-drop 5", Scenario(margin=5.0)),
    ("5-point drop everywhere", Scenario(drop=5.0)),
    ("10-point drop everywhere", Scenario(drop=10.0)),
    ("20-point drop on one competition", Scenario(drop_one=20.0)),
    ("40-point drop on one competition", Scenario(drop_one=40.0)),
)


def main(trials: int = 1000) -> None:
    """Print the regression-call rate of every scenario (alpha 0.05)."""
    shape = Scenario()
    print(
        f"{shape.competitions} competitions x {shape.seeds} seeds, seed noise sd "
        f"{shape.noise:g} percentile points, alpha 0.05, {trials} trials each"
    )
    for name, scenario in SCENARIOS:
        rate = regression_rate(scenario, trials=trials, seed=1)
        print(f"{name:<36} regression called in {rate:6.1%}")


if __name__ == "__main__":
    main()
