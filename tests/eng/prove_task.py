"""Prove an engineering task folder by hand: prepare, an agent script, the hidden verifier.

This is the manual proof of a task in ``engineering/<id>/`` before the engine runs it through
pytest. It follows the run that ``docs/engineering.md`` describes ("The run"), with plain
``docker run``:

1. a copy of ``workspace/`` is prepared with the task's ``prepare(workspace, private, seed)``;
2. the agent phase runs ``solution/solve.sh`` (``oracle``), nothing (``noop``) or
   ``cheats/NAME.sh`` (``cheat:NAME``) in a container with the workspace at ``/home/work``
   (cwd), ``--network none``, and the env the harness gives an agent;
3. the verifier runs in a FRESH container: ``/verify`` (ro), ``/private`` (ro), ``/work`` (a copy
   of the agent's workspace with every pristine ``tests/`` file restored), ``/pristine`` (ro),
   ``/out``, the plugin on ``PYTHONPATH``, ``--network none``;
4. ``/out/checks.json`` is read back and scored the way ``docs/engineering.md`` ("Scoring")
   describes (harness ``H-`` checks left out: they need the harness).

Usage (from the repository root)::

    python tests/eng/prove_task.py engineering/onnx-export-parity --image engprobe-ort:1
    python tests/eng/prove_task.py engineering/flask-service-deploy --all

``--all`` runs the oracle, the noop agent and every cheat and checks the task's promises: the oracle
passes every gate with a score of at least 0.95, the noop agent and every cheat fail a gate.
Before any run the folder is checked by the task loader and the shipped-task rules (``lint``).
With ``PROVE_DURATIONS=1`` the verifier's pytest also prints its slowest tests.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pytest_mlebench.eng.task import load_task
from pytest_mlebench.errors import ConfigError

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "pytest_mlebench" / "eng" / "verifier"
DEFAULT_WEIGHTS = {
    "functional": 0.40,
    "robustness": 0.25,
    "efficiency": 0.15,
    "explainability": 0.10,
    "safety": 0.10,
}
AGENT_WORK = "/home/work"
DURATIONS = bool(os.environ.get("PROVE_DURATIONS"))
VERIFY_WORK = "/work"


@dataclass
class Proof:
    """What one agent run of a task gave: per-check results, the score, the times."""

    task: str
    agent: str
    seed: int
    results: dict[str, float]
    gates_failed: list[str]
    score: float
    agent_wall_s: float
    verifier_wall_s: float
    exit_status: int
    checks: dict[str, Any] = field(default_factory=dict)
    log: str = ""

    @property
    def passed(self) -> bool:
        return not self.gates_failed


def load_config(task_dir: Path) -> dict[str, Any]:
    config: dict[str, Any] = yaml.safe_load((task_dir / "config.yaml").read_text("utf-8"))
    return config


SHIPPED_FILES = ("README.md", "solution/solve.sh")


def lint(task_dir: Path) -> list[str]:
    """The problems of one task folder (empty when it is sound): the loader's verdict
    (:func:`~pytest_mlebench.eng.task.load_task`: every rule of the format, the number of cheats
    among them), then what a shipped task adds — its README, the oracle's script and the oracle's
    measured wall time."""
    try:
        task = load_task(task_dir)
    except ConfigError as error:
        return [str(error)]
    problems = [f"missing {name}" for name in SHIPPED_FILES if not (task_dir / name).exists()]
    if task.oracle_wall_s is None:
        problems.append("evidence.oracle_wall_s is missing")
    return problems


def prepared_digest(task_dir: Path, seed: int) -> str:
    """One digest of the prepared workspace, private files and env of ``seed`` (determinism)."""
    with tempfile.TemporaryDirectory() as tmp:
        work, private = Path(tmp) / "work", Path(tmp) / "private"
        shutil.copytree(task_dir / "workspace", work, symlinks=True)
        private.mkdir()
        env = run_prepare(task_dir, work, private, seed)
        digest = hashlib.sha256(json.dumps(env, sort_keys=True).encode())
        for root in (work, private):
            if (root / ".git").is_dir():  # history by its commits; git's index caches file times
                log = ["git", "-C", str(root), "log", "--all", "--format=%H %T %an %ad"]
                digest.update(subprocess.run(log, capture_output=True, check=True).stdout)
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                if ".git" in path.relative_to(root).parts:
                    continue
                digest.update(str(path.relative_to(root.parent)).encode())
                digest.update(path.read_bytes())
        return digest.hexdigest()


def run_prepare(task_dir: Path, workspace: Path, private: Path, seed: int) -> dict[str, str]:
    spec = importlib.util.spec_from_file_location(
        f"prepare_{task_dir.name}", task_dir / "prepare.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    env = module.prepare(workspace, private, seed)
    return {str(key): str(value) for key, value in env.items()}


def _agent_script(task_dir: Path, agent: str) -> Path | None:
    if agent == "noop":
        return None
    if agent == "oracle":
        return task_dir / "solution" / "solve.sh"
    if agent.startswith("cheat:"):
        return task_dir / "cheats" / f"{agent.split(':', 1)[1]}.sh"
    raise SystemExit(f"unknown agent {agent!r}: use oracle, noop or cheat:NAME")


def _env_flags(env: dict[str, str]) -> list[str]:
    flags: list[str] = []
    for key, value in env.items():
        flags += ["-e", f"{key}={value}"]
    return flags


def _substituted(env: dict[str, str], work_dir: str) -> dict[str, str]:
    return {key: value.replace("{WORK_DIR}", work_dir) for key, value in env.items()}


def run_agent(
    task_dir: Path, agent: str, work: Path, env: dict[str, str], seed: int, image: str, timeout: int
) -> tuple[float, str]:
    script = _agent_script(task_dir, agent)
    if script is None:
        return 0.0, ""
    if not script.is_file():
        raise SystemExit(f"{script} does not exist")
    start_ns = time.time_ns()
    base_env = {
        "WORK_DIR": AGENT_WORK,
        "TASK_ID": task_dir.name,
        "MLEBENCH_SEED": str(seed),
        "LOGS_DIR": "/home/logs",
        "HOME": "/root",
    }
    command = [
        "docker", "run", "--rm", "--network", "none", "--cpus", "2", "--memory", "2g",
        "-v", f"{work}:{AGENT_WORK}", "-v", f"{script.parent}:/home/agent/solution:ro",
        "-w", AGENT_WORK,
        *_env_flags({**base_env, **_substituted(env, AGENT_WORK)}),
        image, "bash", "-c",
        f"mkdir -p /home/logs && echo {start_ns} > /tmp/mle-bench-start.time"
        f" && bash /home/agent/solution/{script.name}",
    ]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    return time.monotonic() - started, done.stdout[-3000:] + done.stderr[-3000:]


def restore_tests(work: Path, pristine: Path) -> None:
    tests = pristine / "tests"
    if not tests.is_dir():
        return
    for source in tests.rglob("*"):
        if source.is_file():
            target = work / source.relative_to(pristine)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.is_dir():
                shutil.rmtree(target) if target.is_dir() else target.unlink()
            shutil.copy2(source, target)


def run_verifier(
    task_dir: Path,
    config: dict[str, Any],
    root: Path,
    env: dict[str, str],
    seed: int,
    image: str,
    start_ns: int,
) -> tuple[dict[str, Any], str]:
    verify_work = root / "verify-work"
    shutil.copytree(root / "work", verify_work, symlinks=True)
    restore_tests(verify_work, root / "pristine")
    out = root / "out"
    out.mkdir()
    # /private readable by root only: the checks run the agent's code as another user
    (root / "private").chmod(0o700)
    limits = config.get("verify", {})
    resources = limits.get("resources", {})
    base_env = {
        "WORK_DIR": VERIFY_WORK,
        "PRIVATE_DIR": "/private",
        "PRISTINE_DIR": "/pristine",
        "VERIFY_OUT": "/out",
        "MLEBENCH_SEED": str(seed),
        "TASK_ID": task_dir.name,
        "START_TIME_NS": str(start_ns),
        "VERIFY_TIME_LIMIT": str(int(limits.get("time_limit", 120))),
        "PYTHONPATH": "/mlebench",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    command = [
        "docker", "run", "--rm", "--network", "none",
        "--cpus", str(resources.get("cpus", 2)), "--memory", str(resources.get("memory", "2g")),
        "-v", f"{(task_dir / 'verify').resolve()}:/verify:ro",
        "-v", f"{root / 'private'}:/private:ro",
        "-v", f"{verify_work}:{VERIFY_WORK}",
        "-v", f"{root / 'pristine'}:/pristine:ro",
        "-v", f"{out}:/out",
        "-v", f"{PLUGIN_DIR}:/mlebench:ro",
        *_env_flags({**base_env, **_substituted(env, VERIFY_WORK)}),
        image, "bash", "-c",
        "cd /verify && python3 -m pytest -p mlebench_verify -p no:cacheprovider -q"
        + (" --durations=8" if DURATIONS else ""),
    ]  # fmt: skip
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=int(limits.get("time_limit", 120)) + 30,
        check=False,
    )
    log = done.stdout[-6000:] + done.stderr[-3000:]
    checks_file = out / "checks.json"
    if not checks_file.is_file():
        raise SystemExit(f"the verifier wrote no checks.json (exit {done.returncode}):\n{log}")
    checks: dict[str, Any] = json.loads(checks_file.read_text("utf-8"))
    return checks, log


def score(
    config: dict[str, Any], checks: dict[str, Any]
) -> tuple[dict[str, float], list[str], float]:
    """Check results, failed gates and the task score as ``docs/engineering.md``'s Scoring has
    them (no ``H-`` checks)."""
    metrics = config.get("metrics") or {}
    measured = checks.get("metrics", {})
    results: dict[str, float] = {}
    for check in config["checks"]:
        cid = check["id"]
        entry = checks["checks"].get(cid)
        result = float(entry["result"]) if entry else 0.0
        if cid in metrics:
            spec = metrics[cid]
            value = measured.get(cid)
            if value is None or result < 1.0:
                result = 0.0
            else:
                span = spec["oracle"] - spec["baseline"]
                result = min(max((value - spec["baseline"]) / span, 0.0), 1.0)
        results[cid] = result
    weights = config.get("weights") or DEFAULT_WEIGHTS
    totals: dict[str, list[float]] = {}
    for check in config["checks"]:
        pair = totals.setdefault(check["dimension"], [0.0, 0.0])
        pair[0] += check["weight"] * results[check["id"]]
        pair[1] += check["weight"]
    present = {dim: pair[0] / pair[1] for dim, pair in totals.items() if pair[1] > 0}
    weight_present = sum(weights[dim] for dim in present)
    total = sum(weights[dim] * value for dim, value in present.items()) / weight_present
    gates = [c["id"] for c in config["checks"] if c.get("gate") and results[c["id"]] < 1.0]
    return results, gates, round(total, 4)


def prove(task_dir: Path, agent: str, seed: int = 0, image: str = "engprobe:1") -> Proof:
    """Run ``agent`` on ``task_dir`` for ``seed`` and return what the verifier found."""
    task_dir = task_dir.resolve()
    config = load_config(task_dir)
    with tempfile.TemporaryDirectory(prefix=f"prove-{task_dir.name}-") as tmp:
        root = Path(tmp)
        work = root / "work"
        shutil.copytree(task_dir / "workspace", work, symlinks=True)
        (root / "private").mkdir()
        env = run_prepare(task_dir, work, root / "private", seed)
        shutil.copytree(work, root / "pristine", symlinks=True)
        start_ns = time.time_ns()
        agent_wall, agent_log = run_agent(
            task_dir, agent, work, env, seed, image, int(config.get("time_limit", 1800))
        )
        started = time.monotonic()
        checks, log = run_verifier(task_dir, config, root, env, seed, image, start_ns)
        verifier_wall = time.monotonic() - started
        results, gates, total = score(config, checks)
        # the containers ran as root: hand the tree back so the temp dir can go
        subprocess.run(["chmod", "-R", "u+rwX", str(root)], check=False)
    return Proof(
        task=task_dir.name,
        agent=agent,
        seed=seed,
        results=results,
        gates_failed=gates,
        score=total,
        agent_wall_s=round(agent_wall, 2),
        verifier_wall_s=round(verifier_wall, 2),
        exit_status=int(checks["exit_status"]),
        checks=checks,
        log=agent_log + "\n--- verifier ---\n" + log,
    )


def _print(proof: Proof, verbose: bool) -> None:
    state = "PASS" if proof.passed else f"FAIL gates {','.join(proof.gates_failed)}"
    cells = " ".join(f"{cid}={value:.2f}" for cid, value in proof.results.items())
    print(
        f"{proof.task} s{proof.seed} {proof.agent:<24} {state:<22} score={proof.score:.3f} "
        f"agent={proof.agent_wall_s:.1f}s verifier={proof.verifier_wall_s:.1f}s "
        f"(in-container {proof.checks['wall_s']:.1f}s) | {cells}"
    )
    if verbose:
        for cid, entry in proof.checks["checks"].items():
            for test in entry["tests"]:
                if test["outcome"] != "passed":
                    print(f"    {cid} {test['name']}: {test['outcome']} {test['message']}")
            for text in entry["evidence"]:
                print(f"    {cid} evidence: {text}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("task_dir", type=Path)
    parser.add_argument("--agent", default="oracle")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--image", default="engprobe:1")
    parser.add_argument("--all", action="store_true", help="oracle, noop and every cheat")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    problems = lint(args.task_dir)
    if problems:
        print(f"{args.task_dir}: " + "; ".join(problems), file=sys.stderr)
        return 1
    agents = [args.agent]
    if args.all:
        cheats = sorted((args.task_dir / "cheats").glob("*.sh"))
        agents = ["oracle", "noop", *(f"cheat:{path.stem}" for path in cheats)]
    broken = []
    for agent in agents:
        proof = prove(args.task_dir, agent, args.seed, args.image)
        _print(proof, args.verbose)
        if proof.exit_status not in (0, 1):
            broken.append(f"{agent}: verifier exit {proof.exit_status}\n{proof.log}")
        elif agent == "oracle" and (not proof.passed or proof.score < 0.95):
            broken.append(f"oracle: gates {proof.gates_failed}, score {proof.score}\n{proof.log}")
        elif agent != "oracle" and proof.passed:
            broken.append(f"{agent}: passed every gate (not caught)\n{proof.log}")
    for text in broken:
        print(text, file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
