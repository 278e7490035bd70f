"""Prepare ``plaid-appliances``: PLAID current traces (UCR archive copy bundled with sktime).

The UCR train and test files are pooled and split afresh 70/30, stratified by appliance type.
Series are shipped in long format (one row per sample), as many Kaggle time-series tasks are.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = {
    "TRAIN": "40deb3bc6bd1e1aa0e6db6e6bfd3cecc4a23bf57f6a6d6ab90fb75e4a2c72344",
    "TEST": "aa6da0dc1461e8d374e068a940ce37d1b0bb1a9844596d818920c8af696d656d",
}
SEED = 20_240_210
TEST_FRACTION = 0.3
APPLIANCES = (
    "air_conditioner",
    "compact_fluorescent_lamp",
    "fan",
    "fridge",
    "hairdryer",
    "heater",
    "incandescent_light_bulb",
    "laptop",
    "microwave",
    "vacuum",
    "washing_machine",
)


def source(part: str) -> embedded.BundledFile:
    """sktime 1.2.0's copy of the UCR ``PLAID_<part>.ts`` file."""
    return embedded.BundledFile(
        distribution="sktime",
        relative_path=f"sktime/datasets/data/PLAID/PLAID_{part}.ts",
        sha256=SHA256[part],
        version="1.2.0",
        install="pip install sktime==1.2.0",
    )


def read_ts(path: Path) -> list[tuple[list[float], str]]:
    """The series of a univariate ``.ts`` file: values and the appliance name of each."""
    series: list[tuple[list[float], str]] = []
    in_data = False
    for line in path.read_text("utf-8").splitlines():
        if not in_data:
            in_data = line.strip().lower() == "@data"
            continue
        if line.strip():
            values, _, label = line.rpartition(":")
            series.append(([float(v) for v in values.split(",")], APPLIANCES[int(label)]))
    return series


def load_series() -> list[tuple[list[float], str]]:
    """All 1,074 PLAID series, UCR train part first."""
    series = [s for part in ("TRAIN", "TEST") for s in read_ts(source(part).locate())]
    embedded.require(len(series) == 1074, f"expected 1074 series, got {len(series)}")
    return series


def long_format(ids: list[int], series: list[list[float]]) -> pd.DataFrame:
    """One row per sample: ``series_id``, time step ``t`` (from 0) and ``value``."""
    frames = [
        pd.DataFrame({"series_id": sid, "t": range(len(values)), "value": values})
        for sid, values in zip(ids, series, strict=True)
    ]
    return pd.concat(frames, ignore_index=True)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write labels, long-format series and the sample submission; answers go to ``private``."""
    series = load_series()
    rng = embedded.rng_for(SEED)
    table = pd.DataFrame(
        {
            "series_id": embedded.fresh_ids(len(series), rng),
            "appliance": [label for _, label in series],
            "position": range(len(series)),
        }
    )
    train_rows, test_rows = embedded.stratified_split(table["appliance"], TEST_FRACTION, rng)
    train = embedded.shuffled_rows(table, train_rows, rng)
    test = embedded.shuffled_rows(table, test_rows, rng)
    for name, part in (("train_series.csv", train), ("test_series.csv", test)):
        values = [series[p][0] for p in part["position"]]
        embedded.write_csv(long_format(part["series_id"].tolist(), values), public / name)
    answers = test[["series_id", "appliance"]]
    embedded.write_prepared(
        public,
        private,
        train=train[["series_id", "appliance"]],
        test=test[["series_id"]],
        answers=answers,
        sample=answers.assign(appliance=train["appliance"].mode().iloc[0]),
        id_column="series_id",
    )
