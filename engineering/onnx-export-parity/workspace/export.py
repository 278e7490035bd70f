"""Export the classifier of model.py to export/model.onnx.

A first attempt: it produces a file, but the numbers do not match the PyTorch model yet.
"""

import torch
from model import load_model, read_config

config = read_config()
model = load_model()
dummy = torch.randn(1, config["channels"], config["height"], config["width"])
torch.onnx.export(
    model,
    dummy,
    "export/model.onnx",
    opset_version=11,
    training=torch.onnx.TrainingMode.PRESERVE,
)
print("wrote export/model.onnx")
