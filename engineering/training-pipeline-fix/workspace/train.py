"""Train the classifier on data/train.npz and save it to out/model.pt.

Usage: python3 train.py [--data-dir data] [--out-dir out] [--seed 0] [--epochs 30]
"""

import argparse
import json
from pathlib import Path

import numpy as np
import torch
from model import Net
from torch import nn


def load(path):
    data = np.load(path)
    return data["X"], data["y"]


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--out-dir", default="out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    x, y = load(Path(args.data_dir) / "train.npz")
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    x = (x - mean) / std
    inputs = torch.tensor(x, dtype=torch.float32)
    labels = torch.tensor(y, dtype=torch.float32)

    model = Net(in_features=15)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(args.epochs):
        order = torch.randperm(len(inputs))
        total = 0.0
        for start in range(0, len(inputs), 128):
            batch = order[start : start + 128]
            optimizer.zero_grad()
            loss = loss_fn(model(inputs[batch]), labels[batch])
            loss.backward()
            optimizer.step()
            total += float(loss) * len(batch)
        losses.append(total / len(inputs))
        print(f"epoch {epoch + 1}: loss {losses[-1]:.4f}")

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(
        {"state_dict": model.state_dict(), "mean": mean, "std": std, "in_features": x.shape[1]},
        out / "model.pt",
    )
    (out / "losses.json").write_text(json.dumps(losses))


if __name__ == "__main__":
    main()
