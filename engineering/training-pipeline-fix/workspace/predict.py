"""Predict class labels with a model saved by train.py.

Usage: python3 predict.py [--model-dir out] [--data data/val.npz]   (prints the accuracy)
"""

import argparse
from pathlib import Path

import numpy as np
import torch
from model import Net


def load_model(model_dir):
    saved = torch.load(Path(model_dir) / "model.pt")
    model = Net(in_features=saved["in_features"])
    model.load_state_dict(saved["state_dict"])
    return model, saved["mean"], saved["std"]


def predict(model_dir, x):
    """Class labels (int array) for the rows of ``x`` (raw features, as in the .npz files)."""
    model, mean, std = load_model(model_dir)
    inputs = torch.tensor((x - mean) / std, dtype=torch.float32)
    with torch.no_grad():
        return model(inputs).argmax(dim=1).numpy()


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", default="out")
    parser.add_argument("--data", default="data/val.npz")
    args = parser.parse_args(argv)
    data = np.load(args.data)
    accuracy = float((predict(args.model_dir, data["X"]) == data["y"]).mean())
    print(f"accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
