"""The metric registry: every metric the graders library scores with, by name.

A metric is declared beside its function, in the ``DECLARATIONS`` tuple of its family module
(``graders/metrics/<family>.py``). :data:`METRIC_MODULES` names, for every metric, the module
that declares it, and nothing else: looking a metric up (:func:`get_metric`) imports that one
module, so a process that grades one competition pays for one family (the ranking metrics'
pyarrow compute kernels, the 3-D boxes' shapely) and never for the others.
:data:`METRICS` is the same table as a read-only mapping of name to :class:`Metric`; iterating
its values imports every family.

A competition needing another metric gets it added to a family module's ``DECLARATIONS`` and its
name here, and names it in its ``config.yaml``; ``docs/metrics-howto.md`` walks through it.
``tests/unit/test_metric_table.py`` fails when a declaration and this table disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from pytest_mlebench.graders.errors import UnknownMetricError
from pytest_mlebench.graders.metrics.base import NUMERIC_KINDS, Arity, Columns, Metric, ValueKind

__all__ = [
    "METRICS",
    "METRIC_MODULES",
    "NUMERIC_KINDS",
    "Arity",
    "Columns",
    "Metric",
    "ValueKind",
    "get_metric",
]

METRIC_MODULES: Mapping[str, str] = {
    "binarised-bias-auc": "bias",
    "jigsaw-bias-auc": "bias",
    "integer-macro-f1": "class_ids",
    "accuracy": "classification",
    "macro-f1": "classification",
    "quadratic-weighted-kappa": "classification",
    "mean-column-spearman": "correlation",
    "pearson": "correlation",
    "box-map": "detection",
    "box-map-coco-corners-as-sizes": "detection",
    "box-map-sklearn": "detection",
    "box3d-map": "detection3d",
    "box3d-map-per-sample": "detection3d",
    "contrails-global-dice": "dice",
    "mean-dice": "dice",
    "mean-f0.5": "dice",
    "dice-hausdorff": "dice_hausdorff",
    "dice-hausdorff-classes-merged": "dice_hausdorff",
    "kl-divergence": "divergence",
    "window-kl-divergence": "divergence",
    "mean-levenshtein": "edit_distance",
    "sequence-levenshtein-rate": "edit_distance",
    "mean-angular-error": "geometry",
    "group-log-mae": "grouped",
    "phone-percentile-distance": "haversine",
    "salt-iou-sweep": "iou_sweep",
    "salt-iou-sweep-histogram": "iou_sweep",
    "lwlrap": "lwlrap",
    "laplace-log-likelihood": "masked",
    "masked-mae": "masked",
    "masked-mcrmse": "masked",
    "mcc": "mcc",
    "kendall-tau": "ordering",
    "centre-f1": "points",
    "present-label-kappa": "present_kappa",
    "log-loss": "probabilistic",
    "mean-column-roc-auc": "probabilistic",
    "multi-class-log-loss": "probabilistic",
    "roc-auc": "probabilistic",
    "probabilistic-f1": "probabilistic_f1",
    "map-at-k": "ranking",
    "mae": "regression",
    "mean-column-rmsle": "regression",
    "rmse": "regression",
    "rmse-log": "regression",
    "rmsle": "regression",
    "smape": "regression",
    "mae-rounded": "rounded",
    "known-label-micro-f1": "sets",
    "mean-f1": "sets",
    "micro-f1": "sets",
    "span-accuracy": "spans",
    "span-f1": "spans",
    "c-index": "survival",
    "word-jaccard": "text",
    "top-1-error": "top_error",
    "weighted-auc": "weighted_auc",
    "study-weighted-log-loss": "weighted_log_loss",
}
"""Every metric's name and the family module (in this package) whose ``DECLARATIONS`` hold it."""


def get_metric(name: str) -> Metric:
    """Look up a metric by name, importing only the module that declares it.

    Raises:
        UnknownMetricError: ``name`` is not in :data:`METRIC_MODULES`; the message lists the
            names.
    """
    try:
        module = METRIC_MODULES[name]
    except KeyError:
        raise UnknownMetricError(name, METRIC_MODULES) from None
    declarations: tuple[Metric, ...] = import_module(f"{__name__}.{module}").DECLARATIONS
    for metric in declarations:
        if metric.name == name:
            return metric
    raise LookupError(
        f"graders/metrics/{module}.py declares no metric {name!r}: fix METRIC_MODULES"
    )


class _MetricTable(Mapping[str, Metric]):
    """:data:`METRIC_MODULES` as a mapping of name to :class:`Metric`, each resolved on access."""

    def __getitem__(self, name: str) -> Metric:
        if name not in METRIC_MODULES:
            raise KeyError(name)
        return get_metric(name)

    def __iter__(self) -> Iterator[str]:
        return iter(METRIC_MODULES)

    def __len__(self) -> int:
        return len(METRIC_MODULES)


METRICS: Mapping[str, Metric] = _MetricTable()
"""Every metric by name (read-only; a value is looked up, and its module imported, on access)."""
