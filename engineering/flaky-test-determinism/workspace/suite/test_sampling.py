"""Tests of datakit.sampling."""

import json
import statistics
from pathlib import Path

from datakit.sampling import bootstrap_means, split

FIXTURES = json.loads((Path(__file__).parent / "fixtures.json").read_text("utf-8"))
ROWS = list(range(40))


def test_split_sizes():
    train, test = split(ROWS, 0.25)
    assert (len(train), len(test)) == (30, 10)


def test_split_is_disjoint_and_complete():
    train, test = split(ROWS, 0.25, seed=3)
    assert not set(train) & set(test)
    assert sorted(train + test) == ROWS


def test_split_same_seed_same_result():
    assert split(ROWS, 0.3, seed=11) == split(ROWS, 0.3, seed=11)


def test_bootstrap_returns_one_mean_per_resample():
    assert len(bootstrap_means(FIXTURES["values"], 50, seed=1)) == 50


def test_bootstrap_mean_is_close_to_the_sample_mean():
    values = FIXTURES["values"]
    means = bootstrap_means(values, 200)
    gap = abs(statistics.fmean(means) - statistics.fmean(values))
    assert gap < FIXTURES["tolerance"]
