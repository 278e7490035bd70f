"""The image builder's service reaches the agent as ``$BUILD_IMAGE`` in every backend.

The builder behind it is a FAKE (it answers without building: the real one is tested on the
engine in ``test_image_builder.py``); what is checked here is the attachment: the script and
client in the service folder, the variables naming them, the call logged on the host.
"""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.sandbox.build_endpoint import BuilderService, BuildReply
from pytest_mlebench.sandbox.services import Services
from tests.sandbox.conftest import SandboxFactory


def fake_build(context: Path, dockerfile: str) -> BuildReply:
    """A FAKE builder: reports what it was sent, builds nothing."""
    names = sorted(path.name for path in context.iterdir())
    return BuildReply(ok=False, log=f"fake builder got {names} with {dockerfile}\n", wall_s=0.0)


def test_build_image_reaches_the_harness_builder(sandbox_factory: SandboxFactory) -> None:
    builder = BuilderService(fake_build, interval=0.0)
    sandbox = sandbox_factory(services=Services.of(builder))
    folder = f"{sandbox.paths.code}/ctx"
    script = (
        f"mkdir -p {folder} && echo 'FROM scratch' > {folder}/Dockerfile && "
        f'"$BUILD_IMAGE" {folder}; echo "status $?"'
    )
    result = sandbox.exec(["sh", "-c", script], timeout=60)
    assert "fake builder got ['Dockerfile'] with Dockerfile" in result.output_tail, result
    assert "status 1" in result.output_tail  # not built: the fake never builds
    sandbox.stop()
    [call] = builder.calls
    assert (call.dockerfile, call.ok) == ("Dockerfile", False)
