"""A run's page from the folders of three real runs (``run_page_runs/``, see its README): the
steps each source gives, their order, the escaping of what the sandbox wrote, ``mlebench show``
and the session page's link."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.cli.show_command import ShowError, find_run
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.report.html import write_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.run_page import (
    RunFolderError,
    SubmissionCopy,
    load_run_page,
    reading,
    render_run_page,
    steps_text,
)
from pytest_mlebench.report.run_page.assemble import without_repeated_outputs
from pytest_mlebench.report.run_page.model import Part, Step
from pytest_mlebench.report.summary_json import build_summary

RUNS = Path(__file__).with_name("run_page_runs")


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """A copy of the three run folders under ``runs/``, beside a results file's place."""
    shutil.copytree(RUNS, tmp_path / "runs")
    return tmp_path / "runs"


def transcript(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "gateway.jsonl").read_text().splitlines()]


def test_mini_swe_turns_and_commands_alternate_as_they_happened(runs: Path) -> None:
    page = load_run_page(runs / "mini-swe")
    kinds = [step.kind for step in page.steps]
    assert kinds == ["llm", "command"] * 3 + ["validation"]
    turns = [step for step in page.steps if step.kind == "llm"]
    calls = transcript(runs / "mini-swe")
    assert len(turns) == len(calls) == 3  # every call of the transcript, once
    for turn, call in zip(turns, calls, strict=True):
        usage = call["usage"]
        assert isinstance(usage, dict)
        assert f"{usage['input_tokens']} in / {usage['output_tokens']} out" in turn.facts
        assert f"${call['cost_usd']:.6f}" in turn.facts
    first, second = (dict((p.label, p.text) for p in t.parts) for t in turns[:2])
    assert first["prompt"].startswith("[system]\nYou are an autonomous machine-learning engineer")
    assert second["prompt"].startswith("[3 earlier message(s) not repeated]\n[tool]")
    assert "Validation ROC AUC: 0.8392" in second["prompt"]  # the new input: the last output
    assert "[call bash]\ncat > solve.py" in first["answer"]
    commands = [step for step in page.steps if step.kind == "command"]
    assert commands[0].title == "cat > solve.py <<'PY'"
    assert commands[0].facts == ("exit 0",)
    assert dict((p.label, p.text) for p in commands[0].parts)["output"].startswith(
        "Validation ROC AUC: 0.8392"
    )
    assert commands[-1].title == "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
    assert page.log_text is not None and "mini-swe" in page.log_text  # untimed: shown whole


def test_aide_nodes_sit_between_their_calls(runs: Path) -> None:
    page = load_run_page(runs / "aide")
    assert [step.kind for step in page.steps] == ["llm", "node", "llm", "llm", "node", "llm"]
    node = page.steps[1]
    assert node.title.startswith("node 0: One-hot encode class and sex")
    assert node.facts[0] == "metric 0.8358" and not node.failed
    assert [p.label for p in node.parts] == ["plan", "code", "output", "analysis"]
    review = dict((p.label, p.text) for p in page.steps[2].parts)["answer"]
    assert review.startswith("[assistant]\n[call submit_review]")
    turns = [step for step in page.steps if step.kind == "llm"]
    calls = transcript(runs / "aide")
    assert len(turns) == len(calls)  # the page's LLM turns are the transcript's calls
    for turn, call in zip(turns, calls, strict=True):
        message = call["response"]["choices"][0]["message"]  # type: ignore[index]
        answer = dict((p.label, p.text) for p in turn.parts)["answer"]
        assert (message["content"] or "") in answer
        for tool_call in message.get("tool_calls") or ():
            assert f"[call {tool_call['function']['name']}]" in answer


def test_resources_carry_the_gpu_samplers_summary(runs: Path) -> None:
    data = json.loads((runs / "baseline" / "record.json").read_text())
    usage = {"granted": 2, "used": 1, "sampler": "nvml", "devices": [
        {"index": "0", "utilization_max": 87.0, "memory_peak_bytes": 10 * 1024**3},
        {"index": "1", "utilization_max": 0.0, "memory_peak_bytes": None}]}  # fmt: skip
    page = load_run_page(runs / "baseline", RunRecord.from_dict({**data, "gpu_usage": usage}))
    html = render_run_page(page)
    assert "GPUs granted 2, used 1 (nvml: GPU 0 87 % peak, 10.0 GiB; GPU 1 0 % peak)" in html
    assert "GPUs" not in render_run_page(load_run_page(runs / "baseline"))


def test_baseline_log_lines_are_timed_steps_with_the_validator_call(runs: Path) -> None:
    page = load_run_page(runs / "baseline")
    assert [step.kind for step in page.steps].count("log") == 7
    assert page.steps[0].title.startswith("metric accuracy; train (1258, 66)")
    validation = next(step for step in page.steps if step.kind == "validation")
    assert validation.title == "validator: valid" and "539 rows" in validation.facts
    assert page.log_text is None
    assert page.files[0].path == "submission.csv"
    assert "code/baseline/task.py" in {f.path for f in page.files}
    text = steps_text(page)
    assert "+0:01  log        metric accuracy" in text
    assert "medal: silver" in text


def test_untimed_lines_fold_into_the_timed_line_before_them(tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(RUNS / "baseline", run)
    (run / "agent.log").write_text(
        "starting\n2026-12-08 01:54:56,098 fitting\nTraceback (most recent call last):\n"
        "  File x\nValueError: bad\n2026-12-08 01:54:58 done\n"
    )
    page = load_run_page(run)
    logs = [step for step in page.steps if step.kind == "log"]
    assert [step.title for step in logs] == ["starting", "fitting", "done"]
    assert logs[0].at is None and logs[2].at is not None and logs[1].at is not None
    assert logs[2].at - logs[1].at == pytest.approx(1.902)
    assert (
        logs[1].parts[0].text.startswith("Traceback") and "ValueError: bad" in logs[1].parts[0].text
    )


HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="alert(1)">'


def hostile_run(root: Path) -> Path:
    """The mini-swe run with markup in its log, a command's output and a model answer."""
    run = root / "hostile"
    shutil.copytree(RUNS / "mini-swe", run)
    (run / "agent.log").write_text(f"mini-swe: {HOSTILE}\n")
    trajectory = run / "logs" / "mini-swe" / "trajectory.json"
    trajectory.write_text(
        trajectory.read_text().replace("Validation ROC AUC", HOSTILE.replace('"', "'"))
    )
    calls = transcript(run)
    calls[0]["response"]["choices"][0]["message"]["content"] = HOSTILE  # type: ignore[index]
    (run / "gateway.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
    return run


def test_what_the_sandbox_wrote_is_escaped(tmp_path: Path) -> None:
    html = render_run_page(load_run_page(hostile_run(tmp_path)))
    assert "<script" not in html and "<img" not in html
    assert html.count("&lt;script&gt;document.title=") >= 3  # the log, an output, an answer
    assert "Content-Security-Policy" in html and "default-src 'none'" in html


def test_submission_copies_render_only_when_the_run_has_them(runs: Path) -> None:
    page = load_run_page(runs / "baseline")
    assert page.submission_copies == () and "Submission copies" not in render_run_page(page)
    copies = (SubmissionCopy(100.0, 0.91, None), SubmissionCopy(160.0, 0.98, "silver"))
    html = render_run_page(replace(page, submission_copies=copies))
    assert "<h2>Submission copies</h2>" in html and "<td>+2:40</td><td>0.98</td><td>silver" in html


def test_a_folder_without_a_record_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError, match="has no record.json: it is not a run folder"):
        load_run_page(tmp_path)


def test_show_finds_a_run_by_id_or_prefix_and_names_the_fix(runs: Path) -> None:
    results = runs.parent / "results.jsonl"
    assert find_run("mini-swe", results) == runs / "mini-swe"
    assert find_run("bas", results) == runs / "baseline"
    assert find_run(str(runs / "aide"), results) == runs / "aide"
    with pytest.raises(ShowError, match=r"no run 'mini_swe' .*did you mean: mini-swe\?.*--results"):
        find_run("mini_swe", results)
    with pytest.raises(ShowError, match="has no runs"):
        find_run("x", runs / "elsewhere" / "results.jsonl")


def test_show_prints_the_steps_and_writes_the_page(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = str(runs.parent / "results.jsonl")
    assert main(["show", "mini-swe", "--results", results, "--print"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("run titanic-s0-edbe7ebe\n")
    assert "llm        POST /v1/chat/completions gpt-4o-mini" in out
    assert err == f"page: {runs / 'mini-swe' / 'run.html'}\n"
    assert "Validation ROC AUC" in (runs / "mini-swe" / "run.html").read_text()
    assert main(["show", "nothing-like-it", "--results", results]) == 1
    assert "mlebench: error: no run 'nothing-like-it'" in capsys.readouterr().err


def test_the_session_page_links_each_run_to_its_page(runs: Path, tmp_path: Path) -> None:
    def moved(name: str, run_dir: Path) -> RunRecord:
        data = json.loads((runs / name / "record.json").read_text())
        return RunRecord.from_dict({**data, "run_dir": str(run_dir)})

    here, gone = moved("baseline", runs / "baseline"), moved("aide", tmp_path / "gone")
    index = write_html(tmp_path / "site", build_summary(merge_records([here, gone])))
    assert (runs / "baseline" / "run.html").is_file()
    html = index.read_text()
    assert html.count('class="run-page"') == 1  # the run whose folder is gone has no page
    assert '<a class="run-page" href="../runs/baseline/run.html">steps</a>' in html


def test_a_prompt_points_to_the_command_output_it_repeats() -> None:
    output = "epoch 1: loss 0.5\n" * 20
    steps = [
        Step("command", 1.0, "python train.py", parts=(Part("output", output),)),
        Step(
            "llm",
            2.0,
            "POST",
            parts=(Part("prompt", f"[tool]\n<output>\n{output}</output>"), Part("answer", output)),
        ),
    ]
    kept = without_repeated_outputs(steps)
    assert kept[0] == steps[0]
    prompt, answer = kept[1].parts
    assert (
        prompt.text
        == f"[tool]\n<output>\n[the output of the command above, {len(output)} characters]</output>"
    )
    assert answer.text == output  # only the prompt repeats what the page already shows


def test_a_line_over_the_bound_is_cut_and_the_next_lines_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "MAX_LINE_BYTES", 8)
    log = tmp_path / "agent.log"
    log.write_bytes(b"short\n" + b"x" * 30 + b"\nafter\n" + b"y" * 8 + b"\nend")
    assert list(reading.bounded_lines(log)) == ["short", "x" * 8, "after", "y" * 8, "end"]


def test_integrity_findings_show_their_evidence_and_a_withheld_medal(runs: Path) -> None:
    record = load_run_page(runs / "baseline").record
    assert record.integrity is not None
    flag = Flag("process", "editor", "high", "an editor ran in the sandbox",
                {"command": "vim <b>answers</b>.csv", "first_seen": 3.0})  # fmt: skip
    flagged = replace(record.integrity, flags=(flag,), medal_withheld=True, mode="strict")
    html = render_run_page(load_run_page(runs / "baseline", replace(record, integrity=flagged)))
    assert '<span class="flag flag-high">high</span> <b>process/editor</b>' in html
    assert "an editor ran in the sandbox" in html
    assert "&quot;command&quot;: &quot;vim &lt;b&gt;answers&lt;/b&gt;.csv&quot;" in html
    assert "<b>medal withheld</b> (silver)" in html and "withheld by integrity" in html


def test_show_names_the_fix_when_the_page_cannot_be_written(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = runs.parent / "no-such-folder" / "page.html"
    assert main(["show", str(runs / "aide"), "--output", str(where), "--print"]) == 1
    err = capsys.readouterr().err
    assert f"cannot write the run's page to {where}" in err and "--output FILE" in err
