"""Hidden checks of dataloader-multiprocessing (ids as in config.yaml)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import EPOCHS, Run
from mlebench_agent_code import agent_module

TAU = 0.85  # hidden accuracy of the model trained under spawn
KINDS = {"spawn": "SpawnProcess", "forkserver": "ForkServerProcess"}
BATCH = 32  # rows read through the agent's dataset for the noise check


def _assert_trained_with_workers(run: Run) -> None:
    """The run ended and loaded its data in worker processes of the start method the verifier
    chose (seen in /proc, from outside the run), and every epoch's loss is finite."""
    assert run.returncode == 0, run.log
    assert run.workers > 0, "no DataLoader worker process was seen: the data loaded in the main one"
    assert run.kinds == [KINDS[run.method]], f"workers {run.kinds}, not {KINDS[run.method]}"
    losses = json.loads((run.out_dir / "losses.json").read_text())
    assert len(losses) == EPOCHS and all(math.isfinite(float(v)) for v in losses), losses


def _state(run: Run) -> dict[str, np.ndarray]:
    state = torch.load(run.out_dir / "model.pt", map_location="cpu")
    return {key: value.detach().numpy() for key, value in state.items()}


@pytest.mark.check("F1")
def test_train_ends_under_spawn(spawn_run, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(spawn_run.summary())
    _assert_trained_with_workers(spawn_run)


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
    _assert_trained_with_workers(forkserver_run)


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
    """Equal results are cheap without noise: the rows the agent's ``RowDataset`` returns (read
    through the verifier's proxy, in a child process) must still differ from the raw rows by
    about the promised noise."""
    assert serial_run.returncode == 0, serial_run.log
    rows = agent_module("rows", Path(os.environ["WORK_DIR"]), timeout_s=30)
    dataset = rows.RowDataset(str(scratch / "data"), seed=int(os.environ.get("MLEBENCH_SEED", "0")))
    sample = range(BATCH)
    batch = np.stack([np.asarray(dataset[index][0], dtype=np.float64) for index in sample])
    raw = np.fromfile(scratch / "data" / "train.f32", dtype="<f4").reshape(facts["rows"], -1)
    raw = raw[: len(sample), :-1].astype(np.float64)
    spread = float((batch - raw).std())
    evidence(f"noise in {len(sample)} rows: std {spread:.4f} (promised {facts['noise_std']})")
    assert 0.5 * facts["noise_std"] <= spread <= 2.0 * facts["noise_std"]


@pytest.mark.check("R3")
def test_worker_count_follows_cpu_count(spawn_run, forkserver_run, serial_run, evidence) -> None:  # type: ignore[no-untyped-def]
    seen = {}
    for run in (spawn_run, forkserver_run, serial_run):
        assert run.returncode == 0, run.log
        seen[run.name] = (run.cpu_count, run.workers)
    evidence(", ".join(f"{n}: CPU_COUNT={c} → workers {w}" for n, (c, w) in seen.items()))
    assert all(workers == count for count, workers in seen.values())
