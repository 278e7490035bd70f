"""FAIL_TO_PASS and PASS_TO_PASS from the outcomes of the suite at base and at head (pure).

"Base" is the tree the oracle patch produces: base's code under head's test files (identical to
base when the change leaves the tests alone), so every id listed here is one the oracle passes.
A test is fail-to-pass when it passes at base and fails, errors or cannot be collected at head
(its module failed to import); pass-to-pass when it passes at both. Everything else is left out
with its reason: failing at both, failing at base only, skipped, flaky (two runs disagreed),
or present on one side only.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_mlebench.eng.from_pr.suite_results import ERROR, FAILED, PASSED, SKIPPED, module_of
from pytest_mlebench.eng.from_pr.suite_runner import SuiteRun


@dataclass(frozen=True)
class Split:
    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...]
    left_out: dict[str, str]  # test id → why it is in neither list


def split_tests(base: SuiteRun, head: SuiteRun) -> Split:
    f2p: list[str] = []
    p2p: list[str] = []
    left_out: dict[str, str] = {}
    for test in sorted(base.outcomes.keys() | head.outcomes.keys()):
        at_base, at_head = base.outcomes.get(test), head.outcomes.get(test)
        broken_at_head = at_head is None and module_of(test) in head.broken_modules
        if test in base.flaky or test in head.flaky:
            left_out[test] = "flaky: two runs of the same tree disagreed"
        elif at_base is None:
            left_out[test] = "not collected at base"
        elif at_base != PASSED:
            fails_at_head = at_head in (FAILED, ERROR) or broken_at_head
            left_out[test] = (
                f"{at_base} at base" + (" and at head" if fails_at_head else "")
            ) if at_base != SKIPPED else "skipped at base"  # fmt: skip
        elif at_head == PASSED:
            p2p.append(test)
        elif at_head in (FAILED, ERROR) or broken_at_head:
            f2p.append(test)
        elif at_head == SKIPPED:
            left_out[test] = "skipped at head"
        else:
            left_out[test] = "not collected at head"
    return Split(tuple(f2p), tuple(p2p), left_out)
