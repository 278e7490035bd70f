"""Train a linear classifier on data/train.f32 with a multi-worker DataLoader.

Usage: CPU_COUNT=N python3 train.py [--data-dir data] [--out-dir out] [--seed 0]
                                    [--epochs 2] [--start-method spawn]

Writes out/model.pt (the state_dict of the torch.nn.Linear model) and out/losses.json
(the mean training loss of every epoch).
"""

import argparse
import json
from pathlib import Path

import numpy as np
import torch
from rows import RowDataset
from torch.utils.data import DataLoader

BATCH_SIZE = 32
CLASSES = 3

parser = argparse.ArgumentParser()
parser.add_argument("--data-dir", default="data")
parser.add_argument("--out-dir", default="out")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--start-method", default="spawn", choices=["spawn", "forkserver", "fork"])
args = parser.parse_args()

torch.manual_seed(args.seed)
np.random.seed(args.seed)
dataset = RowDataset(args.data_dir, seed=args.seed)
loader = DataLoader(
    dataset,
    batch_size=BATCH_SIZE,
    shuffle=True,
    num_workers=4,  # TODO: use $CPU_COUNT
    multiprocessing_context=args.start_method,
    generator=torch.Generator().manual_seed(args.seed),
)
model = torch.nn.Linear(dataset.features, CLASSES)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = torch.nn.CrossEntropyLoss()
losses = []
for epoch in range(args.epochs):
    total, seen = 0.0, 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        total += float(loss) * len(y)
        seen += len(y)
    losses.append(total / seen)
    print(f"epoch {epoch + 1}: loss {losses[-1]:.4f}")

out = Path(args.out_dir)
out.mkdir(parents=True, exist_ok=True)
torch.save(model.state_dict(), out / "model.pt")
(out / "losses.json").write_text(json.dumps(losses))
