"""The local backend's namespaces: network cut, hidden paths masked, data read-only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.namespaces import maskable, namespaces_unavailable, wrap_command

pytestmark = pytest.mark.skipif(
    namespaces_unavailable() is not None,
    reason=f"Linux namespaces unavailable here: {namespaces_unavailable()}",
)

PROBE = """
import os, socket, sys
data, hidden = sys.argv[1], sys.argv[2]
try:
    socket.create_connection(("1.1.1.1", 53), timeout=3); print("CONNECTED")
except OSError:
    print("offline")
try:
    print("SECRET", open(os.path.join(hidden, "answers.csv")).read())
except OSError:
    print("hidden")
try:
    open(os.path.join(data, "new.csv"), "w"); print("WROTE")
except OSError:
    print("read-only")
print("pid", os.getpid())
"""


def test_wrapped_agent_is_offline_blind_and_read_only(tmp_path: Path) -> None:
    data, hidden = tmp_path / "data", tmp_path / "private"
    data.mkdir()
    hidden.mkdir()
    (hidden / "answers.csv").write_text("id,label\n1,1\n")
    command = wrap_command(
        [sys.executable, "-c", PROBE, str(data), str(hidden)],
        read_only=[data],
        hidden=[hidden],
        isolate_network=True,
    )
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, env={"PATH": os.environ["PATH"]}
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["offline", "hidden", "read-only", "pid", "1"]
    assert (hidden / "answers.csv").read_text() == "id,label\n1,1\n"  # untouched on the host


def test_maskable_skips_missing_paths_and_ancestors_of_the_sandbox(tmp_path: Path) -> None:
    sandbox = tmp_path / "cache" / "sandbox"
    sandbox.mkdir(parents=True)
    other = tmp_path / "answers"
    other.mkdir()
    assert maskable([tmp_path / "cache", other, tmp_path / "missing"], sandbox) == [other]
