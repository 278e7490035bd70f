"""The sandbox contract as tests: exec, files, env, deadline, isolation, services, accounting.

:class:`SandboxConformance` holds the tests; a subclass names the backend by overriding the
``make_sandbox`` fixture. Checks a backend without isolation cannot make (network, memory limit,
a non-root agent under a root harness) skip where ``Sandbox.isolated`` is False, saying why.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.conformance.host_services import HostServiceChecks
from pytest_mlebench.sandbox.conformance.support import (
    ANSWER_TOKEN,
    INSTRUCTIONS_TEXT,
    MakeSandbox,
    SandboxFactory,
    make_spec,
    prepare_competition_dirs,
    run_python,
)
from pytest_mlebench.sandbox.interface import ResourceGrant, Sandbox


def require_isolation(sandbox: Sandbox, what: str) -> None:
    """Skip a check a backend without isolation cannot make, saying why."""
    if not sandbox.isolated:
        pytest.skip(f"{sandbox.backend} backend: no {what} isolation (not an isolated sandbox)")


class SandboxConformance(HostServiceChecks):
    """Every test of the sandbox contract (host services: :class:`HostServiceChecks`).

    Subclass it as ``Test<Backend>`` and override ``make_sandbox`` to return a callable that
    makes a not-yet-started sandbox for a spec."""

    @pytest.fixture
    def make_sandbox(self) -> MakeSandbox:
        pytest.fail(
            f"{type(self).__name__} must override the make_sandbox fixture: return a callable "
            "that makes a (not started) Sandbox for a SandboxSpec",
            pytrace=False,
        )

    @pytest.fixture
    def competition_dirs(self, tmp_path: Path) -> tuple[Path, Path]:
        return prepare_competition_dirs(tmp_path)

    @pytest.fixture
    def sandbox_factory(
        self, make_sandbox: MakeSandbox, competition_dirs: tuple[Path, Path]
    ) -> Iterator[SandboxFactory]:
        started: list[Sandbox] = []

        def make(**overrides: object) -> Sandbox:
            sandbox = make_sandbox(make_spec(competition_dirs[0], **overrides))
            started.append(sandbox)
            sandbox.start()
            return sandbox

        yield make
        for sandbox in started:
            sandbox.stop()

    # -- identity and lifecycle ---------------------------------------------------------------

    def test_backend_names_itself(self, make_sandbox: MakeSandbox, tmp_path: Path) -> None:
        sandbox = make_sandbox(make_spec(tmp_path))
        assert isinstance(sandbox.backend, str) and sandbox.backend
        assert isinstance(sandbox.isolated, bool)

    def test_paths_are_known_before_start(
        self, make_sandbox: MakeSandbox, competition_dirs: tuple[Path, Path]
    ) -> None:
        sandbox = make_sandbox(make_spec(competition_dirs[0]))
        before = sandbox.paths
        with sandbox:
            assert sandbox.paths == before
            assert run_python(sandbox, f"import os; os.listdir({before.data!r})").exit_code == 0

    def test_stop_is_idempotent(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory()
        sandbox.stop()
        sandbox.stop()

    # -- exec -----------------------------------------------------------------------------------

    def test_exit_code_and_output_come_back(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory()
        result = run_python(sandbox, "import sys; print('hello from the agent'); sys.exit(3)")
        assert result.exit_code == 3
        assert not result.timed_out
        assert "hello from the agent" in result.output_tail
        assert result.wall_seconds > 0

    def test_success_exits_zero(self, sandbox_factory: SandboxFactory) -> None:
        assert run_python(sandbox_factory(), "pass").exit_code == 0

    def test_output_is_streamed_to_the_host_log(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
        log_path = tmp_path / "agent.log"
        run_python(sandbox_factory(), "print('line one'); print('line two')", log_path=log_path)
        assert log_path.read_text().splitlines() == ["line one", "line two"]

    def test_contract_env_and_extra_env(
        self, sandbox_factory: SandboxFactory, monkeypatch: pytest.MonkeyPatch
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

    def test_environment_has_no_harness_secrets(
        self, sandbox_factory: SandboxFactory, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("KAGGLE_KEY", "host-kaggle-key")
        result = run_python(sandbox_factory(), "import os; print(os.environ.get('KAGGLE_KEY'))")
        assert "host-kaggle-key" not in result.output_tail
        assert os.environ["KAGGLE_KEY"] == "host-kaggle-key"

    def test_cpu_time_and_peak_memory_are_measured(self, sandbox_factory: SandboxFactory) -> None:
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

    # -- files ----------------------------------------------------------------------------------

    def test_public_data_and_instructions_are_visible(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
        sandbox = sandbox_factory()
        paths = sandbox.paths
        instructions = tmp_path / "instructions.md"
        instructions.write_text(INSTRUCTIONS_TEXT)
        sandbox.copy_in(instructions, paths.instructions)
        code = (
            f"import os; print(sorted(os.listdir({paths.data!r})));"
            f"print(open({paths.instructions!r}).read())"
        )
        result = run_python(sandbox, code)
        assert "['sample_submission.csv', 'test.csv', 'train.csv']" in result.output_tail
        assert INSTRUCTIONS_TEXT in result.output_tail

    def test_files_go_in_and_come_out(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
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
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
        sandbox = sandbox_factory()
        assert not sandbox.copy_out(sandbox.paths.submission_file, tmp_path / "submission.csv")
        assert not (tmp_path / "submission.csv").exists()

    def test_planted_links_do_not_break_copy_out(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
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

    # -- the deadline ---------------------------------------------------------------------------

    def test_deadline_kills_the_whole_process_tree(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
        sandbox = sandbox_factory()
        beat = f"{sandbox.paths.logs}/beat"
        # A child that leaves the process group (setsid) and keeps writing a heartbeat,
        # atomically (a kill between truncating and writing must not leave the file empty).
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

    def test_submission_written_before_the_deadline_survives(
        self, sandbox_factory: SandboxFactory, tmp_path: Path
    ) -> None:
        sandbox = sandbox_factory()
        target = sandbox.paths.submission_file
        code = f"import time; open({target!r}, 'w').write('id,label\\n3,1\\n'); time.sleep(3600)"
        assert run_python(sandbox, code, timeout=1.5).timed_out
        assert sandbox.copy_out(target, tmp_path / "submission.csv")
        assert (tmp_path / "submission.csv").read_text() == "id,label\n3,1\n"

    # -- what the agent cannot do ---------------------------------------------------------------

    def test_public_data_is_read_only(
        self, sandbox_factory: SandboxFactory, competition_dirs: tuple[Path, Path]
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
        self, sandbox_factory: SandboxFactory, competition_dirs: tuple[Path, Path]
    ) -> None:
        answers = competition_dirs[1] / "answers.csv"
        sandbox = sandbox_factory()
        # Inside an isolated sandbox the whole tree is the sandbox's; on the host, only its root.
        roots: tuple[str, ...] = (
            sandbox.paths.home,
            "/tmp",
            "/run",
            "/mnt",
            "/srv",
            "/opt",
            "/root",
            "/var",
        )
        roots = roots if sandbox.isolated else roots[:1]
        code = (
            "import os\n"
            f"try:\n    print(open({str(answers)!r}).read())\nexcept OSError as exc:\n"
            "    print('unreadable', exc.errno)\n"
            f"for root in {roots!r}:\n"
            "    for folder, _, files in os.walk(root):\n"
            "        for name in files:\n"
            "            try:\n"
            "                path = os.path.join(folder, name)\n"
            "                text = open(path, errors='ignore').read(1 << 20)\n"
            "            except OSError:\n"
            "                continue\n"
            f"            if {ANSWER_TOKEN!r} in text:\n"
            "                print('FOUND', os.path.join(folder, name))\n"
        )
        result = run_python(sandbox, code, timeout=120)
        assert "unreadable" in result.output_tail
        assert "FOUND" not in result.output_tail
        assert ANSWER_TOKEN not in result.output_tail

    def test_agent_is_not_root(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory()
        if not sandbox.isolated and os.geteuid() == 0:
            pytest.skip(
                f"{sandbox.backend} backend under a root harness: the agent keeps uid 0 "
                "(not an isolated sandbox)"
            )
        result = run_python(sandbox, "import os; print('uid', os.getuid(), os.geteuid())")
        assert result.exit_code == 0
        uid, euid = (int(v) for v in result.output_tail.split()[1:3])
        assert uid != 0 and euid != 0

    def test_no_network_by_default(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory()
        require_isolation(sandbox, "network")
        code = (
            "import os, socket\n"
            "print('interfaces', sorted(os.listdir('/sys/class/net')))\n"
            "for host, port in (('1.1.1.1', 53), ('deb.debian.org', 80)):\n"
            "    try:\n"
            "        socket.create_connection((host, port), timeout=3); print('CONNECTED', host)\n"
            "    except OSError as exc:\n"
            "        print('blocked', host, exc)\n"
        )
        result = run_python(sandbox, code)
        assert "interfaces ['lo']" in result.output_tail
        assert "CONNECTED" not in result.output_tail

    def test_bridge_network_when_asked(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory(network="bridge")
        require_isolation(sandbox, "network")
        result = run_python(sandbox, "import os; print(sorted(os.listdir('/sys/class/net')))")
        assert "eth0" in result.output_tail
        assert sandbox.spec.network.mode == "bridge"

    def test_memory_limit_is_enforced(self, sandbox_factory: SandboxFactory) -> None:
        sandbox = sandbox_factory(resources=ResourceGrant(memory="512m", pids=256))
        require_isolation(sandbox, "memory")
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


def _read_out(sandbox: Sandbox, path: str, destination: Path) -> str:
    assert sandbox.copy_out(path, destination)
    return destination.read_text()
