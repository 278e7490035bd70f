"""The verifier's door to the agent's Python code (``eng/verifier/mlebench_agent_code``).

A real child process imports a small agent module written by each test; nothing is faked. The
run as ``nobody`` happens only in the verifier's container (PID 1 is the verifier): the tasks'
``patch-verifier`` cheats prove that path end to end (``tests/eng/test_core_tasks.py``).
"""

from __future__ import annotations

import builtins
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

VERIFIER_DIR = Path(__file__).parents[2] / "pytest_mlebench" / "eng" / "verifier"

AGENT_MODULE = """
import builtins, sys, time
import numpy as np
import pandas as pd

builtins.forged_by_agent = True  # must stay in the agent's own process
sys.modules.setdefault("mlebench_verify", type(sys)("mlebench_verify")).results = {"F1": 1.0}

class Model:
    def __init__(self, weights):
        self.weights = np.asarray(weights, dtype=float)
    def predict(self, rows):
        return np.asarray(rows, dtype=float) @ self.weights

class Tricky:
    def __reduce__(self):  # would run code in whoever unpickles it
        return (print, ("unpickled",))

def fit(weights):
    return Model(weights)

def score(model, rows):
    return float(model.predict(rows).sum())

def frame():
    return pd.DataFrame({"a": [1, 2], "b": ["x", None]}, index=[10, 20])

def series():
    return pd.Series([0.5, 1.5], name="p")

def mixed():
    return {"n": 3, "t": (1, "two"), "when": pd.Timestamp("2026-01-02"), "none": None}

def tricky():
    return [Tricky()]

def boom():
    raise ValueError("bad input")
"""


@pytest.fixture(scope="module")
def agent_code() -> Iterator[Any]:
    sys.path.insert(0, str(VERIFIER_DIR))
    try:
        import mlebench_agent_code

        yield mlebench_agent_code
    finally:
        sys.path.remove(str(VERIFIER_DIR))


def _workspace(root: Path, source: str, name: str = "agent_mod") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{name}.py").write_text(textwrap.dedent(source), "utf-8")
    return root


@pytest.fixture(scope="module")
def remote(agent_code: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    work = _workspace(tmp_path_factory.mktemp("agent"), AGENT_MODULE)
    return agent_code.agent_module("agent_mod", work, timeout_s=30)


def test_calls_and_objects_stay_in_the_child(agent_code: Any, remote: Any) -> None:
    model = remote.fit([1.0, 2.0])
    assert agent_code.type_name(model) == "Model"
    assert isinstance(model, agent_code.Remote)
    np.testing.assert_allclose(model.predict([[1, 1], [2, 0]]), [3.0, 2.0])
    np.testing.assert_allclose(np.asarray(model.weights), [1.0, 2.0])
    assert remote.score(model, [[1, 1]]) == 3.0  # a handle goes back to the child as its object
    with pytest.raises(AttributeError):
        model.weights = [0.0]  # the verifier reads the agent's objects; it never writes them


def test_values_come_back_as_plain_data(remote: Any) -> None:
    frame = remote.frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["a", "b"] and list(frame.index) == [10, 20]
    assert frame["b"].iloc[0] == "x" and frame["b"].isna().tolist() == [False, True]
    series = remote.series()
    assert isinstance(series, pd.Series) and series.name == "p" and series.tolist() == [0.5, 1.5]
    mixed = remote.mixed()
    assert mixed["n"] == 3 and mixed["t"] == (1, "two") and mixed["none"] is None
    assert str(mixed["when"]).startswith("2026-01-02")


def test_an_object_that_would_unpickle_into_code_comes_back_as_a_handle(
    agent_code: Any, remote: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    (item,) = remote.tricky()
    assert agent_code.type_name(item) == "Tricky"
    assert "unpickled" not in capsys.readouterr().out


def test_the_agents_module_level_code_cannot_touch_the_verifier(remote: Any) -> None:
    assert not hasattr(builtins, "forged_by_agent")
    assert "results" not in vars(sys.modules.get("mlebench_verify", type(sys)("absent")))


def test_agent_exceptions_keep_their_builtin_type(agent_code: Any, remote: Any) -> None:
    with pytest.raises(ValueError, match="bad input") as raised:
        remote.boom()
    assert isinstance(raised.value, agent_code.AgentCodeError)
    assert getattr(remote, "no_such_name", "default") == "default"


SLOW_MODULE = """
import time

def slow():
    time.sleep(60)

def fast():
    return 1
"""


def test_a_call_past_its_timeout_kills_the_child(agent_code: Any, tmp_path: Path) -> None:
    work = _workspace(tmp_path / "slow", SLOW_MODULE)  # no numpy: its import is not timed
    module = agent_code.agent_module("agent_mod", work, timeout_s=3)
    with pytest.raises(agent_code.AgentCodeError, match="ran past 3 s"):
        module.slow()
    with pytest.raises(agent_code.AgentCodeError, match="ran past"):
        module.fast()  # the child is gone: every later use says why


def test_no_call_outlasts_the_verifiers_time(
    agent_code: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hang under the default timeout (120 s) still ends before the verifier's own limit: the
    check fails as the agent's, instead of the verifier running out of time (an error)."""
    monkeypatch.setenv("VERIFY_TIME_LIMIT", "5")
    door = sys.modules["mlebench_agent_run"]
    monkeypatch.setattr(door, "_LOADED", time.monotonic())  # the verifier started now
    module = agent_code.agent_module("agent_mod", _workspace(tmp_path / "hang", SLOW_MODULE))
    with pytest.raises(agent_code.AgentCodeError, match="ran past 90 % of the verifier's 5 s"):
        module.slow()  # sleeps 60 s


def test_a_module_that_does_not_import_is_the_agents_failure(
    agent_code: Any, tmp_path: Path
) -> None:
    work = _workspace(tmp_path / "broken", "import no_such_package_here\n")
    with pytest.raises(agent_code.AgentCodeError, match="ModuleNotFoundError"):
        agent_code.agent_module("agent_mod", work)


def test_the_same_failure_raises_the_same_type_each_time(agent_code: Any, remote: Any) -> None:
    """Property-based checks (hypothesis) tell failures apart by their type and origin."""
    kinds = set()
    for _ in range(2):
        with pytest.raises(ValueError) as raised:
            remote.boom()
        kinds.add(type(raised.value))
    assert len(kinds) == 1
