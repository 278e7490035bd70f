"""The Docker phase of the set-up: an apt lock held by another process, and no engine at all.

A fake ``apt-get`` (named as one) stands on ``PATH`` in a temp folder with the few real tools the
scripts call; it answers "Could not get lock" as long as its state file says the lock is held and
"installs" a fake ``docker``/``dockerd``/``debootstrap`` after that. A fake ``sleep`` returns at
once, so the bounded wait costs no time.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = (
    "bash sh cat grep sed head tail wc mktemp rm id env dirname date touch mkdir printf nohup chmod"
)
LOCKED = "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 812 " + (
    "(unattended-upgr)"
)
FAKE_APT = f"""#!/bin/bash
# fake apt-get for tests: holds the lock while $FAKE_APT_LOCKED counts down
echo "apt-get $*" >>"$FAKE_LOG"
held=$(cat "$FAKE_APT_LOCKED")
if [ "$held" != 0 ]; then
  [ "$held" = forever ] || echo $((held - 1)) >"$FAKE_APT_LOCKED"
  echo "{LOCKED}" >&2
  exit 100
fi
if [ "$1" = install ] || [[ " $* " == *" install "* ]]; then
  for tool in docker dockerd debootstrap; do
    printf '#!/bin/bash\\necho 27.5.1\\n' >"$FAKE_BIN/$tool"; chmod +x "$FAKE_BIN/$tool"
  done
fi
"""
FAKE_SLEEP = '#!/bin/bash\necho "sleep $1" >>"$FAKE_LOG"\n'
FAKE_SUDO = '#!/bin/bash\nexec "$@"\n'


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A PATH with the fake apt-get, no Docker, and a listening socket where dockerd's would be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS.split():
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    for name, text in (("apt-get", FAKE_APT), ("sleep", FAKE_SLEEP), ("sudo", FAKE_SUDO)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    (tmp_path / "locked").write_text("0")
    engine = socket.socket(socket.AF_UNIX)
    engine.bind(str(tmp_path / "docker.sock"))
    yield {
        "PATH": str(bin_dir),
        "FAKE_BIN": str(bin_dir),
        "FAKE_LOG": str(tmp_path / "calls.log"),
        "FAKE_APT_LOCKED": str(tmp_path / "locked"),
        "DOCKER_SOCKET": str(tmp_path / "docker.sock"),
        "DOCKERD_LOG": str(tmp_path / "dockerd.log"),
        "MLEBENCH_SETUP_LOG": str(tmp_path / "setup.log"),
        "APT_LOCK_WAIT": "20",
        "APT_LOCK_POLL": "5",
        "HOME": str(tmp_path),
    }
    engine.close()


def hold_lock(machine: dict[str, str], times: str) -> None:
    Path(machine["FAKE_APT_LOCKED"]).write_text(times)


def calls(machine: dict[str, str]) -> list[str]:
    return Path(machine["FAKE_LOG"]).read_text().splitlines()


def install_docker(machine: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / ".ci" / "install-docker.sh")],
        env=machine,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_install_waits_for_a_held_apt_lock_and_then_installs(machine: dict[str, str]) -> None:
    hold_lock(machine, "2")
    done = install_docker(machine)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("waiting up to 20 s") == 1, done.stderr
    assert "(process 812 (unattended-upgr))" in done.stderr
    assert calls(machine).count("sleep 5") == 2
    assert "engine 27.5.1 ready" in done.stderr


def test_install_gives_up_after_the_bounded_wait_with_apt_gets_answer(
    machine: dict[str, str],
) -> None:
    hold_lock(machine, "forever")
    done = install_docker(machine)
    assert done.returncode == 1
    assert calls(machine).count("sleep 5") == 4, "20 s in steps of 5"
    assert "still held by process 812 (unattended-upgr) after 20 s" in done.stderr
    assert LOCKED in done.stderr
    assert done.stderr.rstrip().endswith("apt-get could not install docker.io debootstrap")


PHASE = """
source {root}/scripts/bootstrap.sh
source {root}/scripts/phases.sh
export -f docker_failure_cause docker_engine apt_waiting apt_note apt_lock_holder
export ROOT SETUP_LOG
phase "Docker engine" "under 1 min" docker_engine && echo "set-up goes on"
"""


def docker_phase(machine: dict[str, str], **env: str) -> list[str]:
    done = subprocess.run(
        ["bash", "-c", PHASE.format(root=ROOT)],
        env={**machine, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.splitlines()


def test_no_engine_stops_the_set_up_with_the_cause_on_the_terminal(
    machine: dict[str, str],
) -> None:
    hold_lock(machine, "forever")
    lines = docker_phase(machine)
    assert any("another apt process holds the package lock" in line for line in lines), lines
    cause = next(line for line in lines if line.startswith("[setup] no Docker engine: "))
    assert "apt-get could not install docker.io debootstrap" in cause
    assert "held by process 812" in cause
    assert any("MLEBENCH_SANDBOX=local" in line for line in lines)
    assert any("Docker engine: FAILED" in line for line in lines)
    assert "set-up goes on" not in lines


def test_no_engine_goes_on_in_the_local_backend_only_when_asked(
    machine: dict[str, str],
) -> None:
    hold_lock(machine, "forever")
    lines = docker_phase(machine, MLEBENCH_SANDBOX="local")
    assert any("MLEBENCH_SANDBOX=local: agents run in the local backend" in line for line in lines)
    assert lines[-1] == "set-up goes on"


def test_ci_requires_the_engine_even_with_the_local_backend_asked_for(
    machine: dict[str, str],
) -> None:
    hold_lock(machine, "forever")
    lines = docker_phase(machine, MLEBENCH_SANDBOX="local", MLEBENCH_REQUIRE_DOCKER="1")
    assert any("required here (MLEBENCH_REQUIRE_DOCKER=1)" in line for line in lines), lines
    assert "set-up goes on" not in lines


def test_ci_run_requires_the_engine() -> None:
    assert "export MLEBENCH_REQUIRE_DOCKER=1" in (ROOT / ".ci" / "run").read_text()
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
