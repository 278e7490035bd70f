"""Hidden checks of training-pipeline-fix (ids as in config.yaml)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

TAU = 0.80  # hidden validation accuracy the fixed script must reach
DELTA = 0.05  # slack on another problem drawn from another seed
ENTRY_KEYS = {"action", "target", "rationale"}


def _accuracy(predict_module, run, path: Path) -> float:  # type: ignore[no-untyped-def]
    data = np.load(path)
    labels = np.asarray(predict_module.predict(run.out_dir, data["X"]))
    return float((labels == data["y"].astype(np.int64)).mean())


@pytest.mark.check("F1")
def test_training_ends_with_finite_losses(main_run, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(f"train.py exit {main_run.returncode} in {main_run.wall_s:.1f} s")
    assert main_run.returncode == 0, main_run.log
    losses = json.loads((main_run.out_dir / "losses.json").read_text())
    assert isinstance(losses, list) and losses, "losses.json holds no losses"
    assert all(math.isfinite(float(value)) for value in losses), f"non-finite loss in {losses[:5]}"


@pytest.mark.check("F1")
def test_saved_model_has_finite_loss(main_run, work, predict_module, evidence) -> None:  # type: ignore[no-untyped-def]
    """The verifier's own cross-entropy of the saved model on the training data: finite, low."""
    model, mean, std = predict_module.load_model(main_run.out_dir)
    model.eval()
    data = np.load(work / "data" / "train.npz")
    inputs = torch.tensor((data["X"] - np.asarray(mean)) / np.asarray(std), dtype=torch.float32)
    logits = torch.from_numpy(np.asarray(model(inputs), dtype=np.float32))
    loss = float(nn.CrossEntropyLoss()(logits, torch.tensor(data["y"]).long()))
    evidence(f"verifier's training loss {loss:.4f} (chance: {math.log(3):.4f})")
    assert math.isfinite(loss) and loss < 0.9 * math.log(3)


@pytest.mark.check("F2")
def test_hidden_validation_accuracy(main_run, predict_module, private_dir, evidence) -> None:  # type: ignore[no-untyped-def]
    assert main_run.returncode == 0, main_run.log
    accuracy = _accuracy(predict_module, main_run, private_dir / "hidden.npz")
    evidence(f"hidden validation accuracy {accuracy:.4f} (τ = {TAU})")
    assert accuracy >= TAU


@pytest.mark.check("B1")
def test_other_seed_accuracy(alt_run, predict_module, private_dir, evidence) -> None:  # type: ignore[no-untyped-def]
    assert alt_run.returncode == 0, alt_run.log
    accuracy = _accuracy(predict_module, alt_run, private_dir / "alt" / "hidden.npz")
    evidence(f"another problem and seed: accuracy {accuracy:.4f} (τ − δ = {TAU - DELTA})")
    assert accuracy >= TAU - DELTA


@pytest.mark.check("B2")
def test_prediction_is_in_eval_mode(main_run, predict_module, private_dir, evidence) -> None:  # type: ignore[no-untyped-def]
    """Inference mode: the same rows give the same labels twice, one at a time or in a batch."""
    assert main_run.returncode == 0, main_run.log
    x = np.load(private_dir / "hidden.npz")["X"][:40]
    first = np.asarray(predict_module.predict(main_run.out_dir, x))
    second = np.asarray(predict_module.predict(main_run.out_dir, x))
    single = np.concatenate(
        [np.asarray(predict_module.predict(main_run.out_dir, x[i : i + 1])) for i in range(len(x))]
    )
    evidence(
        f"repeat disagreements {int((first != second).sum())},"
        f" single-row {int((first != single).sum())}"
    )
    assert (first == second).all() and (first == single).all()


def _entries(work: Path) -> list[dict]:  # type: ignore[type-arg]
    path = work / "decisions.jsonl"
    assert path.is_file(), "no decisions.jsonl in the workspace"
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]
    assert all(isinstance(e, dict) and set(e) >= ENTRY_KEYS for e in entries), "an entry lacks keys"
    return entries


def _changed_sources(work: Path, pristine: Path) -> set[str]:
    changed = set()
    for source in pristine.rglob("*.py"):
        name = source.relative_to(pristine).as_posix()
        if name.startswith("tests/"):
            continue
        target = work / name
        if not target.is_file() or target.read_bytes() != source.read_bytes():
            changed.add(name)
    return changed


@pytest.mark.check("X1")
def test_each_fix_is_logged_at_an_existing_line(work, pristine_dir, evidence) -> None:  # type: ignore[no-untyped-def]
    entries = _entries(work)
    evidence(f"{len(entries)} decisions")
    assert len(entries) >= 4, "four planted bugs, fewer than four logged fixes"
    named = set()
    for entry in entries:
        match = re.fullmatch(r"([\w./-]+):(\d+)", str(entry["target"]))
        assert match, f"target {entry['target']!r} is not file:line"
        path = work / match.group(1)
        assert path.is_file(), f"{match.group(1)} does not exist"
        assert 1 <= int(match.group(2)) <= len(path.read_text().splitlines()), entry["target"]
        named.add(match.group(1))
    changed = _changed_sources(work, pristine_dir)
    assert changed, "no source file was changed"
    assert changed <= named, f"changed but not logged: {sorted(changed - named)}"
