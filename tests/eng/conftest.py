"""The fixture tasks' own files (their hidden verifier, their visible tests) are not tests of this
suite: they run only inside an engineering run."""

import contextlib

import pytest

from pytest_mlebench.sandbox import docker_status
from pytest_mlebench.sandbox.docker.profiles import ensure_profile

# Imported once here, outside any test: pytester's tests restore sys.modules afterwards, and a
# Docker client module imported inside one would come back as a second copy whose classes the
# first copy's objects no longer match.
with contextlib.suppress(ImportError):
    import docker  # noqa: F401

collect_ignore = ["tasks"]


def eng_image() -> str:
    """The eng image's tag, built now (once, file-locked across workers) when it is missing; the
    test is skipped without a Docker engine. The verifier's image of every engineering task."""
    available, why = docker_status()
    if not available:
        pytest.skip(f"no Docker engine: {why}")
    return ensure_profile("eng", progress=lambda line: print(line, flush=True))
