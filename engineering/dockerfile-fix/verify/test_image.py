"""Hidden checks of dockerfile-fix (check ids of config.yaml)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Build, require_build
from mlebench_agent_run import run_agent

ROOT_USERS = {"", "root", "0"}
INSTALL_WORDS = ("pip", "requirements")
KEPT_OUT = ("data", ".git")


def _rows(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


def _same_scores(got: list[list[str]], expected: list[list[str]]) -> str | None:
    """``None`` when the scores match (6 decimals, 1e-6), else the first difference."""
    if not got or got[0] != expected[0]:
        return f"header {got[:1]} instead of {expected[0]}"
    if len(got) != len(expected):
        return f"{len(got) - 1} rows instead of {len(expected) - 1}"
    for line, (mine, theirs) in enumerate(zip(got[1:], expected[1:], strict=True), start=2):
        try:
            close = mine[0] == theirs[0] and abs(float(mine[1]) - float(theirs[1])) <= 1e-6
        except (IndexError, ValueError):
            close = False
        if not close:
            return f"line {line}: {mine} instead of {theirs}"
    return None


@pytest.mark.check("F1")
def test_the_image_builds_offline(build: Build, evidence: Callable[[str], None]) -> None:
    if build.ok:
        steps = len(build.facts.get("steps") or [])
        evidence(f"built in {build.facts.get('wall_s')} s, {steps} steps")
    else:
        evidence(build.describe()[:300])
    assert build.ok, build.describe()


@pytest.mark.check("F2")
def test_the_image_scores_the_hidden_input(
    build: Build,
    run_facts: dict[str, Any],
    build_dir: Path,
    private_dir: Path,
    evidence: Callable[[str], None],
) -> None:
    require_build(build)
    output = build_dir / "run" / "predictions.csv"
    log = build_dir / "run.log"
    evidence(
        f"docker run exit {run_facts.get('exit_code')}"
        + (" (timed out)" if run_facts.get("timed_out") else "")
        + f"; {log.read_text('utf-8')[-150:].strip() if log.is_file() else 'no log'}"
    )
    assert run_facts.get("exit_code") == 0, f"the run exited {run_facts.get('exit_code')}"
    assert output.is_file(), "no /output/predictions.csv"
    expected = _rows((private_dir / "expected.csv").read_text("utf-8"))
    difference = _same_scores(_rows(output.read_text("utf-8", "replace")), expected)
    evidence(difference or f"{len(expected) - 1} scores match")
    assert difference is None, difference


@pytest.mark.check("R1")
def test_the_image_does_not_run_as_root(build: Build, evidence: Callable[[str], None]) -> None:
    require_build(build)
    user = str(build.facts.get("user") or "")
    evidence(f"Config.User = {user!r}")
    name = user.split(":", 1)[0].strip()
    assert name not in ROOT_USERS, "the image runs as root (no USER, or USER root/0)"


@pytest.mark.check("R2")
def test_dockerignore_keeps_data_and_git_out(
    build: Build, work_dir: Path, evidence: Callable[[str], None]
) -> None:
    require_build(build)
    files = [str(name) for name in build.facts.get("context_files") or []]
    leaked = sorted({name.split("/", 1)[0] for name in files if name.split("/", 1)[0] in KEPT_OUT})
    size = build.facts.get("context_bytes")
    evidence(f"context: {len(files)} entries, {size} bytes; leaked {leaked}")
    assert (work_dir / ".dockerignore").is_file(), "no .dockerignore"
    assert not leaked, f"{', '.join(leaked)} reach the build context"


def _install_steps(build: Build) -> list[dict[str, Any]]:
    steps = build.facts.get("steps") or []
    return [
        step
        for step in steps
        if str(step.get("instruction", "")).upper().startswith("RUN")
        and any(word in str(step.get("instruction", "")).lower() for word in INSTALL_WORDS)
    ]


@pytest.mark.check("R3")
def test_a_source_change_keeps_the_install_layer(
    build: Build, rebuild: Build, evidence: Callable[[str], None]
) -> None:
    require_build(build)
    assert rebuild.ok, f"the rebuild after a change of predict.py failed ({rebuild.describe()})"
    steps = _install_steps(rebuild)
    total = len(rebuild.facts.get("steps") or [])
    evidence(
        f"rebuild: {rebuild.facts.get('cached_steps')}/{total} steps cached; "
        + "; ".join(f"{s['instruction'][:60]} cached={s['cached']}" for s in steps)
    )
    assert steps, "no RUN step installs requirements.txt"
    assert all(step.get("cached") for step in steps), "the install step ran again"


@pytest.mark.check("M1")
def test_image_size_above_the_base(
    build: Build, evidence: Callable[[str], None], metric: Callable[[str, float], None]
) -> None:
    require_build(build)
    size, base = build.facts.get("size"), build.facts.get("base_size")
    assert isinstance(size, int) and isinstance(base, int), "no size facts"
    added = max(size - base, 0) / 1e6
    evidence(f"{added:.3f} MB above the base image ({size} bytes)")
    metric("M1", round(added, 3))


@pytest.mark.check("M2")
def test_rebuild_time(
    rebuild: Build, evidence: Callable[[str], None], metric: Callable[[str, float], None]
) -> None:
    assert rebuild.ok, f"no rebuild ({rebuild.describe()})"
    wall = round(float(rebuild.facts.get("wall_s") or 0.0), 2)
    evidence(f"the rebuild after a change of predict.py took {wall} s")
    metric("M2", wall)


@pytest.mark.check("S1")
def test_hadolint_finds_no_error(work_dir: Path, evidence: Callable[[str], None]) -> None:
    hadolint = shutil.which("hadolint")
    assert hadolint, "hadolint is not in the verifier's image"
    dockerfile = work_dir / "Dockerfile"
    assert dockerfile.is_file(), "no Dockerfile"
    # as nobody, from a fresh folder: a .hadolint.yaml the agent planted is not read
    done = run_agent([hadolint, "--no-fail", "-f", "json", str(dockerfile)], timeout_s=60)
    assert not done.timed_out, done.output
    findings = json.loads(done.stdout or "[]")
    errors = [
        f"{item['code']} line {item['line']}: {item['message']}"
        for item in findings
        if item["level"] == "error"
    ]
    evidence("; ".join(errors)[:300] if errors else f"{len(findings)} findings, none error-level")
    assert not errors, errors
