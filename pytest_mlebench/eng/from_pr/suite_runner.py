"""Run a checkout's own pytest suite, offline, and read each test's outcome.

Two backends run the same command, ``python -m pytest`` from the checkout's root with junit XML:

- ``local``: this machine's Python (``--python``, default the current interpreter), in a fresh
  subprocess whose working folder is the temporary checkout; it uses what that Python has
  installed and nothing stops it reaching the network (weaker; the docs say so);
- ``docker``: a throw-away container of the ``eng`` image with ``--network none``, the checkout
  mounted at ``/repo``; the repository's dependencies are installed first from ``--wheelhouse``
  (``pip install --no-index --find-links``), so nothing is downloaded.

Each tree runs twice; a test whose outcome differs between the two runs is flaky.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pytest_mlebench.eng.from_pr.pr_repo import FromPrError
from pytest_mlebench.eng.from_pr.suite_results import (
    PYTEST_OPTIONS,
    REQUIREMENT_FILES,
    read_junit,
)

JUNIT = ".mle-from-pr-junit.xml"


@dataclass(frozen=True)
class SuiteRun:
    """The tests of one tree: node id → outcome, modules that failed to collect, flaky ids."""

    outcomes: dict[str, str]
    broken_modules: frozenset[str] = frozenset()
    flaky: frozenset[str] = frozenset()
    log: str = ""


@dataclass(frozen=True)
class Backend:
    kind: str = "local"  # local | docker
    python: str = field(default_factory=lambda: sys.executable)
    image: str = "pytest-mlebench-eng:latest"
    wheelhouse: Path | None = None
    timeout_s: float = 600.0

    def check(self) -> None:
        """Fail early, naming the fix, when this backend cannot run a pytest suite."""
        if self.kind == "docker":
            if self.wheelhouse is None or not self.wheelhouse.is_dir():
                raise FromPrError(
                    "the docker backend installs the repository's dependencies offline: pass "
                    "--wheelhouse DIR, a folder of wheels (`pip wheel -r requirements.txt -w DIR`),"
                    " or use --backend local"
                )
            if shutil.which("docker") is None:
                raise FromPrError("docker is not installed: install it or use --backend local")
            inspect = ["docker", "image", "inspect", self.image]
            if subprocess.run(inspect, capture_output=True).returncode != 0:
                raise FromPrError(
                    f"the image {self.image} is not built here: `mlebench sandbox build "
                    "--profile eng`, or pass --image"
                )
        done = subprocess.run(self._probe(), capture_output=True, text=True, timeout=self.timeout_s)
        if done.returncode != 0:
            where = f"the image {self.image}" if self.kind == "docker" else self.python
            raise FromPrError(
                f"pytest is missing in {where}: "
                + (
                    f"`{self.python} -m pip install pytest`"
                    if self.kind == "local"
                    else "build the eng image (`mlebench sandbox build --profile eng`)"
                )
                + f" ({(done.stderr or done.stdout).strip()[-300:]})"
            )

    def _probe(self) -> list[str]:
        if self.kind == "local":
            return [self.python, "-m", "pytest", "--version"]
        return ["docker", "run", "--rm", "--network", "none", self.image,
                "python3", "-m", "pytest", "--version"]  # fmt: skip

    def _container(self, tree: Path, script: str) -> list[str]:
        mounts = ["-v", f"{tree}:/repo"]
        if self.wheelhouse is not None:
            mounts += ["-v", f"{self.wheelhouse.resolve()}:/wheelhouse:ro"]
        return ["docker", "run", "--rm", "--network", "none", *mounts, "-w", "/repo",
                self.image, "sh", "-c", script]  # fmt: skip

    def run_once(self, tree: Path) -> SuiteRun:
        """One run of the suite in ``tree`` (a temporary checkout, written to)."""
        junit = tree / JUNIT
        junit.unlink(missing_ok=True)
        options = [*PYTEST_OPTIONS, f"--junitxml={JUNIT}"]
        if self.kind == "local":
            command = [self.python, "-m", "pytest", *options]
        else:
            command = self._container(tree, _docker_script(tree, options))
        try:
            done = subprocess.run(
                command, cwd=tree, capture_output=True, text=True, timeout=self.timeout_s
            )
        except subprocess.TimeoutExpired as exc:
            raise FromPrError(
                f"the test suite ran past {self.timeout_s:.0f} s in {tree}: raise --timeout"
            ) from exc
        log = (done.stdout + done.stderr)[-4000:]
        if not junit.is_file():
            raise FromPrError(f"pytest wrote no results (exit status {done.returncode}):\n{log}")
        outcomes, broken = read_junit(junit.read_text("utf-8"))
        junit.unlink()
        return SuiteRun(outcomes, frozenset(broken), log=log)

    def run(self, tree: Path) -> SuiteRun:
        """Two runs of the suite; tests whose outcomes differ are marked flaky."""
        first, second = self.run_once(tree), self.run_once(tree)
        flaky = {test for test in first.outcomes.keys() | second.outcomes.keys()
                 if first.outcomes.get(test) != second.outcomes.get(test)}  # fmt: skip
        return SuiteRun(
            first.outcomes, first.broken_modules | second.broken_modules, frozenset(flaky),
            first.log,
        )  # fmt: skip


def _docker_script(tree: Path, options: list[str]) -> str:
    """Install the checkout's dependencies from /wheelhouse (never the network), then run."""
    steps = []
    for name in REQUIREMENT_FILES:
        if (tree / name).is_file():
            steps.append(f"python3 -m pip install -q --no-index --find-links /wheelhouse "
                         f"--break-system-packages -r {name}")  # fmt: skip
    if (tree / "pyproject.toml").is_file() or (tree / "setup.py").is_file():
        steps.append("python3 -m pip install -q --no-index --find-links /wheelhouse "
                     "--break-system-packages --no-build-isolation --no-deps -e . "
                     "|| echo 'mlebench: the project itself did not install; tests import it "
                     "from the checkout'")  # fmt: skip
    quoted = " ".join(f"'{option}'" for option in options)
    steps.append(f"python3 -m pytest {quoted}; status=$?; chmod -R a+rwX /repo; exit $status")
    return " && ".join(steps)
