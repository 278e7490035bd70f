"""Default model for the customer book: features, split, fit, validation AUC.

Usage: python3 pipeline.py   (writes out/report.json with the validation AUC)
"""

import json
from pathlib import Path

import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

TARGET = "default"
NUMERIC = ["age", "income", "debt_ratio", "utilization", "n_accounts", "collections_calls_90d"]
FEATURES = [*NUMERIC, "region_te"]


def load(path="data/customers.csv"):
    return pd.read_csv(path)


def prepare_features(df):
    df = df.copy()
    df["region_te"] = df.groupby("region")[TARGET].transform("mean")
    df[NUMERIC] = StandardScaler().fit_transform(df[NUMERIC])
    return df


def split(df):
    """(train, validation) rows."""
    return train_test_split(df, test_size=0.25, random_state=0)


def fit(train):
    """A fitted model whose predict_proba(rows)[:, 1] is the probability of default."""
    return LogisticRegression(max_iter=1000).fit(train[FEATURES], train[TARGET])


def validate(df):
    """(validation AUC, the model fitted on the training side)."""
    prepared = prepare_features(df)
    train, val = split(prepared)
    model = fit(train)
    auc = roc_auc_score(val[TARGET], model.predict_proba(val[FEATURES])[:, 1])
    return auc, model


def main():
    auc, _ = validate(load())
    Path("out").mkdir(exist_ok=True)
    Path("out/report.json").write_text(json.dumps({"validation_auc": auc}, indent=2))
    print(f"validation AUC {auc:.4f}")


if __name__ == "__main__":
    main()
