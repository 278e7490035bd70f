"""Hidden checks of dataloader-multiprocessing (ids as in config.yaml)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import EPOCHS, Run

TAU = 0.85  # hidden accuracy of the model trained under spawn
KINDS = {"spawn": "SpawnProcess", "forkserver": "ForkServerProcess"}


def _assert_trained_with_workers(run: Run, rows: int) -> None:
    """The run ended, yielded every sample of every epoch, and loaded them in worker processes
    of the start method the verifier chose."""
    assert run.returncode == 0, run.log
    passes = run.passes
    assert passes, "the probe saw no torch DataLoader being iterated"
    assert sum(p["samples"] for p in passes) == EPOCHS * rows, "not every sample was loaded"
    assert all(p["workers"] > 0 for p in passes), "a pass loaded data in the main process"
    assert {k for p in passes for k in p["kinds"]} == {KINDS[run.method]}
    losses = json.loads((run.out_dir / "losses.json").read_text())
    assert len(losses) == EPOCHS and all(math.isfinite(float(v)) for v in losses), losses


def _state(run: Run) -> dict[str, np.ndarray]:
    state = torch.load(run.out_dir / "model.pt", map_location="cpu")
    return {key: value.detach().numpy() for key, value in state.items()}


@pytest.mark.check("F1")
def test_train_ends_under_spawn(spawn_run, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(spawn_run.summary())
    _assert_trained_with_workers(spawn_run, facts["rows"])


@pytest.mark.check("F2")
def test_spawn_model_accuracy(spawn_run, private_dir: Path, evidence) -> None:  # type: ignore[no-untyped-def]
    assert spawn_run.returncode == 0, spawn_run.log
    state = _state(spawn_run)
    hidden = np.load(private_dir / "hidden.npz")
    logits = hidden["X"] @ state["weight"].T + state["bias"]
    accuracy = float((logits.argmax(axis=1) == hidden["y"]).mean())
    evidence(f"hidden accuracy {accuracy:.4f} (τ = {TAU})")
    assert accuracy >= TAU


@pytest.mark.check("R1")
def test_train_ends_under_forkserver(forkserver_run, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(forkserver_run.summary())
    _assert_trained_with_workers(forkserver_run, facts["rows"])


def _assert_same_result(run: Run, serial: Run) -> tuple[float, float]:
    assert run.returncode == 0 and serial.returncode == 0, run.log + serial.log
    ours, theirs = _state(run), _state(serial)
    assert set(ours) == set(theirs)
    weight_gap = max(float(np.abs(ours[k] - theirs[k]).max()) for k in ours)
    ours_loss = json.loads((run.out_dir / "losses.json").read_text())
    serial_loss = json.loads((serial.out_dir / "losses.json").read_text())
    loss_gap = max(abs(float(a) - float(b)) for a, b in zip(ours_loss, serial_loss, strict=True))
    assert weight_gap <= 1e-6 and loss_gap <= 1e-6, (
        f"max |Δw| {weight_gap:.3g}, |Δloss| {loss_gap:.3g}"
    )
    return weight_gap, loss_gap


@pytest.mark.check("R2")
def test_spawn_result_equals_serial(spawn_run, serial_run, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(serial_run.summary())
    weight_gap, loss_gap = _assert_same_result(spawn_run, serial_run)
    evidence(f"spawn vs num_workers=0: max |Δw| {weight_gap:.3g}, |Δloss| {loss_gap:.3g}")


@pytest.mark.check("R2")
def test_forkserver_result_equals_serial(forkserver_run, serial_run, evidence) -> None:  # type: ignore[no-untyped-def]
    weight_gap, loss_gap = _assert_same_result(forkserver_run, serial_run)
    evidence(f"forkserver vs num_workers=0: max |Δw| {weight_gap:.3g}, |Δloss| {loss_gap:.3g}")


@pytest.mark.check("R2")
def test_augmentation_still_applied(serial_run, scratch: Path, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    """Equal results are cheap without noise: the first batch must still differ from the raw
    rows by about the promised noise (each sample matched to its nearest raw row)."""
    assert serial_run.returncode == 0, serial_run.log
    first = next((p["first"] for p in serial_run.passes if p["first"]), None)
    assert first, "the probe saw no batch"
    batch = np.asarray(first, dtype=np.float64)
    raw = np.fromfile(scratch / "data" / "train.f32", dtype="<f4").reshape(facts["rows"], -1)
    raw = raw[:, :-1].astype(np.float64)
    nearest = ((batch[:, None, :] - raw[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    spread = float((batch - raw[nearest]).std())
    evidence(f"noise in the first batch: std {spread:.4f} (promised {facts['noise_std']})")
    assert 0.5 * facts["noise_std"] <= spread <= 2.0 * facts["noise_std"]


@pytest.mark.check("R3")
def test_worker_count_follows_cpu_count(spawn_run, forkserver_run, serial_run, evidence) -> None:  # type: ignore[no-untyped-def]
    seen = {}
    for run in (spawn_run, forkserver_run, serial_run):
        assert run.returncode == 0, run.log
        seen[run.name] = (run.cpu_count, sorted({p["workers"] for p in run.passes}))
    evidence(", ".join(f"{n}: CPU_COUNT={c} → workers {w}" for n, (c, w) in seen.items()))
    assert all(workers == [count] for count, workers in seen.values())
