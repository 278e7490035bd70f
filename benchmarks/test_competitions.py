"""Every competition of the registry as a pytest test (see ``docs/usage.md``)."""

from pytest_mlebench.benchmark import test_competition

__all__ = ["test_competition"]
