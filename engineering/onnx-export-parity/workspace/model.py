"""The classifier to export: a small CNN with BatchNorm and Dropout, weights in ``weights.npz``.

``load_model()`` builds the network described by ``model_config.json`` and loads the weights.
Do not change this file: the checks compare your ONNX file against this model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent


def read_config(folder: Path = HERE) -> dict:
    return json.loads((folder / "model_config.json").read_text("utf-8"))


class SmallCNN(nn.Module):
    def __init__(self, channels: int, filters: int, classes: int, dropout: float) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(channels, filters, kernel_size=3, padding=1),
            nn.BatchNorm2d(filters),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(filters, 2 * filters, kernel_size=3, padding=1),
            nn.BatchNorm2d(2 * filters),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(dropout), nn.Linear(2 * filters, classes)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def load_model(folder: Path = HERE) -> SmallCNN:
    """The model with its trained weights (as constructed: in training mode)."""
    config = read_config(folder)
    model = SmallCNN(config["channels"], config["filters"], config["classes"], config["dropout"])
    with np.load(folder / "weights.npz") as arrays:
        state = {name: torch.from_numpy(arrays[name].copy()) for name in arrays.files}
    model.load_state_dict(state)
    return model
