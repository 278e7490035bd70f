"""Allure glue: labels, parameters and attachments per run; environment and categories per session.

Active only when allure-pytest is installed *and* ``--alluredir`` is given; ``allure`` is imported
inside the functions that talk to it, never at module import. What goes into Allure is computed by
pure functions (:func:`labels_for`, :func:`attachments_for`, :func:`environment_lines`) so it can be
tested without Allure; the ``apply_*`` functions only hand it over.

Per run (of either kind: the run's ticket and record come from the item's stash,
:mod:`pytest_mlebench.handover`): parent suite = the competition's or task's first split
(alphabetical; every split is also a tag through its marker), feature = complexity, story =
competition or task id, severity from complexity, tags = modality (a task: its category) and
``medal:<gold|silver|bronze|none>``; parameters ``agent`` and ``seed`` (part of
Allure's history id) and ``run_id``/``session_id`` and the leaderboard ``percentile`` (excluded
from it). An engineering task's run gets one step per check, its dimension scores and a radar
(:mod:`~pytest_mlebench.report.allure_engineering`). Attachments: the grade report (mle-bench's
keys, as in the run's ``grade.json``), the head of the submission, the tail of the agent log and
the resources used. A run that used the LLM gateway also gets the parameters ``llm_calls``,
``llm_tokens`` and ``llm_cost_usd`` (excluded from the history id), the tag
``llm:budget-exhausted`` when its budget ran out, and its transcript ``gateway.jsonl`` attached as
it is on disk (keys are cut out of it when it is written:
:mod:`pytest_mlebench.gateway.transcript`).
"""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.handover import RunTicket
from pytest_mlebench.integrity.reporting import allure_categories, allure_tags
from pytest_mlebench.records.mlebench_grade import grade_json
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.registry import Competition
from pytest_mlebench.report.allure_engineering import apply_engineering, engineering_categories
from pytest_mlebench.report.summary_json import node_text, run_node

SEVERITY = {"low": "minor", "medium": "normal", "high": "critical"}
SUBMISSION_HEAD_LINES = 20
AGENT_LOG_TAIL_LINES = 200
CATEGORIES_FILE = "categories.json"
ENVIRONMENT_FILE = "environment.properties"
TRANSCRIPT_ATTACHMENT = "gateway.jsonl (LLM calls, keys redacted)"
BUDGET_TAG = "llm:budget-exhausted"
FAILURE_CLASS_LABEL = "failure_class"  # the run's class (medal … infra), records/failure_class.py

# Order matters: Allure puts a result in the first category that matches it.
DEFAULT_CATEGORIES: list[dict[str, Any]] = [
    {
        "name": "Timeout",
        "matchedStatuses": ["failed", "broken"],
        "messageRegex": "(?s).*(timeout after|Timeout).*",
    },
    {
        "name": "Infrastructure error",
        "matchedStatuses": ["broken"],
    },
    {
        "name": "Invalid submission",
        "matchedStatuses": ["failed"],
        "messageRegex": "(?s).*(invalid submission|no submission).*",
    },
    {
        "name": "No medal (below the gate)",
        "matchedStatuses": ["failed"],
        "messageRegex": "(?s).*(earns |not above the leaderboard median).*",
    },
    *engineering_categories(),
    *allure_categories(),
]


@dataclass(frozen=True)
class Attachment:
    """One thing to attach to a run's Allure result."""

    name: str
    body: str
    kind: str  # an ``allure.attachment_type`` member name: JSON, CSV, TEXT


def results_dir(config: pytest.Config) -> Path | None:
    """The ``--alluredir`` folder when allure-pytest is writing one, else ``None``."""
    if not config.pluginmanager.has_plugin("allure_listener"):
        return None
    value = getattr(config.option, "allure_report_dir", None)
    return Path(value).absolute() if value else None


def clean_results_dir(folder: Path) -> int:
    """Empty ``folder`` (keep the folder itself); returns how many entries were removed."""
    if not folder.is_dir():
        return 0
    removed = 0
    for entry in folder.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed += 1
    return removed


def primary_split(splits: Iterable[str]) -> str:
    """The split a run is filed under as its parent suite (``all`` only when it is the only one:
    every MLE-bench competition is in it, so ``lite``/``medium``/``high`` says more)."""
    ordered = sorted(splits, key=lambda name: (name == "all", name))
    return ordered[0] if ordered else "no split"


def labels_for(competition: Competition, marker_names: Iterable[str]) -> list[tuple[str, str]]:
    """``(label type, value)`` pairs known before the run starts.

    Args:
        competition: The run's competition.
        marker_names: Names of the test's markers (allure-pytest turns them into tags already).
    """
    labels = [
        ("parentSuite", primary_split(competition.splits)),
        ("feature", f"{competition.complexity} complexity"),
        ("story", competition.id),
        ("severity", SEVERITY.get(competition.complexity, "normal")),
    ]
    if competition.modality not in set(marker_names):
        labels.append(("tag", competition.modality))
    return labels


def medal_tag(record: RunRecord) -> str:
    return f"medal:{record.medal or 'none'}"


def title_for(record: RunRecord, label: str) -> str:
    """The result's title: which run (``label``, the test's parameter id from its ticket), and
    what it earned (``toy-s1: gold, score 0.98``)."""
    if record.kind == "engineering":
        block = record.engineering or {}
        score = block.get("score")
        shown = "no score" if score is None else f"score {100 * float(score):.1f}"
        return f"{label}: {record.outcome}, {shown}"
    score = record.grade.score if record.grade else None
    earned = record.medal or "no medal"
    return f"{label}: {earned}, " + (f"score {score:.5g}" if score is not None else "no score")


def percentile_parameter(record: RunRecord) -> str | None:
    """The run's leaderboard percentile as Allure shows it (``35.0``); ``None`` without one."""
    percentile = record.grade.percentile if record.grade else None
    return None if percentile is None else f"{percentile:.1f}"


def original_parameter(record: RunRecord) -> str | None:
    """``bronze (score 0.97101)``: the original MLE-bench's medal and score, for a competition it
    grades otherwise (``docs/mlebench.md``); ``None`` elsewhere."""
    grade = record.grade
    if grade is None or not grade.original_differs:
        return None
    medal = record.original_medal or "none"
    score = "-" if grade.original_score is None else f"{grade.original_score:.5g}"
    return f"{medal} (score {score}, {grade.original_grader})"


def _head(path: Path, lines: int) -> str | None:
    if not path.is_file():
        return None
    with path.open(encoding="utf-8", errors="replace") as handle:
        return "".join(itertools.islice(handle, lines))


def _tail(path: Path, lines: int) -> str | None:
    if not path.is_file():
        return None
    text = path.read_text("utf-8", errors="replace").splitlines(keepends=True)
    return "".join(text[-lines:])


def attachments_for(record: RunRecord) -> list[Attachment]:
    """The grade report, submission head, agent-log tail and resources of one run."""
    found = []
    if record.grade is not None:
        found.append(Attachment("grade report", grade_json(record.grade), "JSON"))
    run_dir = Path(record.run_dir) if record.run_dir else None
    head = _head(run_dir / "submission.csv", SUBMISSION_HEAD_LINES) if run_dir else None
    if head is not None:
        found.append(
            Attachment(f"submission.csv (first {SUBMISSION_HEAD_LINES} lines)", head, "CSV")
        )
    tail = _tail(run_dir / "agent.log", AGENT_LOG_TAIL_LINES) if run_dir else None
    if tail is not None:
        found.append(Attachment(f"agent.log (last {AGENT_LOG_TAIL_LINES} lines)", tail, "TEXT"))
    found.append(Attachment("resources", json.dumps(resources_used(record), indent=2), "JSON"))
    if record.integrity is not None:
        body = json.dumps(record.integrity.to_dict(), indent=2, default=str)
        found.append(Attachment("integrity (flags, disclosure)", body, "JSON"))
    return found


def resources_used(record: RunRecord) -> dict[str, Any]:
    """What the run was granted and what it used."""
    return {
        "granted": record.resources,
        "sandbox": record.sandbox,
        "isolated": record.isolated,
        "network": record.network,
        "time_limit": record.time_limit,
        "wall_seconds": record.wall_seconds,
        "cpu_seconds": record.cpu_seconds,
        "peak_memory_bytes": record.peak_memory_bytes,
        "exit_code": record.exit_code,
        "timed_out": record.timed_out,
        "oom_killed": record.oom_killed,
        "node": record.node,
    }


def usage_parameters(record: RunRecord) -> list[tuple[str, str]]:
    """``llm_calls``, ``llm_tokens`` and ``llm_cost_usd`` of a run that used the gateway."""
    account = record.gateway
    if account is None:
        return []
    tokens = int(account.get("input_tokens") or 0) + int(account.get("output_tokens") or 0)
    cost = account.get("cost_usd")
    return [
        ("llm_calls", str(account.get("calls") or 0)),
        ("llm_tokens", str(tokens)),
        ("llm_cost_usd", "unknown" if cost is None else f"{cost:.4f}"),
    ]


def transcript_file(record: RunRecord) -> Path | None:
    """The run's gateway transcript when it was written (no call, no file)."""
    name = (record.gateway or {}).get("transcript")
    if not name or not record.run_dir:
        return None
    path = Path(record.run_dir) / str(name)
    return path if path.is_file() else None


def task_labels(task: EngTask) -> list[tuple[str, str]]:
    """``(label type, value)`` pairs of an engineering task's run known before it starts: the
    same suites as a competition's (first split, complexity, the task's id as story) and its
    category as a tag."""
    return [
        ("parentSuite", primary_split(task.splits)),
        ("feature", f"{task.complexity} complexity"),
        ("story", task.id),
        ("severity", SEVERITY.get(task.complexity, "normal")),
        ("tag", task.category),
    ]


def apply_labels(
    item: pytest.Item, ticket: RunTicket, labels: Iterable[tuple[str, str]], agent: str
) -> None:
    """Label the running test (call while allure-pytest has its result open)."""
    import allure

    dynamic: Any = allure.dynamic
    for label_type, value in labels:
        dynamic.label(label_type, value)
    dynamic.parameter("agent", agent)
    dynamic.parameter("seed", ticket.seed)
    params: dict[str, object] = getattr(getattr(item, "callspec", None), "params", {})
    for name, param in params.items():
        if param is ticket:
            # Shown already as story + seed; hidden, but still part of the history id (the
            # case, as before tickets: a history id stays the same across versions).
            dynamic.parameter(name, ticket.case, mode=allure.parameter_mode.HIDDEN)


def apply_record(record: RunRecord, ticket: RunTicket) -> None:
    """Tag the medal and attach the run's files (call while the test's result is open)."""
    import allure

    dynamic: Any = allure.dynamic
    dynamic.title(title_for(record, ticket.label))
    dynamic.tag(medal_tag(record), *allure_tags(record))
    if (record.gateway or {}).get("budget_exhausted"):
        dynamic.tag(BUDGET_TAG)
    if record.failure_class is not None:
        dynamic.label(FAILURE_CLASS_LABEL, record.failure_class)
    if record.attempts:  # --mle-retries tried it again after the harness broke
        dynamic.parameter("attempts", str(len(record.attempts) + 1), excluded=True)
    dynamic.parameter("run_id", record.run_id, excluded=True)
    dynamic.parameter("session_id", record.session_id, excluded=True)
    percentile = percentile_parameter(record)
    if percentile is not None:
        dynamic.parameter("percentile", percentile, excluded=True)
    for name, value in usage_parameters(record):
        dynamic.parameter(name, value, excluded=True)
    original = original_parameter(record)
    if original is not None:
        dynamic.parameter("original_medal", original, excluded=True)
    node = run_node(record)
    if node is not None:
        # Allure's timeline groups results by the host label: one lane per Ray node.
        dynamic.label("host", f"{node['hostname']} ({node['ip']})")
        dynamic.parameter("node", node_text(node), excluded=True)
    for attachment in attachments_for(record):
        kind = getattr(allure.attachment_type, attachment.kind)
        allure.attach(attachment.body, name=attachment.name, attachment_type=kind)
    if record.kind == "engineering":
        apply_engineering(record)
    transcript = transcript_file(record)
    if transcript is not None:
        attach_file: Any = allure.attach.file
        attach_file(
            str(transcript),
            name=TRANSCRIPT_ATTACHMENT,
            attachment_type=allure.attachment_type.TEXT,
        )


def load_categories(template: Path | None) -> list[dict[str, Any]]:
    """The categories template at ``template`` when it is a JSON list, else the built-in one."""
    if template is not None and template.is_file():
        try:
            data = json.loads(template.read_text("utf-8"))
        except ValueError:
            data = None
        if isinstance(data, list):
            return data
    return DEFAULT_CATEGORIES


def environment_lines(environment: dict[str, Any]) -> list[str]:
    """``key = value`` lines of a Java properties file (keys sorted, special characters escaped)."""

    def escape(text: str, key: bool) -> str:
        text = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
        return text.replace("=", "\\=").replace(":", "\\:").replace(" ", "\\ ") if key else text

    return [
        f"{escape(str(k), True)} = {escape(str(v), False)}" for k, v in sorted(environment.items())
    ]


def write_session_files(
    folder: Path, environment: dict[str, Any], categories: list[dict[str, Any]]
) -> None:
    """Write ``environment.properties`` and ``categories.json`` into the results folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ENVIRONMENT_FILE).write_text(
        "\n".join(environment_lines(environment)) + "\n", "utf-8"
    )
    (folder / CATEGORIES_FILE).write_text(json.dumps(categories, indent=2) + "\n", "utf-8")
