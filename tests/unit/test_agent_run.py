"""The verifier's one door for the agent's programs (``eng/verifier/mlebench_agent_run``).

Real processes of this machine's Python; nothing is faked. The drop to ``nobody`` and the sealed
hidden folders hold only in the verifier's container (PID 1 is the verifier): every task's
``forge-from-inside`` cheat proves that path end to end (``tests/eng/test_core_tasks.py``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

VERIFIER_DIR = Path(__file__).parents[2] / "pytest_mlebench" / "eng" / "verifier"


@pytest.fixture(scope="module")
def door() -> Iterator[Any]:
    sys.path.insert(0, str(VERIFIER_DIR))
    try:
        import mlebench_agent_run

        yield mlebench_agent_run
    finally:
        sys.path.remove(str(VERIFIER_DIR))


PRINT_ENV = "import json, os; print(json.dumps(dict(os.environ)))"


def test_the_program_gets_a_fresh_environment(
    door: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the verifier's own, as in its container
    monkeypatch.setenv("PRIVATE_DIR", "/private")
    monkeypatch.setenv("MLEBENCH_SEED", "7")
    monkeypatch.setenv("SOME_VERIFIER_SECRET", "x")
    done = door.run_agent(door.python_tool("json.tool", "--help"), env={"PORT": "8123"})
    assert done.ok, done.output
    env = door.run_agent([sys.executable, "-c", PRINT_ENV], env={"PORT": "8123"}).stdout
    seen = __import__("json").loads(env)
    assert seen["PORT"] == "8123" and seen["MLEBENCH_SEED"] == "7"
    assert seen["PATH"] == door.SAFE_PATH
    assert not {"PYTHONPATH", "PRIVATE_DIR", "SOME_VERIFIER_SECRET"} & set(seen)


@pytest.mark.parametrize(
    "name", ["PYTHONPATH", "PYTHONSTARTUP", "LD_PRELOAD", "BASH_ENV", "VERIFY_OUT"]
)
def test_variables_that_change_how_a_program_starts_are_refused(door: Any, name: str) -> None:
    with pytest.raises(door.UnsafeVerifier, match=f"{name} is not passed"):
        door.run_agent(["true"], env={name: "/tmp/x"})


def test_a_workspace_folder_cannot_shadow_a_tool(door: Any, tmp_path: Path) -> None:
    """``python3 -I -m json.tool`` run *in* a workspace that plants ``json/`` and a
    ``sitecustomize.py`` still runs the interpreter's own module, and runs nothing planted."""
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "__init__.py").write_text("raise SystemExit('shadowed')\n")
    (tmp_path / "sitecustomize.py").write_text("raise SystemExit('planted')\n")
    (tmp_path / "planted.pth").write_text("import os; os._exit(3)\n")
    done = door.run_agent(door.python_tool("json.tool"), cwd=tmp_path, stdin='{"a": 1}')
    assert done.ok and '"a": 1' in done.stdout, done.output


def test_the_agents_script_imports_its_own_modules(door: Any, tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("VALUE = 42\n")
    (tmp_path / "main.py").write_text("import helper; print(helper.VALUE)\n")
    done = door.run_agent(door.python_script(tmp_path / "main.py"))
    assert done.ok and done.stdout.strip() == "42", done.output


def test_a_hash_seed_the_verifier_chooses_reaches_the_interpreter(door: Any) -> None:
    argv = [*door.python_tool("this", hash_seeded=True)[:-2], "-c", "print(hash('a'))"]
    first = door.run_agent(argv, env={"PYTHONHASHSEED": "1"}).stdout
    again = door.run_agent(argv, env={"PYTHONHASHSEED": "1"}).stdout
    other = door.run_agent(argv, env={"PYTHONHASHSEED": "2"}).stdout
    assert first == again != other


def test_a_program_past_its_limit_is_killed_with_its_children(door: Any, tmp_path: Path) -> None:
    marker = tmp_path / "grandchild-lived"
    script = f"sleep 2 && touch {marker} & sleep 30"
    done = door.run_agent(["sh", "-c", script], timeout_s=0.5)
    assert done.timed_out and "killed after" in done.output
    time.sleep(2.5)
    assert not marker.exists(), "a child of the program outlived the call"


def test_no_call_outlasts_the_verifiers_time(door: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_TIME_LIMIT", "1")
    monkeypatch.setattr(door, "_LOADED", time.monotonic())
    done = door.run_agent(["sleep", "30"], timeout_s=60)
    assert done.timed_out and done.limit_s <= 0.9
    monkeypatch.setattr(door, "_LOADED", time.monotonic() - 5)  # the verifier's time is spent
    late = door.run_agent(["true"])
    assert late.timed_out and late.stderr == "no verifier time left"


def test_a_service_runs_until_stopped(door: Any, tmp_path: Path) -> None:
    service = door.start_agent(["sh", "-c", "echo up; exec sleep 30"], log=tmp_path / "s.log")
    deadline = time.monotonic() + 5
    while "up" not in service.log_tail() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.poll() is None and "up" in service.log_tail()
    service.stop(grace_s=0.5)
    assert service.poll() is not None


@pytest.fixture(scope="module")
def requirements(door: Any) -> Any:
    import mlebench_agent_requirements

    return mlebench_agent_requirements


@pytest.mark.parametrize(
    "line",
    [
        "-e .",
        "--index-url http://example.invalid/simple",
        "--find-links ./wheels",
        "-r other.txt",
        "./wheels/evil-1.0-py3-none-any.whl",
        "evil @ file:///work/evil",
        "git+https://example.invalid/evil.git",
        "evil==1.0 --find-links ./w",
        "https://example.invalid/evil.tar.gz",
    ],
)
def test_a_requirement_that_is_not_a_pin_is_refused(
    requirements: Any, tmp_path: Path, line: str
) -> None:
    path = tmp_path / "requirements.txt"
    path.write_text(f"numpy==1.26.4\n{line}\n")
    with pytest.raises(requirements.RequirementRefused, match="requirements.txt:2"):
        requirements.read_requirements(path)


def test_pins_extras_ranges_and_markers_are_read(requirements: Any, tmp_path: Path) -> None:
    path = tmp_path / "requirements.txt"
    path.write_text(
        "# pinned\nnumpy==1.26.4  # the array library\nuvicorn[standard]>=0.20,<1\n"
        "\ntomli==2.0.1 ; python_version < '3.11'\n"
    )
    assert requirements.read_requirements(path) == [
        "numpy==1.26.4",
        "uvicorn[standard]>=0.20,<1",
        "tomli==2.0.1 ; python_version < '3.11'",
    ]


def test_a_copy_for_the_agent_keeps_links_as_links(door: Any, tmp_path: Path) -> None:
    """Root copying ``leak -> /private/answers.csv`` by following it would hand the answers to
    the agent's program."""
    secret = tmp_path / "private" / "answers.csv"
    secret.parent.mkdir()
    secret.write_text("the answers\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "leak").symlink_to(secret)
    copy = door.agent_copy(work, tmp_path / "copy")
    assert (copy / "leak").is_symlink() and (copy / "leak").readlink() == secret


def test_the_agents_own_variables_are_filtered_not_refused(door: Any) -> None:
    kept, dropped = door.without_refused({"HTTP_PORT": "8080", "PYTHONPATH": "/work"})
    assert kept == {"HTTP_PORT": "8080"} and dropped == ["PYTHONPATH"]
