"""``--mle-resume``'s side of the session: plan the resume once, run only the runs it names.

:func:`install_resume` plans the resume (:func:`~.resume_plan.plan_resume`) in every process as the
session is configured, keeps the plan on the session (each run looks up its own resume point
there) and registers :class:`ResumeHooks`, which deselect every benchmark test whose (subject,
seed) is not among the runs to resume, the way ``--mle-rerun`` selects (other tests stay).
"""

from __future__ import annotations

import pytest

from pytest_mlebench.checkpoint.resume_plan import ResumePlan, plan_resume
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.report.rerun import split_items
from pytest_mlebench.session import MLEBenchSession

PLUGIN_NAME = "mlebench-resume"


class ResumeHooks:
    """The resume plan's hooks: its header line and the selection."""

    def __init__(self, plan: ResumePlan) -> None:
        self.plan = plan

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        return [f"mlebench: {self.plan.header()}"]

    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        kept, deselected = split_items(items, self.plan.pairs)
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = kept


def install_resume(config: pytest.Config, mle_session: MLEBenchSession) -> None:
    """Plan ``--mle-resume`` (a usage error when its path holds no runs of the agent) and
    register its hooks; nothing without the option."""
    source = mle_session.settings.resume
    if source is None:
        return
    try:
        plan = plan_resume(source, mle_session.agent.name, mle_session.session_id)
    except MLEBenchError as exc:
        raise pytest.UsageError(str(exc)) from None
    mle_session.resume = plan
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(ResumeHooks(plan), PLUGIN_NAME)
