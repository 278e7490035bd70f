"""Root conftest: loads the project's fixtures and nothing else."""

pytest_plugins = ["pytest_mlebench.fixtures.benchmark"]
