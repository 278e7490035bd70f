"""The host-service part of the sandbox contract: the validator, and any service at all.

A backend offers one service site and runs ``spec.services`` through it
(:mod:`pytest_mlebench.sandbox.services`); these checks hold it to that with the real validator
and with a fake service the backend has never heard of (:mod:`.fake_service`), so a backend that
passes them serves the next service unchanged. :class:`HostServiceChecks` is part of
:class:`~.suite.SandboxConformance`; it uses that class's ``sandbox_factory`` and
``make_sandbox`` fixtures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.conformance.fake_service import (
    ECHO_CLIENT,
    NOTE_TEXT,
    FakeEchoService,
)
from pytest_mlebench.sandbox.conformance.support import (
    MakeSandbox,
    SandboxFactory,
    make_spec,
    run_python,
    validator_of,
)
from pytest_mlebench.sandbox.services import HostService, Services, ServiceSite


class FakeBrokenService(HostService):
    """A fake host service (tests only) whose start always fails."""

    name = "fake-broken"

    def start(self, site: ServiceSite) -> None:
        raise SandboxError("the fake broken service cannot start (as it should)")

    def stop(self) -> None:
        return None


class HostServiceChecks:
    """Host services reach the agent through the backend, whatever they are."""

    def test_validator_answers_valid_or_invalid_never_a_score(
        self, sandbox_factory: SandboxFactory
    ) -> None:
        sandbox = sandbox_factory()
        good = f"{sandbox.paths.submission}/good.csv"
        bad = f"{sandbox.paths.submission}/bad.csv"
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
        calls = validator_of(sandbox).calls
        assert [call.valid for call in calls] == [True, False]
        assert all(call.time for call in calls)
        sandbox.stop()
        assert [call.valid for call in validator_of(sandbox).calls] == [True, False]

    def test_a_service_the_backend_never_heard_of_reaches_the_agent(
        self, sandbox_factory: SandboxFactory
    ) -> None:
        service = FakeEchoService()
        sandbox = sandbox_factory(services=Services.of(service))
        result = run_python(sandbox, ECHO_CLIENT)
        assert result.exit_code == 0, result.output_tail
        assert 'answer {"echo": "hello from inside"}' in result.output_tail
        assert "wrapped 1" in result.output_tail  # the service's wrapper ran the command
        assert f"note {NOTE_TEXT}" in result.output_tail  # its file, in the site, seen inside
        sandbox.stop()
        assert service.stopped and service.heard == ["hello from inside"]
        assert service.endpoint is not None and not service.endpoint.socket_path.exists()

    def test_a_service_that_cannot_start_stops_the_started_ones(
        self, make_sandbox: MakeSandbox, competition_dirs: tuple[Path, Path]
    ) -> None:
        echo = FakeEchoService()
        spec = make_spec(competition_dirs[0], services=Services.of(echo, FakeBrokenService()))
        sandbox = make_sandbox(spec)
        try:
            with pytest.raises(SandboxError, match="fake broken service"):
                sandbox.start()
        finally:
            sandbox.stop()
        assert echo.stopped
