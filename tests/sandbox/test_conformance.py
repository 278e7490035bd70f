"""Our backends pass the shipped sandbox contract (:mod:`pytest_mlebench.sandbox.conformance`).

The tests live in the package so a third-party backend runs the same ones; here each of our
backends is one subclass. Docker's skips with the reason where no engine answers.
"""

from __future__ import annotations

import pytest

from pytest_mlebench.sandbox.conformance import MakeSandbox, SandboxConformance
from pytest_mlebench.sandbox.interface import Sandbox, SandboxSpec
from pytest_mlebench.sandbox.local import LocalSandbox
from tests.sandbox.conftest import in_test_session


class TestLocalSandbox(SandboxConformance):
    @pytest.fixture
    def make_sandbox(self) -> MakeSandbox:
        return LocalSandbox


class TestDockerSandbox(SandboxConformance):
    @pytest.fixture
    def make_sandbox(self, docker_image: str) -> MakeSandbox:
        from pytest_mlebench.sandbox.docker import DockerSandbox

        def make(spec: SandboxSpec) -> Sandbox:
            return DockerSandbox(in_test_session(spec))

        return make
