"""Credit-default model: date parsing, the fitted sklearn pipeline."""

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
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
                     ("model", LogisticRegression(max_iter=2000, C=1.0))])  # fmt: skip


def fit(df):
    """The fitted pipeline on raw rows of credit.csv; exact duplicate rows are dropped first."""
    df = df.drop_duplicates()
    return build().fit(df, (df[TARGET] == POSITIVE).astype(int))
