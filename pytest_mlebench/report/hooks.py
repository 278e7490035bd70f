"""The reporting side of the plugin: one object registered in ``pytest_configure``.

:class:`ReportHooks` holds the reporting state of a session (rerun plan, progress board, the
lines for the terminal summary) and implements the hooks that feed it. On xdist workers it only
labels and annotates the runs it executes; everything printed or written once per session
happens on the controller.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.failure_summary import summarize_failures
from pytest_mlebench.handover import RunTicket, case_of, record_of
from pytest_mlebench.records.run_record import RunRecord, read_records
from pytest_mlebench.report import allure as allure_glue
from pytest_mlebench.report.finish import SessionEnd, finish_session
from pytest_mlebench.report.progress import PROPERTY, ProgressBoard, Ticker, outcome_properties
from pytest_mlebench.report.rerun import RerunPlan, plan_rerun, split_items
from pytest_mlebench.report.summary_json import load_summary
from pytest_mlebench.rerun_series import earlier_series, remember_session, rerun_header
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.settings import source_of

PLUGIN_NAME = "mlebench-report"
# The runs among the node ids an xdist worker collected (the controller never sees items).
TicketsOf = Callable[[Iterable[str]], dict[str, RunTicket]]


class ReportHooks:
    """Reporting state and hooks of one session (controller or worker)."""

    def __init__(
        self, config: pytest.Config, mle_session: MLEBenchSession, tickets_of: TicketsOf
    ) -> None:
        self.config = config
        self.mle_session = mle_session
        self.tickets_of = tickets_of
        self.runs: dict[str, RunTicket] = {}  # by node id, for the progress board
        self.allure_dir = allure_glue.results_dir(config)
        self.collect_only = bool(getattr(config.option, "collectonly", False))
        self.rerun: RerunPlan | None = None
        self.board: ProgressBoard | None = None
        self.ticker: Ticker | None = None
        self.header: list[str] = []
        self.lines: list[str] = []
        self.alarm: str | None = None
        self.records: list[RunRecord] = []  # this session's, read once at its end

    # -- configure ------------------------------------------------------------------------------

    def configure(self) -> None:
        """Controller-side cleaning of the Allure folder and the rerun plan (every process)."""
        settings = self.mle_session.settings
        if settings.clean_alluredir and self.mle_session.is_controller and not self.collect_only:
            if self.allure_dir is None:
                self.header.append("--mle-clean-alluredir without --alluredir: nothing cleaned")
            else:
                removed = allure_glue.clean_results_dir(self.allure_dir)
                self.header.append(f"allure results {self.allure_dir}: cleaned ({removed} entries)")
        if self.mle_session.is_controller:
            self.header += rerun_header(self.config)
        if settings.rerun and settings.rerun_from is not None:
            self.rerun = self._plan(settings.rerun_from)
            self.header.append(self.rerun.header())
            self.header += list(self.rerun.notes)

    def _plan(self, source: Path) -> RerunPlan:
        settings = self.mle_session.settings
        try:
            summary = load_summary(source, settings.seeds)
            return plan_rerun(
                summary,
                source,
                settings.rerun,
                self.mle_session.agent.name,
                [
                    *(c.id for c in self.mle_session.registry),
                    *(t.id for t in self.mle_session.tasks),
                ],
                settings.seeds,
            )
        except (MLEBenchError, ValueError, KeyError) as exc:
            raise pytest.UsageError(f"--mle-from {source}: {exc}") from None

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        return [f"mlebench: {line}" for line in self.header]

    # -- collection -----------------------------------------------------------------------------

    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if self.rerun is None:
            return
        kept, deselected = split_items(items, self.rerun.pairs)
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = kept

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        tickets = ((item.nodeid, case_of(item)) for item in session.items)
        self.runs = {nodeid: ticket for nodeid, ticket in tickets if ticket is not None}
        if self.board is not None and self.runs:
            self.board.total = len(self.runs)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if self.runs:  # every worker collects the same tests: the first one's are enough
            return
        self.runs = self.tickets_of(ids)
        if self.board is not None and self.board.total is None:
            self.board.total = len(self.runs)

    # -- progress (controller) ------------------------------------------------------------------

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        interval = self.mle_session.settings.progress
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if (
            not self.mle_session.is_controller
            or self.collect_only
            or not interval
            or reporter is None
        ):
            return
        self.board = ProgressBoard(line_writer(reporter), self._resolve)
        self.ticker = Ticker(self.board, interval)
        self.ticker.start()

    def _resolve(self, nodeid: str) -> tuple[str, float | None] | None:
        ticket = self.runs.get(nodeid)
        return None if ticket is None else (ticket.label, float(ticket.time_limit))

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self.board is not None:
            self.board.started(nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.board is None:
            return
        if report.when == "setup":
            self.board.setup_finished(report.nodeid, report.outcome)
        elif report.when == "call":
            props = {str(k): v for k, v in report.user_properties}.get(PROPERTY)
            self.board.call_finished(
                report.nodeid, report.outcome, props if isinstance(props, dict) else None
            )

    # -- each run (the process that runs it) ----------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        ticket = case_of(item)
        if self.allure_dir is None or ticket is None:
            return
        if ticket.kind == "engineering":
            labels = allure_glue.task_labels(self.mle_session.tasks.get(ticket.subject))
        else:
            competition = self.mle_session.registry.get(ticket.subject)
            labels = allure_glue.labels_for(competition, (m.name for m in item.iter_markers()))
        agent = ticket.case.agent or self.mle_session.agent.name
        allure_glue.apply_labels(item, ticket, labels, agent)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        if call.when == "call":
            self._annotate(item)  # before the report is built: user_properties travel with it
        report = yield
        if (
            call.excinfo is not None
            and isinstance(call.excinfo.value, MLEBenchError)
            and case_of(item) is not None
            and item.config.option.tbstyle == "auto"
        ):
            # The harness's own errors already say what to do: show that, not a traceback into
            # the harness (--tb=long still shows it; the record has the same message).
            report.longrepr = error_text(call.excinfo.value)
        return report

    def _annotate(self, item: pytest.Item) -> None:
        """Hand the run's outcome to the controller and to Allure (the running test's result)."""
        record, ticket = record_of(item), case_of(item)
        if record is None or ticket is None:
            return
        item.user_properties.append((PROPERTY, outcome_properties(record)))
        if self.allure_dir is not None:
            allure_glue.apply_record(record, ticket)

    # -- end (controller) -----------------------------------------------------------------------

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.ticker is not None:
            self.ticker.stop()
        if not self.mle_session.is_controller or self.collect_only:
            return
        path = self.mle_session.settings.results_path
        records = list(read_records([path])) if path.is_file() else []
        settings = self.mle_session.settings
        records = summarize_failures(
            records, self.mle_session.session_id, settings.summarize,
            dict(settings.gateway_upstreams), settings.price_table, path,
        )  # fmt: skip
        self.records = [r for r in records if r.session_id == self.mle_session.session_id]
        end = SessionEnd(
            rootdir=Path(str(self.config.rootpath)),
            allure_dir=self.allure_dir,
            update_environment=lambda environment: (
                self.config.hook.pytest_mlebench_update_environment(environment=environment)
            ),
            require_given=source_of(self.config, "require") != "default",
            series=earlier_series(self.config),
            extra_writers=tuple(
                writer
                for writers in self.config.hook.pytest_mlebench_report_writers(config=self.config)
                for writer in writers
            ),
        )
        result = finish_session(self.mle_session, records, end)
        if self.records:
            remember_session(
                self.config, self.mle_session.session_id, self.mle_session.settings.agent
            )
        self.lines, self.alarm = list(result.lines), result.alarm
        if result.gate_failed and session.exitstatus in (
            pytest.ExitCode.OK,
            pytest.ExitCode.NO_TESTS_COLLECTED,
        ):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def error_text(error: BaseException) -> str:
    """``Type: message`` of ``error`` and of each error that caused it, one line each."""
    lines = [f"{type(error).__name__}: {error}"]
    cause = error.__cause__ or error.__context__
    while cause is not None and len(lines) < 5:
        if str(cause) not in lines[-1]:  # a wrapper that already quotes its cause says enough
            lines.append(f"  caused by {type(cause).__name__}: {cause}")
        cause = cause.__cause__ or cause.__context__
    lines.append("(the run's record has this message; --tb=long shows the traceback)")
    return "\n".join(lines)


def line_writer(reporter: Any) -> Callable[[str], None]:
    """Write whole lines, also after xdist's progress dots (which leave the line open)."""

    def write(line: str) -> None:
        if getattr(reporter, "_width_of_current_line", 0) and not reporter.currentfspath:
            reporter.write("\n")
        reporter.write_line(line)

    return write


def install(
    config: pytest.Config, mle_session: MLEBenchSession, tickets_of: TicketsOf
) -> ReportHooks:
    """Create, configure and register the reporting hooks of this session; ``tickets_of`` finds
    the runs among node ids an xdist worker collected."""
    hooks = ReportHooks(config, mle_session, tickets_of)
    hooks.configure()
    config.pluginmanager.register(hooks, PLUGIN_NAME)
    return hooks


def _hooks(config: pytest.Config) -> ReportHooks | None:
    hooks = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return hooks if isinstance(hooks, ReportHooks) else None


def terminal_lines(config: pytest.Config) -> list[str]:
    """The controller's end-of-session lines (files written, merge findings, gate)."""
    hooks = _hooks(config)
    return list(hooks.lines) if hooks is not None else []


def session_records(config: pytest.Config) -> list[RunRecord]:
    """The records this session wrote (every worker's), as read once at the session's end."""
    hooks = _hooks(config)
    return list(hooks.records) if hooks is not None else []


def run_labels(config: pytest.Config) -> dict[str, str]:
    """The label of each run this process collected or heard of (by its test id, the key its
    record keeps): how the terminal summary names the runs."""
    hooks = _hooks(config)
    return {nodeid: ticket.label for nodeid, ticket in hooks.runs.items()} if hooks else {}


def alarm_line(config: pytest.Config) -> str | None:
    """The one loud last line of a session in which nothing ran, else ``None``."""
    hooks = _hooks(config)
    return hooks.alarm if hooks is not None else None
