"""Scripted model answers for AIDE's prompts, served by the FAKE upstream of the gateway tests.

AIDE asks two kinds of questions: "plan and code" (a plain chat completion; the answer is a plan
and one Python code block) and "review this run" (a forced ``submit_review`` tool call). The code
answer is a small scikit-learn solution of the embedded ``titanic`` competition; the review reads
the validation score the program printed from the execution output AIDE sends. Every answer
reports :data:`INPUT_TOKENS` and :data:`OUTPUT_TOKENS`, so token counts and budgets are exact.
"""

from __future__ import annotations

import json
import re
from typing import Any

INPUT_TOKENS = 1500
OUTPUT_TOKENS = 400
CALL_TOKENS = INPUT_TOKENS + OUTPUT_TOKENS
SCORE_LINE = re.compile(r"Validation ROC AUC: ([0-9.]+)")

TITANIC_SOLUTION = """
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")


def features(frame):
    out = pd.get_dummies(frame[["pclass", "sex"]].astype(str)).astype(float)
    out["age"] = frame["age"].fillna(train["age"].median())
    out["age_missing"] = frame["age"].isna().astype(float)
    out["child"] = (out["age"] < 14).astype(float)
    out["sibsp"] = frame["sibsp"]
    out["parch"] = frame["parch"]
    out["family"] = frame["sibsp"] + frame["parch"]
    return out


X = features(train)
X_test = features(test).reindex(columns=X.columns, fill_value=0.0)
y = train["survived"].to_numpy()


def fit_predict(X_fit, y_fit, X_new):
    boosted = HistGradientBoostingClassifier(
        max_depth=3, learning_rate=0.05, max_iter=150, random_state=0
    )
    linear = LogisticRegression(max_iter=1000, C=0.5)
    boosted.fit(X_fit, y_fit)
    linear.fit(X_fit, y_fit)
    return (boosted.predict_proba(X_new)[:, 1] + linear.predict_proba(X_new)[:, 1]) / 2


scores = []
for fit, held in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
    scores.append(roc_auc_score(y[held], fit_predict(X.iloc[fit], y[fit], X.iloc[held])))
print(f"Validation ROC AUC: {np.mean(scores):.4f}")
pd.DataFrame({"id": test["id"], "survived": fit_predict(X, y, X_test)}).to_csv(
    "./working/submission.csv", index=False
)
"""

PLAN = (
    "One-hot encode class and sex, fill missing ages with the median and flag children, then "
    "average a shallow gradient-boosted model and a logistic regression. Evaluate with 5-fold "
    "ROC AUC and write the test probabilities to submission.csv."
)


def answer_aide(body: dict[str, Any]) -> dict[str, Any]:
    """The chat-completion answer to one of AIDE's requests."""
    if body.get("tools"):
        return _completion(
            body, {"role": "assistant", "content": None, "tool_calls": [_review(body)]}
        )
    content = f"{PLAN}\n\n```python\n{TITANIC_SOLUTION.strip()}\n```\n"
    return _completion(body, {"role": "assistant", "content": content})


def _review(body: dict[str, Any]) -> dict[str, Any]:
    prompt = "\n".join(str(message.get("content")) for message in body.get("messages", []))
    scores = SCORE_LINE.findall(prompt)
    review = {
        "is_bug": not scores,
        "summary": "The ensemble ran; 5-fold ROC AUC printed." if scores else "No score printed.",
        "metric": float(scores[-1]) if scores else None,
        "lower_is_better": False,
    }
    return {
        "id": "call-fake",
        "type": "function",
        "function": {"name": "submit_review", "arguments": json.dumps(review)},
    }


def _completion(body: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake-aide",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", ""),
        "system_fingerprint": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": INPUT_TOKENS,
            "completion_tokens": OUTPUT_TOKENS,
            "total_tokens": CALL_TOKENS,
        },
    }
