"""The training rows of this project: a flat float32 file read one row at a time.

`data/train.f32` holds `rows` records of `features + 1` float32 values (the last one is the
class label); `data/meta.json` gives `rows` and `features`. Each sample gets a little Gaussian
noise (augmentation) before it reaches the model.
"""

import json
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import Dataset

NOISE_STD = 0.05


class RowDataset(Dataset):
    """Reads row `index` from the data file on demand (the real files do not fit in memory)."""

    def __init__(self, data_dir, seed=0):
        data_dir = Path(data_dir)
        meta = json.loads((data_dir / "meta.json").read_text())
        self.rows = meta["rows"]
        self.features = meta["features"]
        self.seed = seed
        self.record_bytes = 4 * (self.features + 1)
        self.file = open(data_dir / "train.f32", "rb")  # noqa: SIM115 (read for every sample)
        self.augment = lambda x: x + np.random.normal(0.0, NOISE_STD, size=x.shape)

    def __len__(self):
        return self.rows

    def __getitem__(self, index):
        self.file.seek(index * self.record_bytes)
        record = np.frombuffer(self.file.read(self.record_bytes), dtype=np.float32)
        x = self.augment(record[:-1].astype(np.float64))
        return torch.tensor(x, dtype=torch.float32), int(record[-1])
