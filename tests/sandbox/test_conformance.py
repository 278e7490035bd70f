"""The sandbox contract every backend keeps: exec, files, env, deadline, isolation, accounting.

Each test runs once per backend (``sandbox_factory`` is parametrised). A check that the local
backend cannot make by design (network, memory limit) skips there with the reason.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.base import ResourceGrant, Sandbox
from tests.sandbox.conftest import (
    ANSWER_TOKEN,
    SandboxFactory,
    require_isolation,
    run_python,
)


def test_exit_code_and_output_come_back(sandbox_factory: SandboxFactory) -> None:
    sandbox = sandbox_factory()
    result = run_python(sandbox, "import sys; print('hello from the agent'); sys.exit(3)")
    assert result.exit_code == 3
    assert not result.timed_out
    assert "hello from the agent" in result.output_tail
    assert result.wall_seconds > 0


def test_success_exits_zero(sandbox_factory: SandboxFactory) -> None:
    assert run_python(sandbox_factory(), "pass").exit_code == 0


def test_output_is_streamed_to_the_host_log(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    log_path = tmp_path / "agent.log"
    run_python(sandbox_factory(), "print('line one'); print('line two')", log_path=log_path)
    assert log_path.read_text().splitlines() == ["line one", "line two"]


def test_contract_env_and_extra_env(
    sandbox_factory: SandboxFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLEBENCH_TEST_HOST_SECRET", "do-not-leak")
    sandbox = sandbox_factory(env={"FROM_SPEC": "spec"})
    code = "import json, os; print(json.dumps(dict(os.environ)))"
    result = run_python(sandbox, code, env={"FROM_EXEC": "exec"})
    env = json.loads(result.output_tail)
    assert env["COMPETITION_ID"] == "toy"
    assert env["MLEBENCH_SEED"] == "7"
    assert env["TIME_LIMIT_SECS"] == "60"
    assert env["DATA_DIR"] == sandbox.paths.data
    assert env["SUBMISSION_DIR"] == sandbox.paths.submission
    assert (env["FROM_SPEC"], env["FROM_EXEC"]) == ("spec", "exec")
    assert "MLEBENCH_TEST_HOST_SECRET" not in env


def test_public_data_and_instructions_are_visible(sandbox_factory: SandboxFactory) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    code = (
        f"import os; print(sorted(os.listdir({paths.data!r})));"
        f"print(open({paths.instructions!r}).read())"
    )
    result = run_python(sandbox, code)
    assert "['sample_submission.csv', 'test.csv', 'train.csv']" in result.output_tail
    assert "Predict label for test.csv." in result.output_tail


def test_files_go_in_and_come_out(sandbox_factory: SandboxFactory, tmp_path: Path) -> None:
    sandbox = sandbox_factory()
    paths = sandbox.paths
    source = tmp_path / "agent-code"
    source.mkdir()
    (source / "solve.py").write_text(
        "import csv, os\n"
        f"rows = list(csv.DictReader(open(os.path.join({paths.data!r}, 'test.csv'))))\n"
        f"with open({paths.submission_file!r}, 'w') as out:\n"
        "    out.write('id,label\\n' + ''.join(r['id'] + ',1\\n' for r in rows))\n"
        f"open(os.path.join({paths.logs!r}, 'notes.txt'), 'w').write('done')\n"
    )
    sandbox.copy_in(source, f"{paths.code}/agent")
    result = sandbox.exec([sandbox.python, f"{paths.code}/agent/solve.py"])
    assert result.exit_code == 0, result.output_tail
    assert sandbox.copy_out(paths.submission_file, tmp_path / "out" / "submission.csv")
    assert (tmp_path / "out" / "submission.csv").read_text() == "id,label\n3,1\n4,1\n"
    assert sandbox.copy_out(paths.logs, tmp_path / "out" / "logs")
    assert (tmp_path / "out" / "logs" / "notes.txt").read_text() == "done"


def test_copy_out_of_a_missing_path_is_false(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    assert not sandbox.copy_out(sandbox.paths.submission_file, tmp_path / "submission.csv")
    assert not (tmp_path / "submission.csv").exists()


def test_deadline_kills_the_whole_process_tree(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    beat = f"{sandbox.paths.logs}/beat"
    # A child that leaves the process group (setsid) and keeps writing a heartbeat, atomically
    # (a kill between truncating and writing the file must not leave it empty).
    child = (
        "import os, time\n"
        "n = 0\n"
        "while True:\n"
        f"    n += 1; open({beat!r} + '.tmp', 'w').write(str(n))\n"
        f"    os.replace({beat!r} + '.tmp', {beat!r}); time.sleep(0.05)\n"
    )
    code = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', {child!r}], start_new_session=True)\n"
        "time.sleep(3600)\n"
    )
    started = time.monotonic()
    result = run_python(sandbox, code, timeout=2)
    assert result.timed_out
    assert result.wall_seconds < 5  # killed at the deadline, not by a slower fallback
    assert time.monotonic() - started < 15
    first = _read_out(sandbox, beat, tmp_path / "beat1")
    time.sleep(0.5)
    assert first and _read_out(sandbox, beat, tmp_path / "beat2") == first


def _read_out(sandbox: Sandbox, path: str, destination: Path) -> str:
    assert sandbox.copy_out(path, destination)
    return destination.read_text()


def test_submission_written_before_the_deadline_survives(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    target = sandbox.paths.submission_file
    code = f"import time; open({target!r}, 'w').write('id,label\\n3,1\\n'); time.sleep(3600)"
    assert run_python(sandbox, code, timeout=1.5).timed_out
    assert sandbox.copy_out(target, tmp_path / "submission.csv")
    assert (tmp_path / "submission.csv").read_text() == "id,label\n3,1\n"


def test_public_data_is_read_only(
    sandbox_factory: SandboxFactory, competition_dirs: tuple[Path, Path]
) -> None:
    sandbox = sandbox_factory()
    data = sandbox.paths.data
    code = (
        "import os\n"
        "attempts = {\n"
        f"  'write': lambda: open(os.path.join({data!r}, 'train.csv'), 'a').write('x'),\n"
        f"  'create': lambda: open(os.path.join({data!r}, 'new.csv'), 'w').write('x'),\n"
        f"  'delete': lambda: os.remove(os.path.join({data!r}, 'test.csv')),\n"
        "}\n"
        "for name, attempt in attempts.items():\n"
        "    try:\n"
        "        attempt(); print(name, 'SUCCEEDED')\n"
        "    except OSError as exc:\n"
        "        print(name, 'refused', exc.errno)\n"
    )
    result = run_python(sandbox, code)
    assert "SUCCEEDED" not in result.output_tail, result.output_tail
    public = competition_dirs[0]
    assert sorted(p.name for p in public.iterdir()) == [
        "sample_submission.csv",
        "test.csv",
        "train.csv",
    ]
    assert (public / "train.csv").read_text().endswith("2,0.9,1\n")


def test_private_answers_are_out_of_reach(
    sandbox_factory: SandboxFactory, competition_dirs: tuple[Path, Path]
) -> None:
    answers = competition_dirs[1] / "answers.csv"
    sandbox = sandbox_factory()
    # Inside a container the whole tree is the sandbox's; on the host, only its own root is.
    roots = (sandbox.paths.home, "/tmp", "/run", "/mnt", "/srv", "/opt", "/root", "/var")
    roots = roots if sandbox.isolated else roots[:1]
    code = (
        "import os\n"
        f"try:\n    print(open({str(answers)!r}).read())\nexcept OSError as exc:\n"
        "    print('unreadable', exc.errno)\n"
        f"for root in {roots!r}:\n"
        "    for folder, _, files in os.walk(root):\n"
        "        for name in files:\n"
        "            try:\n"
        "                text = open(os.path.join(folder, name), errors='ignore').read(1 << 20)\n"
        "            except OSError:\n"
        "                continue\n"
        f"            if {ANSWER_TOKEN!r} in text:\n"
        "                print('FOUND', os.path.join(folder, name))\n"
    )
    result = run_python(sandbox, code, timeout=120)
    assert "unreadable" in result.output_tail
    assert "FOUND" not in result.output_tail
    assert ANSWER_TOKEN not in result.output_tail


def test_agent_is_not_root(backend: str, sandbox_factory: SandboxFactory) -> None:
    if backend == "local" and os.geteuid() == 0:
        pytest.skip(
            "local backend under a root harness: the agent keeps uid 0 (namespaces confine it)"
        )
    result = run_python(sandbox_factory(), "import os; print('uid', os.getuid(), os.geteuid())")
    assert result.exit_code == 0
    uid, euid = (int(v) for v in result.output_tail.split()[1:3])
    assert uid != 0 and euid != 0


def test_validator_answers_valid_or_invalid_never_a_score(
    sandbox_factory: SandboxFactory,
) -> None:
    sandbox = sandbox_factory()
    good, bad = f"{sandbox.paths.submission}/good.csv", f"{sandbox.paths.submission}/bad.csv"
    script = sandbox.paths.validate
    code = (
        "import subprocess, time\n"
        f"open({good!r}, 'w').write('id,label\\n3,1\\n4,0\\n')\n"
        f"open({bad!r}, 'w').write('identifier,guess\\n3,1\\n')\n"
        f"for path in ({good!r}, {bad!r}):\n"
        f"    done = subprocess.run([{script!r}, path], capture_output=True, text=True)\n"
        "    print('exit', done.returncode, done.stdout.strip(), done.stderr.strip())\n"
        "    time.sleep(1.1)\n"
    )
    result = run_python(sandbox, code)
    lines = result.output_tail.splitlines()
    assert lines[0].startswith("exit 0 valid"), result.output_tail
    assert lines[1].startswith("exit 1 invalid: expected the columns id,label")
    assert "0.123" not in result.output_tail
    calls = sandbox.validation_calls
    assert [call.valid for call in calls] == [True, False]
    assert all(call.time for call in calls)


def test_cpu_time_and_peak_memory_are_measured(sandbox_factory: SandboxFactory) -> None:
    code = (
        "import time\nblock = bytearray(200 * 1024 * 1024)\n"
        "for i in range(0, len(block), 4096): block[i] = 1\n"
        "end = time.process_time() + 0.5\nwhile time.process_time() < end: pass\n"
    )
    result = run_python(sandbox_factory(), code)
    assert result.exit_code == 0, result.output_tail
    assert result.cpu_seconds is not None and result.cpu_seconds >= 0.4
    assert result.peak_memory_bytes is not None and result.peak_memory_bytes >= 200 * 1024**2
    assert not result.oom_killed


def test_no_network_by_default(backend: str, sandbox_factory: SandboxFactory) -> None:
    require_isolation(backend, "network")
    code = (
        "import os, socket\n"
        "print('interfaces', sorted(os.listdir('/sys/class/net')))\n"
        "for host, port in (('1.1.1.1', 53), ('deb.debian.org', 80)):\n"
        "    try:\n"
        "        socket.create_connection((host, port), timeout=3); print('CONNECTED', host)\n"
        "    except OSError as exc:\n"
        "        print('blocked', host, exc)\n"
    )
    result = run_python(sandbox_factory(), code)
    assert "interfaces ['lo']" in result.output_tail
    assert "CONNECTED" not in result.output_tail


def test_bridge_network_when_asked(backend: str, sandbox_factory: SandboxFactory) -> None:
    require_isolation(backend, "network")
    sandbox = sandbox_factory(network="bridge")
    result = run_python(sandbox, "import os; print(sorted(os.listdir('/sys/class/net')))")
    assert "eth0" in result.output_tail
    assert sandbox.spec.network == "bridge"


def test_memory_limit_is_enforced(backend: str, sandbox_factory: SandboxFactory) -> None:
    require_isolation(backend, "memory")
    sandbox = sandbox_factory(resources=ResourceGrant(memory="512m", pids=256))
    code = (
        "block = bytearray(2 * 1024**3)\n"
        "for i in range(0, len(block), 4096): block[i] = 1\n"
        "print('ALLOCATED 2 GB')\n"
    )
    result = run_python(sandbox, code)
    assert result.oom_killed
    assert result.exit_code != 0
    assert "ALLOCATED" not in result.output_tail
    assert result.peak_memory_bytes is not None
    assert result.peak_memory_bytes <= 512 * 1024**2


def test_stop_is_idempotent(sandbox_factory: SandboxFactory) -> None:
    sandbox = sandbox_factory()
    sandbox.stop()
    sandbox.stop()


def test_environment_has_no_harness_secrets(
    sandbox_factory: SandboxFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAGGLE_KEY", "host-kaggle-key")
    result = run_python(sandbox_factory(), "import os; print(os.environ.get('KAGGLE_KEY'))")
    assert "host-kaggle-key" not in result.output_tail
    assert os.environ["KAGGLE_KEY"] == "host-kaggle-key"


@pytest.mark.timeout(60)  # following the planted links would copy the whole disk
def test_planted_links_do_not_break_copy_out(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    logs = sandbox.paths.logs
    code = (
        "import os\n"
        f"open(os.path.join({logs!r}, 'real.txt'), 'w').write('kept')\n"
        f"os.symlink('/etc/passwd', os.path.join({logs!r}, 'passwd-link'))\n"
        f"os.symlink('../../..', os.path.join({logs!r}, 'escape'))\n"
    )
    assert run_python(sandbox, code).exit_code == 0
    assert sandbox.copy_out(logs, tmp_path / "logs")
    assert (tmp_path / "logs" / "real.txt").read_text() == "kept"
