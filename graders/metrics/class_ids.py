"""Metrics over whole-number class ids: macro F1 where a class is an integer category id.

Fine-grained image competitions (herbarium, iWildCam 2019) name each class by an integer id.
Declaring the predictions ``integer-label`` makes a fractional id such as ``3.7`` invalid with a
reason, where a grader that casts with ``int()`` would silently read it as class 3; the score of
whole-number ids is :func:`~.classification.macro_f1`'s.
"""

from __future__ import annotations

from pytest_mlebench.graders.metrics.base import Metric
from pytest_mlebench.graders.metrics.classification import macro_f1

DECLARATIONS = (
    Metric(
        name="integer-macro-f1",
        lower_is_better=False,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=macro_f1,
        description="unweighted mean of per-class F1 over whole-number class ids",
        arity="one",
    ),
)
