"""Every engineering task of the registry as a pytest test (see ``docs/engineering.md``)."""

from pytest_mlebench.benchmark import test_engineering_task

__all__ = ["test_engineering_task"]
