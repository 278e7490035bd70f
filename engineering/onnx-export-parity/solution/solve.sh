#!/usr/bin/env bash
# The oracle: an eval-mode, opset-17 export with a dynamic batch axis, checked against PyTorch.
set -euo pipefail
cat > export.py <<'PY'
"""Export model.py's classifier to export/model.onnx (opset 17, dynamic batch) and check it.

The model is put in eval mode first: BatchNorm must use its running statistics and Dropout must
be the identity, or ONNX Runtime and PyTorch disagree (a training-mode export is off by ~1e-1).
The measured worst difference over batches 1, 3 and 17 goes to REPORT.json.
"""

import json
from pathlib import Path

import numpy as np
import onnx
import torch

from model import load_model, read_config

config = read_config()
model = load_model().eval()
shape = (config["channels"], config["height"], config["width"])
Path("export").mkdir(exist_ok=True)
torch.onnx.export(
    model,
    torch.zeros(1, *shape),
    "export/model.onnx",
    opset_version=17,
    input_names=["input"],
    output_names=["logits"],
    dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
    training=torch.onnx.TrainingMode.EVAL,
)
onnx.checker.check_model("export/model.onnx", full_check=True)

worst = 0.0
try:
    import onnxruntime

    session = onnxruntime.InferenceSession("export/model.onnx", providers=["CPUExecutionProvider"])
    generator = np.random.default_rng(0)
    for batch in (1, 3, 17):
        x = generator.standard_normal((batch, *shape)).astype(np.float32)
        with torch.no_grad():
            expected = model(torch.from_numpy(x)).numpy()
        worst = max(worst, float(np.abs(session.run(None, {"input": x})[0] - expected).max()))
    measured_with = f"onnxruntime {onnxruntime.__version__}"
except ImportError:  # no runtime here: the checker passed, the difference is unmeasured
    measured_with = "not measured (onnxruntime missing)"
report = {"max_abs_diff": worst, "batch_sizes": [1, 3, 17], "opset": 17, "measured_with": measured_with}
Path("REPORT.json").write_text(json.dumps(report, indent=2) + "\n", "utf-8")
print(json.dumps(report))
PY
python3 export.py
