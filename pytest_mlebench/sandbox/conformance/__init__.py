"""The sandbox conformance suite: the tests every sandbox backend passes, shipped with the package.

The project runs its ``local`` and ``docker`` backends through it; a backend plugged in through
the ``pytest_mlebench_make_sandbox`` hook runs it against itself with a few lines in a test module::

    import pytest
    from pytest_mlebench.sandbox.conformance import SandboxConformance

    class TestMySandbox(SandboxConformance):
        @pytest.fixture
        def make_sandbox(self):
            return MySandbox  # any callable: SandboxSpec -> a not-yet-started Sandbox

See ``docs/sandbox.md`` ("Writing a backend").
"""

from __future__ import annotations

from pytest_mlebench.sandbox.conformance.fake_service import FakeEchoService
from pytest_mlebench.sandbox.conformance.host_services import HostServiceChecks
from pytest_mlebench.sandbox.conformance.suite import SandboxConformance, require_isolation
from pytest_mlebench.sandbox.conformance.support import (
    ANSWER_TOKEN,
    MakeSandbox,
    SandboxFactory,
    fake_validator,
    make_spec,
    prepare_competition_dirs,
    run_python,
    validator_of,
)

__all__ = [
    "ANSWER_TOKEN",
    "FakeEchoService",
    "HostServiceChecks",
    "MakeSandbox",
    "SandboxConformance",
    "SandboxFactory",
    "fake_validator",
    "make_spec",
    "prepare_competition_dirs",
    "require_isolation",
    "run_python",
    "validator_of",
]
