"""Per-seed data of dataloader-multiprocessing: a small 3-class problem as a flat float32 file.

``prepare`` writes ``data/train.f32`` (rows of ``FEATURES`` float32 features and the label as a
float32) and ``data/meta.json`` into the workspace, and into ``private/`` hidden rows of the same
problem (``hidden.npz``) and the verifier's facts (``facts.json``: rows, noise, CPU counts).
The agent's ``CPU_COUNT`` is drawn per seed; the verifier runs with other values, so a number
copied into the code fails. Only numpy and the standard library are used.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FEATURES = 8
CLASSES = 3
ROWS = 384
HIDDEN_ROWS = 600
NOISE_STD = 0.05  # the augmentation of workspace/rows.py


def problem(seed: int) -> dict[str, np.ndarray]:
    """Gaussian inputs labelled by a random linear teacher (nearly separable, a little noise)."""
    rng = np.random.default_rng(seed)
    teacher = rng.normal(size=(FEATURES, CLASSES))
    z = rng.normal(size=(ROWS + HIDDEN_ROWS, FEATURES))
    logits = z @ teacher * 2.0 + rng.gumbel(size=(len(z), CLASSES)) * 0.3
    labels = logits.argmax(axis=1)
    return {"x": z.astype(np.float32), "y": labels.astype(np.int64)}


def cpu_counts(seed: int) -> tuple[int, int, int]:
    """The agent's CPU_COUNT (3 or 4), then the verifier's spawn (2) and forkserver (1) counts:
    three different values, so a worker count written into the code fails at least one run.
    The verifier's counts are small: every spawned worker imports torch on a 2-core machine."""
    return 3 + seed % 2, 2, 1


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    data = problem(7100 + seed)
    x, y = data["x"], data["y"]
    records = np.concatenate([x[:ROWS], y[:ROWS, None].astype(np.float32)], axis=1)
    folder = workspace / "data"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "train.f32").write_bytes(records.astype("<f4").tobytes())
    (folder / "meta.json").write_text(json.dumps({"rows": ROWS, "features": FEATURES}) + "\n")
    private.mkdir(parents=True, exist_ok=True)
    np.savez(private / "hidden.npz", X=x[ROWS:], y=y[ROWS:])
    agent, spawn, forkserver = cpu_counts(seed)
    facts = {
        "rows": ROWS,
        "features": FEATURES,
        "noise_std": NOISE_STD,
        "agent_cpu_count": agent,
        "spawn_cpu_count": spawn,
        "forkserver_cpu_count": forkserver,
    }
    (private / "facts.json").write_text(json.dumps(facts, indent=2) + "\n")
    return {"CPU_COUNT": str(agent)}
