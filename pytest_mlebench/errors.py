"""The exception hierarchy: one base, infrastructure errors apart from the agent's outcome.

Infrastructure errors (:class:`DataNotPrepared`, :class:`SandboxError`, :class:`AgentError`) are the
harness's problem and show as *error* / Allure *broken*. The agent's outcome (an invalid submission,
a result below the gate) is reported with ``pytest.fail`` and shows as *failed*.
"""

from __future__ import annotations


class MLEBenchError(Exception):
    """Base class of every error this package raises on purpose."""


class SettingError(MLEBenchError):
    """A setting (option, environment variable, ini key) has a bad value.

    The message names the setting, the value, where it came from and what is allowed; pytest shows
    it as a usage error (exit 4), the ``mlebench`` command exits 2.
    """


class ConfigError(MLEBenchError):
    """A competition's config, leaderboard or split file is broken; the message names the fix."""


class UnknownCompetition(MLEBenchError):
    """A competition id that is not in the registry."""


class DataNotPrepared(MLEBenchError):
    """A competition's data is not there and cannot be made offline.

    Attributes:
        command: The exact shell command that prepares it.
    """

    def __init__(self, message: str, command: str) -> None:
        super().__init__(f"{message}; prepare it with: {command}")
        self.command = command


class PrepareError(MLEBenchError):
    """A competition's ``prepare`` step failed or produced data that breaks its invariants."""


class SandboxError(MLEBenchError):
    """The sandbox could not be started, used or stopped (infrastructure, not the agent)."""


class AgentError(MLEBenchError):
    """An agent could not be found, configured or launched."""
