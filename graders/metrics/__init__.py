"""The metric registry: every metric the graders library scores with, by name.

:data:`METRICS` is read-only. A competition needing another metric gets it added here (a function
in one of the modules beside this one and a :class:`Metric` entry below), and names it in its
``config.yaml``; ``docs/metrics-howto.md`` walks through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pytest_mlebench.graders.errors import UnknownMetricError
from pytest_mlebench.graders.metrics import (
    class_ids,
    divergence,
    geometry,
    grouped,
    masked,
    mcc,
    probabilistic_f1,
    rounded,
    top_error,
    weighted_auc,
    weighted_log_loss,
)
from pytest_mlebench.graders.metrics.base import NUMERIC_KINDS, Arity, Columns, Metric, ValueKind
from pytest_mlebench.graders.metrics.bias import DECLARATIONS as BIAS_ORIGINAL
from pytest_mlebench.graders.metrics.bias import bias_auc
from pytest_mlebench.graders.metrics.classification import (
    accuracy,
    macro_f1,
    quadratic_weighted_kappa,
)
from pytest_mlebench.graders.metrics.correlation import (
    mean_column_spearman,
    pearson,
    require_varying_predictions,
)
from pytest_mlebench.graders.metrics.detection import DECLARATIONS as DETECTION
from pytest_mlebench.graders.metrics.detection3d import DECLARATIONS as DETECTION_3D
from pytest_mlebench.graders.metrics.dice import DECLARATIONS as DICE
from pytest_mlebench.graders.metrics.dice_hausdorff import DECLARATIONS as DICE_HAUSDORFF
from pytest_mlebench.graders.metrics.edit_distance import DECLARATIONS as EDIT_DISTANCE
from pytest_mlebench.graders.metrics.haversine import DECLARATIONS as HAVERSINE
from pytest_mlebench.graders.metrics.iou_sweep import DECLARATIONS as IOU_SWEEP
from pytest_mlebench.graders.metrics.lwlrap import DECLARATIONS as LWLRAP
from pytest_mlebench.graders.metrics.ordering import order_rule, pooled_kendall_tau
from pytest_mlebench.graders.metrics.points import DECLARATIONS as POINTS
from pytest_mlebench.graders.metrics.present_kappa import DECLARATIONS as PRESENT_KAPPA
from pytest_mlebench.graders.metrics.probabilistic import (
    log_loss,
    mean_column_roc_auc,
    multi_class_log_loss,
    roc_auc,
)
from pytest_mlebench.graders.metrics.ranking import map_at_k
from pytest_mlebench.graders.metrics.regression import (
    mae,
    mean_column_rmsle,
    rmse,
    rmse_log,
    rmsle,
    smape,
)
from pytest_mlebench.graders.metrics.sets import DECLARATIONS as SETS_ORIGINAL
from pytest_mlebench.graders.metrics.sets import mean_f1, micro_f1
from pytest_mlebench.graders.metrics.spans import DECLARATIONS as SPANS_ORIGINAL
from pytest_mlebench.graders.metrics.spans import span_f1, span_rule
from pytest_mlebench.graders.metrics.survival import concordance_index
from pytest_mlebench.graders.metrics.text import word_jaccard

__all__ = [
    "METRICS",
    "NUMERIC_KINDS",
    "Arity",
    "Columns",
    "Metric",
    "ValueKind",
    "get_metric",
]

_ALL = (
    Metric(
        name="accuracy",
        lower_is_better=False,
        value_kind="label",
        rows_sum_to_one=False,
        compute=accuracy,
        description="share of exactly matching labels",
    ),
    Metric(
        name="roc-auc",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=roc_auc,
        description="area under the ROC curve of one score column against 0/1 answers",
        arity="one",
    ),
    Metric(
        name="mean-column-roc-auc",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mean_column_roc_auc,
        description="mean over target columns of each column's ROC AUC",
    ),
    Metric(
        name="log-loss",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=False,
        compute=log_loss,
        description="binary cross-entropy of one probability column, clipped at 1e-15",
        arity="one",
    ),
    Metric(
        name="multi-class-log-loss",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=True,
        compute=multi_class_log_loss,
        description="cross-entropy of class probabilities against one-hot answers",
    ),
    Metric(
        name="rmse",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=rmse,
        description="root mean squared error",
    ),
    Metric(
        name="mae",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mae,
        description="mean absolute error",
    ),
    Metric(
        name="rmsle",
        lower_is_better=True,
        value_kind="nonnegative",
        rows_sum_to_one=False,
        compute=rmsle,
        description="root mean squared error of log(1 + x)",
    ),
    Metric(
        name="mean-column-rmsle",
        lower_is_better=True,
        value_kind="nonnegative",
        rows_sum_to_one=False,
        compute=mean_column_rmsle,
        description="mean over target columns of each column's RMSLE",
    ),
    Metric(
        name="rmse-log",
        lower_is_better=True,
        value_kind="positive",
        rows_sum_to_one=False,
        compute=rmse_log,
        description="RMSE between log(prediction) and log(answer)",
    ),
    Metric(
        name="quadratic-weighted-kappa",
        lower_is_better=False,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=quadratic_weighted_kappa,
        description="Cohen's kappa with quadratic weights over integer ratings",
        arity="one",
    ),
    Metric(
        name="macro-f1",
        lower_is_better=False,
        value_kind="label",
        rows_sum_to_one=False,
        compute=macro_f1,
        description="unweighted mean of per-class F1",
        arity="one",
    ),
    Metric(
        name="map-at-k",
        lower_is_better=False,
        value_kind="ranking",
        rows_sum_to_one=False,
        compute=map_at_k,
        description="mean average precision at k (default 10) of space-separated rankings",
        arity="one",
        parameters=("k", "relevant_rows_only"),
    ),
    Metric(
        name="smape",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=smape,
        description="symmetric mean absolute percentage error, 0 to 200",
    ),
    Metric(
        name="c-index",
        lower_is_better=False,
        value_kind="risk",
        rows_sum_to_one=False,
        compute=concordance_index,
        description="Harrell's concordance of risk scores with (time, event) answers",
        arity="survival",
    ),
    Metric(
        name="pearson",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=pearson,
        description="Pearson correlation of one prediction column with the answers",
        arity="one",
        check_predictions=require_varying_predictions,
    ),
    Metric(
        name="mean-column-spearman",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mean_column_spearman,
        description="mean over target columns of Spearman's rank correlation with the answers",
        check_predictions=require_varying_predictions,
    ),
    Metric(
        name="word-jaccard",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=word_jaccard,
        description="mean over rows of the Jaccard similarity of lower-cased word sets",
        arity="one",
    ),
    Metric(
        name="jigsaw-bias-auc",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=bias_auc,
        description="overall ROC AUC blended with power means of identity-group bias AUCs",
        arity="described",
    ),
    Metric(
        name="kendall-tau",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=pooled_kendall_tau,
        description="Kendall's tau of predicted item orders, inversions pooled over rows",
        arity="one",
        check_rows=order_rule,
    ),
    Metric(
        name="mean-f1",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=mean_f1,
        description="mean over rows of the F1 of the predicted against the true label set",
        arity="one",
    ),
    Metric(
        name="micro-f1",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=micro_f1,
        description="F1 over all (row, label) pairs of space-separated label sets",
        arity="one",
    ),
    Metric(
        name="span-f1",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=span_f1,
        description="micro F1 of predicted answer spans (start:end, YES, NO or blank)",
        arity="one",
        check_rows=span_rule,
    ),
)

_MODULES: tuple[Metric, ...] = (
    *masked.DECLARATIONS,
    *grouped.DECLARATIONS,
    *geometry.DECLARATIONS,
    *rounded.DECLARATIONS,
    *mcc.DECLARATIONS,
    *class_ids.DECLARATIONS,
    *weighted_auc.DECLARATIONS,
    *divergence.DECLARATIONS,
    *probabilistic_f1.DECLARATIONS,
    *weighted_log_loss.DECLARATIONS,
    *top_error.DECLARATIONS,
    *EDIT_DISTANCE,
    *LWLRAP,
    *BIAS_ORIGINAL,
    *SETS_ORIGINAL,
    *SPANS_ORIGINAL,
    *PRESENT_KAPPA,
    *DETECTION,
    *DETECTION_3D,
    *POINTS,
    *IOU_SWEEP,
    *DICE,
    *HAVERSINE,
    *DICE_HAUSDORFF,
)
"""Metrics declared beside their functions, one family module each."""

METRICS: Mapping[str, Metric] = MappingProxyType(
    {metric.name: metric for metric in (*_ALL, *_MODULES)}
)
"""Every metric by name."""


def get_metric(name: str) -> Metric:
    """Look up a metric by name.

    Raises:
        UnknownMetricError: ``name`` is not in :data:`METRICS`; the message lists the names.
    """
    try:
        return METRICS[name]
    except KeyError:
        raise UnknownMetricError(name, METRICS) from None
