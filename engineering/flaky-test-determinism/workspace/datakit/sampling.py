"""Sampling helpers: a seeded train/test split and bootstrap resampling."""

import random
import statistics


def split(rows, test_ratio=0.25, seed=0):
    """Shuffle ``rows`` with ``seed`` and cut them into (train, test); the same seed gives the
    same split."""
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    cut = round(len(rows) * (1 - test_ratio))
    return [rows[i] for i in order[:cut]], [rows[i] for i in order[cut:]]


def bootstrap_means(values, n_resamples=200, seed=None):
    """The means of ``n_resamples`` resamples of ``values`` drawn with replacement; pass ``seed``
    for the same resamples every time."""
    rng = random.Random(seed)
    size = len(values)
    return [statistics.fmean(rng.choices(values, k=size)) for _ in range(n_resamples)]
