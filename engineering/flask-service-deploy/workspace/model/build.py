"""Build ``model.pkl`` from ``model/params.json`` with this machine's scikit-learn.

A pickle is tied to the scikit-learn version that wrote it, so the model ships as its fitted
parameters and is pickled here, in the image that serves it: ``python3 model/build.py``.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

HERE = Path(__file__).resolve().parent


def build(params_path: Path = HERE / "params.json") -> LogisticRegression:
    params = json.loads(params_path.read_text("utf-8"))
    model = LogisticRegression()
    model.coef_ = np.asarray(params["coef"], dtype=float)
    model.intercept_ = np.asarray(params["intercept"], dtype=float)
    model.classes_ = np.asarray(params["classes"])
    model.n_features_in_ = len(params["features"])
    return model


if __name__ == "__main__":
    target = HERE.parent / "model.pkl"
    with target.open("wb") as handle:
        pickle.dump(build(), handle)
    print(f"wrote {target}")
