"""``mlebench eng from-pr`` on a generated repository, and the task it writes proven by hand.

The repository (:mod:`.repo_factory`) has five tests; its change breaks two. The task is built
once through the command line with the local backend; then its verifier runs against the
untouched workspace (F1 fails), after the oracle (every check passes) and after the test-editing
cheat (caught).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mlebench.cli import build_parser, main
from pytest_mlebench.eng.from_pr.pr_repo import FromPrError
from pytest_mlebench.eng.from_pr.pr_split import split_tests
from pytest_mlebench.eng.from_pr.pr_task import Request, build_task, task_root
from pytest_mlebench.eng.from_pr.suite_results import is_test_path, read_junit
from pytest_mlebench.eng.from_pr.suite_runner import Backend, SuiteRun
from tests.eng_from_pr.repo_factory import GOOD, PrRepo, commit, git, make_pr_repo
from tests.eng_from_pr.task_runner import prepare_pristine, run_script, run_verifier

T = "tests/test_ops.py::"
F2P = [T + "test_mul", T + "test_sub"]
P2P = [T + "test_add", T + "test_div", T + "test_neg"]


@pytest.fixture(scope="module")
def pr(tmp_path_factory: pytest.TempPathFactory) -> PrRepo:
    return make_pr_repo(tmp_path_factory.mktemp("pr") / "calc")


@pytest.fixture(scope="module")
def task(pr: PrRepo, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from another folder than the repository's, with relative ``--repo`` and ``--out``:
    both are the caller's (the task lands in the caller's folder, the repository stays as it
    was)."""
    caller = tmp_path_factory.mktemp("caller")
    status_before = git(pr.root, "status", "--porcelain")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(caller)
        code = main(
            [
                "eng",
                "from-pr",
                "--repo",
                os.path.relpath(pr.root, caller),
                "--base",
                pr.base,
                "--head",
                pr.head,
                "--out",
                "tasks",
                "--id",
                "calc-pr",
            ]
        )
    assert code == 0
    assert git(pr.root, "status", "--porcelain") == status_before  # the user's tree untouched
    assert git(pr.root, "worktree", "list").count("\n") == 0
    assert not (pr.root / "tasks").exists()
    assert (caller / "tasks" / "calc-pr" / "workspace" / "calc" / "ops.py").is_file()
    return caller / "tasks" / "calc-pr"


@pytest.fixture(scope="module")
def pristine(task: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return prepare_pristine(task, tmp_path_factory.mktemp("prepared"))


def test_fail_to_pass_and_pass_to_pass(task: Path) -> None:
    ids = json.loads((task / "verify" / "ids.json").read_text())
    assert ids["fail_to_pass"] == F2P
    assert ids["pass_to_pass"] == P2P
    readme = (task / "README.md").read_text()
    assert all(f"`{test}`" in readme for test in F2P + P2P)
    assert "git.example.com/dev/calc.git" in readme and "s3cret" not in readme


def test_task_folder_has_the_contract_files(task: Path) -> None:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((task / "config.yaml").read_text())
    assert config["id"] == "calc-pr" and config["kind"] == "engineering"
    checks = {check["id"]: check for check in config["checks"]}
    assert set(checks) == {"F1", "R1", "S1"}
    assert all(check["gate"] and check["why"] and check["fix_hint"] for check in checks.values())
    assert {r for check in checks.values() for r in check["covers"]} == set(config["requirements"])
    instruction = (task / "instruction.md").read_text()
    assert "without editing tests" in instruction and "## How it is checked" in instruction
    assert all(f"`{test}`" in instruction for test in F2P)
    assert not any(test in instruction for test in P2P)  # the agent sees the failures only
    assert sorted(p.name for p in (task / "workspace").iterdir()) == [
        ".gitignore",
        "README.md",
        "calc",
        "tests",
    ]
    assert "return a ** b" in (task / "workspace" / "calc" / "ops.py").read_text()  # head's tree
    fix = (task / "solution" / "fix.patch").read_text()
    assert [line.split()[2] for line in fix.splitlines() if line.startswith("diff --git")] == [
        "a/README.md",
        "a/calc/ops.py",
    ]  # the change's non-test files, nothing of tests/


def test_summary_names_the_task_and_the_command(task: Path) -> None:
    summary = (task.parent / "summary.md").read_text()
    assert "## Engineering task from a pull request: calc-pr" in summary
    assert "**2** fail-to-pass, **3** pass-to-pass" in summary
    assert (
        f"-m engineering --mle-engineering-dir={task.parent}" in summary and "-k calc-pr" in summary
    )


def test_history_is_two_commits_and_nothing_else(pr: PrRepo, pristine: Path) -> None:
    log = git(pristine, "log", "--all", "--format=%H %s").splitlines()
    assert [line.split(" ", 1)[1] for line in log] == ["the change under review", "base"]
    assert git(pristine, "reflog") == ""
    assert git(pristine, "remote") == "" and git(pristine, "tag") == ""
    objects = set(
        git(pristine, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)").split()
    )
    reachable = {
        line.split()[0] for line in git(pristine, "rev-list", "--objects", "--all").splitlines()
    }
    assert objects == reachable
    assert pr.head not in objects and pr.future not in objects and pr.base not in objects
    assert git(pristine, "rev-parse", "HEAD^{tree}") == git(
        pr.root, "rev-parse", pr.head + "^{tree}"
    )
    assert git(pristine, "rev-parse", "HEAD~1^{tree}") == git(
        pr.root, "rev-parse", pr.base + "^{tree}"
    )
    assert git(pristine, "status", "--porcelain") == ""


def fresh_work(pristine: Path, tmp_path: Path) -> Path:
    work = tmp_path / "work"
    shutil.copytree(pristine, work, symlinks=True)
    return work


def results(document: dict[str, object]) -> dict[str, float]:
    checks = document["checks"]
    assert isinstance(checks, dict)
    return {check: entry["result"] for check, entry in checks.items()}


def test_untouched_workspace_fails_f1(task: Path, pristine: Path, tmp_path: Path) -> None:
    work = fresh_work(pristine, tmp_path)
    document = run_verifier(task, pristine, work, tmp_path / "out")
    assert results(document) == {"F1": 0.0, "R1": 1.0, "S1": 1.0}
    evidence = document["checks"]["F1"]["evidence"]  # type: ignore[index]
    assert any("test_sub: failed" in line for line in evidence)


def test_oracle_passes_every_check(task: Path, pristine: Path, tmp_path: Path) -> None:
    work = fresh_work(pristine, tmp_path)
    run_script(task, "solution/solve.sh", work)
    document = run_verifier(task, pristine, work, tmp_path / "out")
    assert results(document) == {"F1": 1.0, "R1": 1.0, "S1": 1.0}
    assert document["checks"]["F1"]["total"] == 2  # type: ignore[index]


def test_a_pytest_package_of_the_workspace_does_not_stand_in_for_pytest(
    task: Path, pristine: Path, tmp_path: Path
) -> None:
    """The forge cheat's ``pytest/`` package writes an all-passed junit file when it is run as
    ``python3 -m pytest`` from the workspace; the verifier runs the image's pytest (``-I``), so
    the change's failing tests still fail."""
    work = fresh_work(pristine, tmp_path)
    run_script(task, "cheats/forge-from-inside.sh", work)
    assert (work / "pytest" / "__main__.py").is_file() and (work / "sitecustomize.py").is_file()
    document = run_verifier(task, pristine, work, tmp_path / "out")
    assert results(document)["F1"] == 0.0


def test_editing_the_tests_is_caught(task: Path, pristine: Path, tmp_path: Path) -> None:
    work = fresh_work(pristine, tmp_path)
    run_script(task, "cheats/edit-tests.sh", work)
    visible = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:mlebench",
            F2P[0],
        ],
        cwd=work,
        capture_output=True,
    )
    assert visible.returncode == 0  # a real cheat: the edited test passes in the workspace
    document = run_verifier(task, pristine, work, tmp_path / "out")
    outcome = results(document)
    assert outcome["S1"] == 0.0 and outcome["F1"] == 0.0
    assert document["checks"]["S1"]["evidence"] == ["edited: tests/test_ops.py"]  # type: ignore[index]


def test_rebuilding_replaces_the_task_and_its_summary_section(pr: PrRepo, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "calc-pr").mkdir(parents=True)
    (out / "calc-pr" / "stale.txt").write_text("from an older build")
    heading = "## Engineering task from a pull request: "
    (out / "summary.md").write_text(f"{heading}other\n\nkept\n\n{heading}calc-pr\n\nstale\n")
    built = build_task(Request(pr.root, pr.base, pr.head, out, "calc-pr"))
    summary = built.summary.read_text()
    assert summary.count("pull request: calc-pr") == 1 and "kept" in summary
    assert "stale" not in summary and summary.index("other") < summary.index("calc-pr")
    assert sorted(p.name for p in out.iterdir()) == ["calc-pr", "conftest.py", "summary.md"]
    assert not (out / "calc-pr" / "stale.txt").exists()


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("not-a-repo", "is not a git repository"),
        ("unknown-ref", "unknown ref 'no-such-branch'"),
        ("same", "are the same commit"),
        ("docker-no-wheelhouse", "pass --wheelhouse DIR"),
        ("docker-no-image", "is not built here"),
        ("pytest-missing", "pytest is missing in"),
        ("nothing-to-fix", "no fail-to-pass test"),
        ("out-inside-the-repository", "lies inside the repository"),
    ],
)
def test_errors_name_the_fix(
    pr: PrRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, message: str
) -> None:
    repo, base, head = str(pr.root), pr.base, pr.head
    out = tmp_path / "out"
    extra: list[str] = []
    if case == "not-a-repo":
        repo = str(tmp_path)
    elif case == "unknown-ref":
        head = "no-such-branch"
    elif case == "same":
        head = base
    elif case == "docker-no-wheelhouse":
        extra = ["--backend", "docker"]
    elif case == "docker-no-image":
        if shutil.which("docker") is None:
            pytest.skip("docker is not installed")
        extra = ["--backend", "docker", "--wheelhouse", str(tmp_path), "--image", "no-such:0"]
    elif case == "pytest-missing":
        python = shutil.which("python3", path="/usr/bin")
        if python is None or subprocess.run([python, "-c", "import pytest"]).returncode == 0:
            pytest.skip("needs a Python without pytest at /usr/bin/python3")
        extra = ["--python", python]
    elif case == "nothing-to-fix":
        head = pr.docs_only
    elif case == "out-inside-the-repository":
        out = pr.root / "mlebench-tasks"
    code = main(
        [
            "eng",
            "from-pr",
            "--repo",
            repo,
            "--base",
            base,
            "--head",
            head,
            "--out",
            str(out),
            *extra,
        ]
    )
    assert code == 1
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_the_task_goes_beside_the_repository_by_default_never_into_it(pr: PrRepo) -> None:
    root = pr.root.resolve()
    assert task_root(None, root) == root.parent / "mlebench-tasks"
    assert task_root(Path("elsewhere"), root) == Path.cwd().resolve() / "elsewhere"
    for inside in (root, root / "sub" / "tasks", root / ".." / root.name / "tasks"):
        with pytest.raises(FromPrError, match="lies inside the repository"):
            task_root(inside, root)


def test_no_tests_found(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.py").write_text("x = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    (root / "a.py").write_text("x = 2\n")
    git(root, "commit", "-q", "-am", "two")
    with pytest.raises(FromPrError, match="no tests found"):
        build_task(Request(root, "HEAD~1", "HEAD", tmp_path / "out"))


def test_split_leaves_out_flaky_skipped_and_failing_at_both() -> None:
    base = SuiteRun(
        {
            "a": "passed",
            "b": "passed",
            "c": "failed",
            "d": "passed",
            "e": "passed",
            "f": "skipped",
            "m.py::g": "passed",
        },
        flaky=frozenset({"d"}),
    )
    head = SuiteRun(
        {"a": "passed", "b": "error", "c": "failed", "d": "passed", "e": "skipped", "f": "skipped"},
        broken_modules=frozenset({"m"}),
    )
    split = split_tests(base, head)
    assert split.fail_to_pass == ("b", "m.py::g")  # an import error at head counts as failing
    assert split.pass_to_pass == ("a",)
    assert split.left_out == {
        "c": "failed at base and at head",
        "d": "flaky: two runs of the same tree disagreed",
        "e": "skipped at head",
        "f": "skipped at base",
    }


def test_junit_ids_of_classes_parameters_and_collection_errors(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "test_a.py").write_text(
        "import pytest\nclass TestK:\n    @pytest.mark.parametrize('x', ['a.b', 'c::d'])\n"
        "    def test_p(self, x):\n        assert x != 'c::d'\n"
        "def test_q():\n    pytest.skip('later')\n"
    )
    (tmp_path / "pkg" / "test_b.py").write_text("import no_such_module\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:mlebench",
            "-o",
            "junit_family=xunit1",
            "--continue-on-collection-errors",
            "--junitxml=j.xml",
        ],
        cwd=tmp_path,
        capture_output=True,
    )
    outcomes, broken = read_junit((tmp_path / "j.xml").read_text())
    assert outcomes == {
        "pkg/test_a.py::TestK::test_p[a.b]": "passed",
        "pkg/test_a.py::TestK::test_p[c::d]": "failed",
        "pkg/test_a.py::test_q": "skipped",
    }
    assert broken == ["pkg.test_b"]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/test_x.py", True),
        ("tests/data/x.csv", True),
        ("src/conftest.py", True),
        ("pkg/test_y.py", True),
        ("pkg/y_test.py", True),
        ("pkg/testing.py", False),
        ("pkg/core.py", False),
        ("README.md", False),
    ],
)
def test_is_test_path(path: str, expected: bool) -> None:
    assert is_test_path(path) is expected


def test_backend_default_is_local_python() -> None:
    assert Backend().kind == "local" and Backend().python == sys.executable


def test_every_documented_command_line_parses() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    lines = [
        line.strip().removeprefix("run: ").removeprefix("- ")
        for name in ("ci.md", "engineering.md")
        for line in (docs / name).read_text().splitlines()
        if "mlebench eng from-pr --" in line and "`" not in line
    ]
    assert len(lines) >= 5
    for line in lines:
        words = shlex.split(re.sub(r"\$\{\{[^}]*\}\}", "X", line.split("#")[0]))
        args = build_parser().parse_args(words[1:])
        assert args.handler.__name__ == "cmd_from_pr" and args.base, line


def test_the_out_folder_is_not_collected_as_tests(task: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=task.parent,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 5, done.stdout  # 5: no tests collected (workspace/, verify/ hidden)


def test_import_errors_and_changed_tests(tmp_path: Path) -> None:
    """The change breaks a module's import (its tests cannot be collected: fail-to-pass) and adds
    a test of its own new code (fails under base's code: left out); the oracle keeps the tests."""
    pr = make_pr_repo(tmp_path / "calc")
    git(pr.root, "checkout", "-q", "-b", "more", pr.base)
    extra = {"calc/extra.py": "def double(a):\n    return 2 * a\n",
             "tests/test_extra.py": "from calc.extra import double\n\n\n"
             "def test_double():\n    assert double(2) == 4\n"}  # fmt: skip
    base = commit(pr.root, extra, "extra")
    tests = (pr.root / "tests" / "test_ops.py").read_text()
    head = commit(pr.root, {"calc/extra.py": "import no_such_module\n",
                            "calc/ops.py": GOOD + "\n\ndef square(a):\n    return a * a\n",
                            "tests/test_ops.py": tests + "\n\ndef test_square():\n"
                            "    from calc.ops import square\n\n    assert square(3) == 9\n"},
                  "rework extra, add square")  # fmt: skip
    built = build_task(Request(pr.root, base, head, tmp_path / "out", "calc-more"))
    split = built.change.split
    assert split.fail_to_pass == ("tests/test_extra.py::test_double",)
    assert split.left_out == {T + "test_square": "failed at base"}
    assert len(split.pass_to_pass) == 5
    pristine = prepare_pristine(built.folder, tmp_path / "prepared")
    work = fresh_work(pristine, tmp_path)
    run_script(built.folder, "solution/solve.sh", work)
    assert "test_square" in (work / "tests" / "test_ops.py").read_text()  # head's tests kept
    document = run_verifier(built.folder, pristine, work, tmp_path / "verified")
    assert results(document) == {"F1": 1.0, "R1": 1.0, "S1": 1.0}


def test_an_agents_virtualenv_is_not_test_tampering(
    task: Path, pristine: Path, tmp_path: Path
) -> None:
    work = fresh_work(pristine, tmp_path)
    run_script(task, "solution/solve.sh", work)
    vendored = work / ".venv" / "lib" / "site-packages" / "other" / "tests" / "test_other.py"
    vendored.parent.mkdir(parents=True)
    vendored.write_text("def test_other():\n    assert False\n")
    (work / "tests" / "conftest.py").write_text("import pytest\n")  # an added helper: tampering
    document = run_verifier(task, pristine, work, tmp_path / "out")
    assert results(document) == {"F1": 1.0, "R1": 1.0, "S1": 0.0}
    assert document["checks"]["S1"]["evidence"] == ["added: tests/conftest.py"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("agent", "outcome"),
    [("oracle", "passed"), ("cheat:edit-tests", "failed"), ("noop", "failed")],
)
def test_the_task_runs_through_the_plugin(
    task: Path, tmp_path: Path, agent: str, outcome: str
) -> None:
    """The generated folder is a task the engine runs as it is (local backend): the oracle's
    patch passes it, a cheat that edits the failing test is caught, and doing nothing scores 0.0
    although every pass-to-pass test still passes (no credit for no work)."""
    results = tmp_path / "results.jsonl"
    command = [
        sys.executable, "-m", "pytest", "--pyargs", "pytest_mlebench.benchmark",
        "-m", "engineering", f"--mle-engineering-dir={task.parent}", "-k", "calc-pr",
        "--mle-agent", agent, "--mle-sandbox", "local", f"--mle-results={results}",
        f"--mle-data-dir={tmp_path / 'data'}", "-p", "no:randomly", "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert results.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    assert [r["outcome"] for r in records] == [outcome], done.stdout[-2000:]
    if outcome == "passed":
        assert records[0]["engineering"]["score"] >= 0.95
    else:
        assert "F1" in records[0]["engineering"]["failed_gates"]
    if agent == "noop":
        block = records[0]["engineering"]
        assert block["score"] == 0.0, block
        assert (
            "no fail-to-pass check moved" in {c["id"]: c for c in block["checks"]}["R1"]["evidence"]
        )
