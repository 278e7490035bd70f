"""The inventory of hidden task files: hashes on the host, the in-image scan, the findings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pytest_mlebench.sandbox.docker.task_inventory import (
    SCAN,
    findings,
    hidden_files,
    scan_environment,
)
from tests.eng.conftest import eng_image

SECRET = "def test_hidden():\n    assert open('answer').read() == '42'\n"


def test_a_hidden_file_copied_anywhere_is_found(tmp_path: Path) -> None:
    verify = tmp_path / "task" / "verify"
    verify.mkdir(parents=True)
    (verify / "test_hidden.py").write_text(SECRET)
    (verify / "__init__.py").write_text("")  # too small to be a secret
    image = tmp_path / "image"
    (image / "usr" / "lib").mkdir(parents=True)
    (image / "usr" / "lib" / "copied.py").write_text(SECRET)
    (image / "usr" / "lib" / "other.py").write_text(SECRET.replace("42", "43"))
    (image / "empty.py").write_text("")
    hidden = hidden_files([verify, tmp_path / "absent"])
    assert list(hidden.values()) == [str(verify / "test_hidden.py")]
    env = {**os.environ, **scan_environment(hidden)}
    output = subprocess.run(
        [sys.executable, "-c", SCAN, str(image)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert findings(output, hidden) == [
        f"{image / 'usr' / 'lib' / 'copied.py'} is {verify / 'test_hidden.py'}"
    ]


def test_the_eng_image_holds_no_hidden_file_of_the_fixture_task() -> None:
    from pytest_mlebench.sandbox.docker.task_inventory import image_findings

    tag = eng_image()
    task = Path(__file__).parent / "tasks" / "echo-service"
    hidden = hidden_files([task / "verify", task / "solution", task / "cheats"])
    assert hidden and image_findings(tag, hidden) == []
