#!/usr/bin/env bash
# The oracle: install the hand-written pipeline (one function per stage, the notebook's steps in
# dependency order, FX rates defined before use, outputs rewritten instead of appended, no run
# time in the summary) with its stage file, set the seed's MIN_QTY, and run it once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cp "$here/pipeline.py" "$here/stages.json" .
min_qty=$(python3 -c 'import json,re; nb=json.load(open("analysis.ipynb")); src="".join("".join(c["source"]) for c in nb["cells"]); print(re.search(r"MIN_QTY = (\d+)", src).group(1))')
sed -i "s/^DEFAULT_MIN_QTY = .*/DEFAULT_MIN_QTY = $min_qty/" pipeline.py
python3 pipeline.py --input data/orders.csv --out-dir out
