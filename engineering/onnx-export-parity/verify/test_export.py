"""Hidden checks of onnx-export-parity (check ids of config.yaml)."""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import TOLERANCE, make_session, run_session
from mlebench_agent_run import python_script, run_agent

MODEL_FILES = ("model.py", "weights.npz", "model_config.json")


@pytest.mark.check("F1")
def test_checker_opset_and_names(onnx_path: Path, evidence: Callable[[str], None]) -> None:
    import onnx

    assert onnx_path.is_file(), "export/model.onnx does not exist"
    onnx.checker.check_model(str(onnx_path), full_check=True)
    model = onnx.load(str(onnx_path))
    opsets = {entry.domain or "ai.onnx": entry.version for entry in model.opset_import}
    evidence(f"opset {opsets.get('ai.onnx')}")
    assert opsets.get("ai.onnx") == 17, f"default-domain opset is {opsets.get('ai.onnx')}, not 17"
    assert [
        i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}
    ] == ["input"]
    assert [o.name for o in model.graph.output] == ["logits"]


@pytest.mark.check("F2")
def test_hidden_inputs_match(
    session: Any, hidden: dict, reference: Callable, evidence: Callable
) -> None:
    deltas = [float(np.abs(run_session(session, x) - reference(x)).max()) for x in hidden["single"]]
    evidence(f"max |Δ| {max(deltas):.2e} over {len(deltas)} hidden inputs")
    assert max(deltas) <= TOLERANCE


@pytest.mark.check("B1")
@pytest.mark.parametrize("batch", ["b1", "b3", "b17"])
def test_dynamic_batch(
    batch: str, session: Any, hidden: dict, reference: Callable, evidence: Callable
) -> None:
    x = hidden[batch]
    got = run_session(session, x)
    assert got.shape[0] == x.shape[0]
    delta = float(np.abs(got - reference(x)).max())
    evidence(f"batch {x.shape[0]}: max |Δ| {delta:.2e}")
    assert delta <= TOLERANCE


@pytest.mark.check("B2")
def test_eval_mode_graph(onnx_path: Path, session: Any, hidden: dict, evidence: Callable) -> None:
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    constants = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant":
            constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    for node in graph.node:
        if node.op_type == "BatchNormalization":
            modes = [a.i for a in node.attribute if a.name == "training_mode"]
            assert modes in ([], [0]) and len(node.output) == 1, (
                "BatchNormalization in training mode"
            )
        if node.op_type == "Dropout" and len(node.input) >= 3 and node.input[2]:
            flag = constants.get(node.input[2])
            assert flag is None or not bool(np.asarray(flag)), "Dropout exported in training mode"
    x = hidden["b3"]
    assert np.array_equal(run_session(session, x), run_session(session, x)), "outputs are random"
    evidence("no training-mode BatchNormalization or Dropout; repeated runs identical")


@pytest.mark.check("B3")
def test_reexport_from_export_py(
    work_dir: Path,
    pristine_dir: Path,
    hidden: dict,
    reference: Callable,
    evidence: Callable,
) -> None:
    base = Path(tempfile.mkdtemp(prefix="reexport-"))  # not under pytest's root-only tmp root
    copy = base / "work"
    shutil.copytree(work_dir, copy, symlinks=True)
    for name in MODEL_FILES:  # the model is the task's, whatever the copy holds
        (copy / name).unlink(missing_ok=True)  # never write through a link the agent planted
        shutil.copy2(pristine_dir / name, copy / name)
    target = copy / "export" / "model.onnx"
    if target.exists():
        target.unlink()
    done = run_agent(python_script("export.py"), cwd=copy, writable=(base,), timeout_s=90)
    assert done.ok, f"python3 export.py exited {done.returncode}: {done.output[-300:]}"
    assert target.is_file(), "python3 export.py did not write export/model.onnx"
    session = make_session(target)
    delta = max(
        float(np.abs(run_session(session, hidden[b]) - reference(hidden[b])).max())
        for b in ("b1", "b17")
    )
    evidence(f"re-exported file: max |Δ| {delta:.2e}")
    assert delta <= TOLERANCE


@pytest.mark.check("X1")
def test_reported_delta(work_dir: Path, measured: float, evidence: Callable) -> None:
    report = json.loads((work_dir / "REPORT.json").read_text("utf-8"))
    claimed = float(report["max_abs_diff"])
    evidence(f"reported {claimed:.2e}, measured {measured:.2e}")
    assert not math.isnan(measured), "the export does not run on every hidden batch"
    floor = 1e-8  # float32 noise: below this, any small value is the same claim
    low, high = sorted((max(claimed, floor), max(measured, floor)))
    assert high / low <= 10.0, "the reported difference is not within 10x of the measured one"
