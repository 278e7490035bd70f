#!/usr/bin/env bash
# The oracle: fix the four planted bugs, log each fix with the file:line it changed.
set -euo pipefail
python3 - <<'PY'
from pathlib import Path

train = Path("train.py")
text = train.read_text()
text = text.replace("std = x.std(axis=0)\n", "std = x.std(axis=0)\n    std[std == 0] = 1.0  # a constant column: 0/0 gave NaN\n")
text = text.replace("labels = torch.tensor(y, dtype=torch.float32)", "labels = torch.tensor(y, dtype=torch.int64)")
text = text.replace("model = Net(in_features=15)", "model = Net(in_features=x.shape[1])")
train.write_text(text)
predict = Path("predict.py")
text = predict.read_text()
text = text.replace("    model.load_state_dict(saved[\"state_dict\"])\n", "    model.load_state_dict(saved[\"state_dict\"])\n    model.eval()\n")
predict.write_text(text)
PY
line() { grep -n -F "$2" "$1" | head -1 | cut -d: -f1; }
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
  printf '{"step": 1, "action": "guard zero std", "target": "train.py:%s", "rationale": "column 7 is constant: (x-mean)/0 gave NaN inputs and a NaN loss", "time": "%s"}\n' "$(line train.py 'std[std == 0]')" "$now"
  printf '{"step": 2, "action": "labels as int64", "target": "train.py:%s", "rationale": "CrossEntropyLoss needs class indices (Long), the npz stores float labels", "time": "%s"}\n' "$(line train.py 'dtype=torch.int64')" "$now"
  printf '{"step": 3, "action": "input width from the data", "target": "train.py:%s", "rationale": "the data has 16 features, the model was built for 15 (shape mismatch)", "time": "%s"}\n' "$(line train.py 'in_features=x.shape[1]')" "$now"
  printf '{"step": 4, "action": "model.eval() before predicting", "target": "predict.py:%s", "rationale": "Dropout and BatchNorm stayed in training mode at prediction time", "time": "%s"}\n' "$(line predict.py 'model.eval()')" "$now"
} > decisions.jsonl
python3 train.py > /dev/null
