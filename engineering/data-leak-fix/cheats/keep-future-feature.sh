#!/usr/bin/env bash
# Cheat: the leak-free shape (raw rows in, temporal customer-disjoint split) but keep the
# post-snapshot feature collections_calls_90d, which makes the validation AUC look excellent.
set -euo pipefail
cat > pipeline.py <<'PY'
"""Default model for the customer book: features, split, fit, validation AUC (leak-free).

Usage: python3 pipeline.py   (writes out/report.json with the validation AUC)
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

TARGET = "default"
# collections_calls_90d is counted after the snapshot: not known at prediction time
NUMERIC = ["age", "income", "debt_ratio", "utilization", "n_accounts", "collections_calls_90d"]
VALIDATION_MONTHS = 3


def load(path="data/customers.csv"):
    return pd.read_csv(path)


class SmoothedTargetEncoder(BaseEstimator, TransformerMixin):
    """Mean target per level, shrunk to the global mean, learnt from the fitting rows only."""

    def __init__(self, strength=20.0):
        self.strength = strength

    def fit(self, x, y):
        frame = pd.DataFrame({"level": np.asarray(x).ravel(), "y": np.asarray(y)})
        self.prior_ = float(frame["y"].mean())
        stats = frame.groupby("level")["y"].agg(["sum", "count"])
        self.table_ = (
            (stats["sum"] + self.strength * self.prior_) / (stats["count"] + self.strength)
        ).to_dict()
        return self

    def transform(self, x):
        levels = pd.Series(np.asarray(x).ravel())
        return levels.map(self.table_).fillna(self.prior_).to_numpy().reshape(-1, 1)

    def get_feature_names_out(self, input_features=None):
        return np.array(["region_te"])


def split(df):
    """(train, validation): the last 3 snapshot months validate; a customer is on one side only."""
    months = sorted(df["snapshot_month"].unique())
    in_val = df["snapshot_month"].isin(months[-VALIDATION_MONTHS:])
    val = df[in_val]
    train = df[~in_val & ~df["customer_id"].isin(val["customer_id"])]
    return train, val


def fit(train):
    """A fitted model whose predict_proba(rows)[:, 1] is the probability of default."""
    train = train.drop_duplicates(subset="customer_id", keep="last")
    features = ColumnTransformer(
        [("numeric", StandardScaler(), NUMERIC), ("region", SmoothedTargetEncoder(), ["region"])]
    )
    model = Pipeline([("features", features), ("model", LogisticRegression(max_iter=1000))])
    return model.fit(train, train[TARGET])


def validate(df):
    """(validation AUC, the model fitted on the training side)."""
    train, val = split(df)
    model = fit(train)
    auc = roc_auc_score(val[TARGET], model.predict_proba(val)[:, 1])
    return auc, model


def main():
    auc, _ = validate(load())
    Path("out").mkdir(exist_ok=True)
    Path("out/report.json").write_text(json.dumps({"validation_auc": auc}, indent=2))
    print(f"validation AUC {auc:.4f}")


if __name__ == "__main__":
    main()
PY
python3 pipeline.py
