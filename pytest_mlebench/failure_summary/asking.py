"""Ask the model why each failed run failed, at the session's end; record the answer.

The call goes through the LLM gateway as the integrity judge's does
(:func:`~pytest_mlebench.integrity.judge.ask`: a gateway of its own, started for the call, with
the provider from ``--mle-gateway-upstream`` or the provider's default, the price table, the key
from the host's environment, the transcript and the token and cost ledger). Its cost is the
summaries' own, never the agent's. A run that did not fail is not asked about; a run summarised
already keeps its summary. Nothing here breaks a session: a missing key, a model that cannot be
reached or an error answer becomes the summary's ``error`` note.

Each summary is written into the run's folder (``failure-summary.json``, with the prompt in
``failure-summary-prompt.md``, the gateway's transcript in ``failure-summary.jsonl``, and the
folder's ``record.json``) and into the run's line of the results file, so every report built
from it shows it.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.failure_summary.prompt import failed, failure_prompt
from pytest_mlebench.integrity.judge import ACCOUNTING, JudgeSetup, ask, judge_setup
from pytest_mlebench.records.rewrite import replace_records, write_run_record
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.timestamps import utc_timestamp

SUMMARY_FILE = "failure-summary.json"
PROMPT_FILE = "failure-summary-prompt.md"
TRANSCRIPT_FILE = "failure-summary.jsonl"
MAX_SUMMARY_CHARS = 1500


def summarize_failures(
    records: Sequence[RunRecord],
    session_id: str,
    model: str | None,
    upstreams: Mapping[str, str],
    price_table: Path | None,
    results: Path,
    environ: Mapping[str, str] | None = None,
) -> list[RunRecord]:
    """``records`` with a failure summary added to each failed run of ``session_id``.

    The changed records are also written back: into the results file and the runs' folders.
    Without ``model`` (``--mle-summarize`` not given) the records come back as they are.
    """
    wanted = [
        r for r in records if r.session_id == session_id and failed(r) and not r.failure_summary
    ]
    if model is None or not wanted:
        return list(records)
    try:
        setup: JudgeSetup | str = judge_setup(model, None, upstreams, price_table, environ)
    except Exception as exc:  # a missing key or price table: a note per run, never a failure
        setup = f"not asked: {exc}"
    changed = {r.run_id: replace(r, failure_summary=summarize_run(r, model, setup)) for r in wanted}
    replace_records(results, changed)
    for record in changed.values():
        write_run_record(record)
    return [changed.get(r.run_id, r) for r in records]


def summarize_run(record: RunRecord, model: str, setup: JudgeSetup | str) -> dict[str, Any]:
    """The summary entry of one failed run (``text`` or ``error``), also written to its folder."""
    entry: dict[str, Any] = {"model": model, "at": utc_timestamp(), "text": None, "error": None}
    folder = Path(record.run_dir) if record.run_dir and Path(record.run_dir).is_dir() else None
    if isinstance(setup, str):
        entry["error"] = setup
    else:
        entry.update(_asked(record, setup, folder))
    if folder is not None:
        write_atomically(folder / SUMMARY_FILE, json.dumps(entry, indent=2) + "\n")
    return entry


def _asked(record: RunRecord, setup: JudgeSetup, folder: Path | None) -> dict[str, Any]:
    try:
        prompt = failure_prompt(record)
        if folder is not None:
            (folder / PROMPT_FILE).write_text(prompt.as_text(), "utf-8")
        with tempfile.TemporaryDirectory(prefix="mlebench-summary-") as spare:
            transcript = (folder or Path(spare)) / TRANSCRIPT_FILE
            call = ask(setup, prompt, transcript)
    except Exception as exc:  # an unreachable model is a note on the run, never a failure
        return {"error": f"the model could not be asked: {type(exc).__name__}: {exc}"}
    found: dict[str, Any] = {key: call.accounting.get(key) for key in ACCOUNTING}
    text = call.reply.strip()
    if call.status != 200:
        found["error"] = f"the provider answered {call.status}: {text[:300]}"
    elif not text:
        found["error"] = "the model gave an empty answer"
    else:
        found["text"] = text[:MAX_SUMMARY_CHARS]
    return found
