"""Allure for an engineering task's run: one step per check, dimension scores, a small radar.

Pure functions say what goes in (:func:`check_steps`, :func:`dimension_parameters`,
:func:`run_radar`); :func:`apply_engineering` hands it to Allure while the test's result is open.
Each check becomes a step named ``F2 [functional] 100 %`` with its evidence and, when it did not
fully pass, its teaching card (why it matters, how to fix) as the step's failure message; dimension
scores and the task score are parameters excluded from Allure's history id (they change from run
to run, the test does not); a run whose gate failed lands in the category
``Engineering: <dimension>`` of the first failed gate's dimension.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.eng.scoring import GATE_WORDS
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.check_cards import result_text
from pytest_mlebench.report.engineering_stats import DIMENSIONS, scored
from pytest_mlebench.report.radar import RadarSeries, radar_chart


@dataclass(frozen=True)
class CheckStep:
    """One check as an Allure step."""

    title: str
    passed: bool
    message: str | None
    evidence: str | None


def check_steps(record: RunRecord) -> list[CheckStep]:
    """A step per check of a verified run, in the order the verifier gave them."""
    block = scored(record) or {}
    steps = []
    for check in block.get("checks") or ():
        result = check.get("result")
        shown = result_text(result)
        gate = ", gate" if check.get("gate") else ""
        passed = result is not None and float(result) >= 1.0
        card = None
        if not passed:
            card = f"why: {check.get('why') or '-'}; fix: {check.get('fix_hint') or '-'}"
        evidence = check.get("evidence")
        if isinstance(evidence, list):
            evidence = "; ".join(str(item) for item in evidence)
        steps.append(
            CheckStep(
                title=f"{check.get('id')} [{check.get('dimension')}{gate}] {shown}",
                passed=passed,
                message=card,
                evidence=str(evidence) if evidence else None,
            )
        )
    return steps


def dimension_parameters(record: RunRecord) -> list[tuple[str, str]]:
    """``(task_score, 82.5)`` and one ``(dimension, score)`` per dimension, in 0-100."""
    block = scored(record)
    if block is None:
        return []
    found = [("task_score", f"{100 * float(block['score']):.1f}")]
    dimensions = block.get("dimensions") or {}
    found += [
        (name, f"{100 * float(dimensions[name]):.1f}")
        for name in DIMENSIONS
        if dimensions.get(name) is not None
    ]
    return found


def run_radar(record: RunRecord) -> str | None:
    """The run's five dimensions as a radar (``None`` for a run that was not verified)."""
    block = scored(record)
    if block is None:
        return None
    dimensions = block.get("dimensions") or {}
    values = {
        name: None if dimensions.get(name) is None else 100 * float(dimensions[name])
        for name in DIMENSIONS
    }
    series = RadarSeries(record.agent, values)
    return radar_chart(list(DIMENSIONS), [series], f"{record.competition_id}: score per dimension")


def engineering_categories() -> list[dict[str, Any]]:
    """Allure categories ``Engineering: <dimension>`` for runs whose gate failed there."""
    return [
        {
            "name": f"Engineering: {name}",
            "matchedStatuses": ["failed"],
            "messageRegex": f"(?s).*{re.escape(GATE_WORDS)}: \\S+ \\[{name}\\].*",
        }
        for name in DIMENSIONS
    ]


def apply_engineering(record: RunRecord) -> None:
    """Hand the run's steps, parameters and radar to Allure (its result must be open)."""
    import allure

    dynamic: Any = allure.dynamic
    for name, value in dimension_parameters(record):
        dynamic.parameter(name, value, excluded=True)
    for step in check_steps(record):
        try:
            with allure.step(step.title):
                if step.evidence:
                    allure.attach(step.evidence, name="evidence")
                if not step.passed:
                    raise AssertionError(step.message)
        except AssertionError:
            pass  # the step is marked failed; the test's own outcome is the run's
    radar = run_radar(record)
    if radar is not None:
        allure.attach(radar, name="dimensions", attachment_type=allure.attachment_type.SVG)
