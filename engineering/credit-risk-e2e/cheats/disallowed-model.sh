#!/usr/bin/env bash
# Cheat: the full oracle pipeline, but with a neural network (not an allowed model).
set -euo pipefail
cat > pipeline.py <<'PY'
"""Credit-default model: date parsing, the fitted sklearn pipeline."""

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

TARGET = "Status"
POSITIVE = "bad"
NUMERIC = ["Seniority", "Time", "Age", "Expenses", "Income", "Assets", "Debt", "Amount", "Price"]
CATEGORICAL = ["Home", "Marital", "Records", "Job"]
PII = ["email", "phone"]
SENSITIVE = ["gender"]
IMPUTATION = {column: "median" for column in NUMERIC}


def parse_app_date(values):
    """app_date holds ISO dates (2020-07-18) and Unix seconds (1595030400): one datetime series."""
    text = pd.Series(values).astype(str).str.strip()
    unix = text.str.fullmatch(r"\d{9,11}")
    parsed = pd.to_datetime(text.where(~unix), format="%Y-%m-%d", errors="coerce")
    parsed[unix] = pd.to_datetime(text[unix].astype("int64"), unit="s")
    return parsed


class RatioFeatures(BaseEstimator, TransformerMixin):
    """Adds Amount / Price (the share of the goods financed), clipped to [0, 5]."""

    def fit(self, x, y=None):
        self.feature_names_in_ = np.asarray(list(x.columns), dtype=object)
        return self

    def transform(self, x):
        out = x.copy()
        out["financed_share"] = (out["Amount"] / out["Price"]).clip(0, 5)
        return out

    def get_feature_names_out(self, input_features=None):
        return np.asarray([*self.feature_names_in_, "financed_share"], dtype=object)


def build():
    numeric = Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())])
    features = ColumnTransformer(
        [
            ("num", numeric, [*NUMERIC, "financed_share"]),
            ("cat", OneHotEncoder(handle_unknown="ignore"), CATEGORICAL),
        ]
    )
    return Pipeline([("ratio", RatioFeatures()), ("features", features),
                     ("model", MLPClassifier(hidden_layer_sizes=(16,), max_iter=300, random_state=0))])  # fmt: skip


def fit(df):
    """The fitted pipeline on raw rows of credit.csv; exact duplicate rows are dropped first."""
    df = df.drop_duplicates()
    return build().fit(df, (df[TARGET] == POSITIVE).astype(int))
PY
cat > train.py <<'PY'
"""Train, predict, evaluate and report: everything reproduce.sh rebuilds from data/."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pipeline
from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score


def write_predictions(path, ids, scores):
    pd.DataFrame({"id": ids, "prob_bad": np.round(scores, 10)}).to_csv(
        path, index=False, float_format="%.10f"
    )


def main():
    data = pd.read_csv("data/credit.csv")
    test = pd.read_csv("data/test.csv")
    val_ids = [int(line) for line in Path("data/validation_ids.txt").read_text().split()]
    model = pipeline.fit(data)
    write_predictions("predictions.csv", test["id"], model.predict_proba(test)[:, 1])

    unique = data.drop_duplicates()
    is_val = unique["id"].isin(val_ids)
    val = unique[is_val]
    val_model = pipeline.fit(unique[~is_val])
    val_scores = val_model.predict_proba(val)[:, 1]
    write_predictions("validation_predictions.csv", val["id"], val_scores)
    truth = (val[pipeline.TARGET] == pipeline.POSITIVE).astype(int)
    flags = (val_scores >= 0.5).astype(int)

    amount = data["Amount"]
    q1, q3 = amount.quantile([0.25, 0.75])
    outliers = data.loc[amount > q3 + 3 * (q3 - q1), "id"].drop_duplicates()
    months = pipeline.parse_app_date(data["app_date"]).dt.month
    names = list(model[:-1].get_feature_names_out())
    report = {
        "target": pipeline.TARGET,
        "positive_class": pipeline.POSITIVE,
        "task_type": "binary_classification",
        "primary_metric": "roc_auc",
        "class_balance": {
            "positive_rate": float((data[pipeline.TARGET] == pipeline.POSITIVE).mean())
        },
        "inspection": {
            "n_rows": len(data),
            "missing": {c: int(v) for c, v in data.isna().sum().items()},
            "duplicates": int(data.duplicated().sum()),
            "amount_outlier_ids": [int(i) for i in outliers],
            "pii_columns": pipeline.PII,
            "sensitive_columns": pipeline.SENSITIVE,
            "app_date_months": {
                int(k): int(v) for k, v in months.value_counts().sort_index().items()
            },
        },
        "preprocessing": {
            "imputation": pipeline.IMPUTATION,
            "dropped": pipeline.PII + pipeline.SENSITIVE + ["id", "app_date"],
        },
        "validation": {
            "roc_auc": float(roc_auc_score(truth, val_scores)),
            "f1": float(f1_score(truth, flags)),
            "precision": float(precision_score(truth, flags)),
            "recall": float(recall_score(truth, flags)),
        },
        "feature_importances": dict(zip(names, map(float, model[-1].coefs_[0].sum(axis=1)), strict=True)),
        "hyperparameters": {"params": model[-1].get_params(), "source": "default"},
        "failures": [],
    }
    Path("report.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
PY
python3 train.py
