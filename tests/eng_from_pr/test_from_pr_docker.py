"""The docker backend of ``mlebench eng from-pr``: the suite runs in a throw-away container with
``--network none``, and the task's verifier runs in the image's pytest 7.2.

Uses the probe image ``engprobe:1`` (the eng image's Debian part: python3, pytest 7.2, git). The
generated repository depends on ``tinydep``, which exists only as a wheel in the wheelhouse this
test writes: the suite can import it only if the container installed it offline. Skipped, with
the reason, when Docker or the image is absent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from pytest_mlebench.eng.from_pr.pr_task import Request, build_task
from pytest_mlebench.eng.from_pr.suite_runner import Backend
from tests.eng_from_pr.repo_factory import make_pr_repo
from tests.eng_from_pr.task_runner import PLUGIN_DIR, prepare_pristine, run_script

IMAGE = "engprobe:1"


def image_present() -> str | None:
    """Why the docker tests cannot run here, or None."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    done = subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True)
    return None if done.returncode == 0 else f"the probe image {IMAGE} is not built here"


pytestmark = pytest.mark.skipif(image_present() is not None, reason=str(image_present()))


def write_wheel(wheelhouse: Path) -> None:
    """``tinydep-0.1``, a one-module wheel written by hand (no build backend needed)."""
    files = {
        "tinydep/__init__.py": "VERSION = '0.1'\n",
        "tinydep-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinydep\nVersion: 0.1\n",
        "tinydep-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\n"
        "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{name},,\n" for name in files) + "tinydep-0.1.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheelhouse / "tinydep-0.1-py3-none-any.whl", "w") as wheel:
        for name, text in {**files, "tinydep-0.1.dist-info/RECORD": record}.items():
            wheel.writestr(name, text)


DEPENDENT = {
    "requirements.txt": "tinydep==0.1\n",
    "tests/test_dep.py": "import tinydep\n\n\ndef test_dep():\n"
    "    assert tinydep.VERSION == '0.1'\n",
}


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docker-pr")
    pr = make_pr_repo(root / "calc", DEPENDENT)
    (root / "wheels").mkdir()
    write_wheel(root / "wheels")
    backend = Backend(kind="docker", image=IMAGE, wheelhouse=root / "wheels", timeout_s=120)
    built = build_task(Request(pr.root, pr.base, pr.head, root / "tasks", "calc-docker", backend))
    return built.folder


def test_docker_backend_finds_the_same_tests(task: Path) -> None:
    ids = json.loads((task / "verify" / "ids.json").read_text())
    assert ids["fail_to_pass"] == ["tests/test_ops.py::test_mul", "tests/test_ops.py::test_sub"]
    assert ids["pass_to_pass"] == ["tests/test_dep.py::test_dep"] + [
        f"tests/test_ops.py::test_{name}" for name in ("add", "div", "neg")
    ]  # test_dep passes only with tinydep installed from the wheelhouse
    assert "backend `docker`" in (task / "README.md").read_text()
    assert (task / "verify" / "wheelhouse" / "tinydep-0.1-py3-none-any.whl").is_file()


def test_oracle_passes_in_the_image(task: Path, tmp_path: Path) -> None:
    pristine = prepare_pristine(task, tmp_path)
    work = tmp_path / "work"
    shutil.copytree(pristine, work, symlinks=True)
    run_script(task, "solution/solve.sh", work)
    (tmp_path / "out").mkdir()
    hidden = {name: tmp_path / f"hidden-{name}" for name in ("verify", "private")}
    shutil.copytree(task / "verify", hidden["verify"])
    shutil.copytree(tmp_path / "private", hidden["private"])
    for folder in hidden.values():  # as the harness stages them: root's alone
        for inner in [folder, *(path for path in folder.rglob("*") if path.is_dir())]:
            inner.chmod(0o700)
    mounts = {
        hidden["verify"]: "/verify:ro",
        pristine: "/pristine:ro",
        work: "/work",
        hidden["private"]: "/private:ro",
        tmp_path / "out": "/out",
        PLUGIN_DIR: "/plugin:ro",
    }
    volumes = [arg for host, inside in mounts.items() for arg in ("-v", f"{host}:{inside}")]
    env = [
        "WORK_DIR=/work",
        "PRISTINE_DIR=/pristine",
        "PRIVATE_DIR=/private",
        "VERIFY_OUT=/out",
        "PYTHONPATH=/plugin",
        "PYTHONDONTWRITEBYTECODE=1",
    ]
    command = ["docker", "run", "--rm", "--network", "none", *volumes]
    command += [arg for item in env for arg in ("-e", item)]
    command += [
        IMAGE,
        "sh",
        "-c",
        "cd /verify && python3 -m pytest -p mlebench_verify "
        "-p no:cacheprovider -q; status=$?; chmod -R a+rwX /out /work; exit $status",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    checks = json.loads((tmp_path / "out" / "checks.json").read_text())["checks"]
    assert {check: entry["result"] for check, entry in checks.items()} == {
        "F1": 1.0,
        "R1": 1.0,
        "S1": 1.0,
    }
