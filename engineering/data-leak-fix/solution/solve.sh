#!/usr/bin/env bash
# The oracle: a leak-free pipeline.py (temporal, customer-disjoint split; scaler and a smoothed
# target encoder fitted inside the model on training rows; the post-snapshot feature dropped).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/pipeline.py" pipeline.py
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
cat > decisions.jsonl <<JSON
{"step": 1, "action": "dropped collections_calls_90d", "target": "pipeline.py:20", "rationale": "counted over the 90 days after the snapshot", "time": "$now"}
{"step": 2, "action": "scaler and target encoding inside the fitted Pipeline", "target": "pipeline.py:60", "rationale": "fit on training rows only", "time": "$now"}
{"step": 3, "action": "temporal, customer-disjoint split", "target": "pipeline.py:51", "rationale": "repeated customers crossed the random split", "time": "$now"}
JSON
python3 pipeline.py
