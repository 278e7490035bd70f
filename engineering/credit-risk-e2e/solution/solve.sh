#!/usr/bin/env bash
# The oracle: a leak-free logistic regression with its report, lineage, pins and decision log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/pipeline.py" "$here/train.py" "$here/reproduce.sh" "$here/lineage.mmd" .
python3 - <<'PY'
from importlib.metadata import version
with open("requirements.txt", "w") as out:
    for dist in ("numpy", "pandas", "scikit-learn"):
        out.write(f"{dist}=={version(dist)}\n")
PY
bash reproduce.sh
python3 - <<'PY'
import json, time
report = json.load(open("report.json"))
now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
ins = report["inspection"]
steps = [
    ("problem", "read the task", "Status", "instruction", "target bad = positive, ROC AUC", {"positive_rate": report["class_balance"]["positive_rate"]}),
    ("inspection", "profiled the table", "data/credit.csv", "pandas isna/duplicated", "missingness, duplicates, outliers, PII", {"n_rows": ins["n_rows"], "duplicates": ins["duplicates"]}),
    ("preprocessing", "median imputation and scaling inside the pipeline", "pipeline.py", "SimpleImputer+StandardScaler", "fitted on training rows only; PII dropped", {}),
    ("modelling", "logistic regression", "pipeline.py", "LogisticRegression", "allowed, fast, explainable", {}),
    ("evaluation", "validation metrics", "validation_predictions.csv", "roc_auc, f1", "on the given validation ids", {"roc_auc": report["validation"]["roc_auc"]}),
    ("reporting", "report, lineage, pins", "report.json", "json", "reproducible with reproduce.sh", {}),
]
with open("decisions.jsonl", "w") as out:
    for n, (stage, action, target, method, why, ev) in enumerate(steps, 1):
        out.write(json.dumps({"step": n, "stage": stage, "action": action, "target": target, "method": method, "rationale": why, "evidence": ev, "time": now}) + "\n")
PY
