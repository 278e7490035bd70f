"""What a run's page costs for a long run: build time, page size and the browser's time to load it.

Writes a mini-swe-agent-shaped run folder with ``--steps`` steps (each an LLM call in the
gateway's transcript and a command with its output in the trajectory; a request carries the
system prompt and the last 20 exchanges, as a context-bounded agent's does; every 50th output is
long, 12,000 characters), copies ``record.json`` from the mini-swe fixture run, then measures:

* reading the folder into the page's steps (:func:`load_run_page`), rendering the HTML and the
  terminal text, best of ``--repeat``;
* the page's size;
* with ``--browser`` (Chromium on the PATH), headless Chromium's wall time to load the page and
  take a screenshot of its first 2,000 pixels, against a one-step page (the browser's own start),
  best of ``--repeat``.

    PYTHONPATH=$PWD .venv/bin/python bench/run_page.py [--steps 5000] [--repeat 3] [--browser]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_mlebench.report.run_page import load_run_page, render_run_page, steps_text

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "report" / "run_page_runs" / "mini-swe"
WINDOW = 20
SYSTEM = "You are an autonomous machine-learning engineer. " * 40


def output_of(step: int) -> str:
    if step % 50 == 0:
        return "".join(f"epoch {i}: loss {1 / (i + 1):.6f} <tag> & more\n" for i in range(400))
    return f"fold {step % 5}: AUC 0.8{step % 97:02d}\n" * 8


def command_of(step: int) -> str:
    return f"cd /home/code && python train.py --fold {step % 5} --seed {step} | tail -n 20"


def write_run(folder: Path, steps: int) -> None:
    """A run folder with ``steps`` LLM calls and commands, started at the fixture's start."""
    shutil.copytree(FIXTURE, folder)
    (folder / "gateway.jsonl").unlink()
    record = json.loads((folder / "record.json").read_text())
    start = time.mktime(time.strptime(record["started_at"][:19], "%Y-%m-%dT%H:%M:%S"))
    history: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "task"},
    ]
    with (folder / "gateway.jsonl").open("w") as transcript:
        for step in range(steps):
            at = start + 2.0 * step
            answer_id = f"chatcmpl-{step}"
            arguments = json.dumps({"command": command_of(step)})
            call = {"id": f"call-{step}", "type": "function",
                    "function": {"name": "bash", "arguments": arguments}}  # fmt: skip
            answer = {"role": "assistant", "content": f"Step {step}: try fold {step % 5}.",
                      "tool_calls": [call]}  # fmt: skip
            request = {"model": "gpt-4o-mini", "messages": messages[:2] + history[-2 * WINDOW :]}
            entry = {
                "time": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(at)),
                "method": "POST", "path": "/v1/chat/completions", "model": "gpt-4o-mini",
                "request": request, "status": 200, "cost_usd": 0.0005, "latency_seconds": 1.2,
                "response": {"id": answer_id, "choices": [{"index": 0, "message": answer}]},
                "usage": {"input_tokens": 1500, "output_tokens": 60},
            }  # fmt: skip
            transcript.write(json.dumps(entry) + "\n")
            tool = {"role": "tool", "tool_call_id": f"call-{step}",
                    "content": f"<returncode>0</returncode>\n<output>\n{output_of(step)}</output>",
                    "extra": {"raw_output": output_of(step), "returncode": int(step % 7 == 0),
                              "timestamp": at + 1.5, "exception_info": ""}}  # fmt: skip
            history += [answer, tool]
            trajectory_answer = {**answer, "extra": {"response": {"id": answer_id}, "actions": [
                {"command": command_of(step), "tool_call_id": f"call-{step}"}]}}  # fmt: skip
            messages.append(trajectory_answer)
            messages.append(tool)
    trajectory = {"info": {"exit_status": "Submitted"}, "messages": messages}
    (folder / "logs" / "mini-swe" / "trajectory.json").write_text(json.dumps(trajectory))


def best(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The best wall time of ``action`` in seconds, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return min(times), result


def browser_seconds(page: Path, repeat: int) -> float:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("--browser needs chromium on the PATH")
    with tempfile.TemporaryDirectory() as profile:
        flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={profile}", "--window-size=1280,2000",
                 f"--screenshot={profile}/shot.png", page.as_uri()]  # fmt: skip
        seconds, _ = best(lambda: subprocess.run(flags, capture_output=True, check=True), repeat)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        folder = Path(root) / "run"
        write_run(folder, args.steps)
        sizes = {p.name: p.stat().st_size for p in folder.rglob("*") if p.is_file()}
        print(f"run folder: gateway.jsonl {sizes['gateway.jsonl'] / 1e6:.1f} MB, "
              f"trajectory.json {sizes['trajectory.json'] / 1e6:.1f} MB")  # fmt: skip
        load, page = best(lambda: load_run_page(folder), args.repeat)
        render, html = best(lambda: render_run_page(page), args.repeat)
        text, _ = best(lambda: steps_text(page), args.repeat)
        (folder / "run.html").write_text(html)
        print(f"{len(page.steps)} steps ({args.steps} LLM calls and commands)")
        print(f"read the folder {load:.2f} s, render HTML {render:.2f} s, text {text:.2f} s")
        print(f"page {len(html.encode()) / 1e6:.1f} MB, {html.count('<details>')} folded texts")
        if args.browser:
            small = Path(root) / "small"
            write_run(small, 1)
            (small / "run.html").write_text(render_run_page(load_run_page(small)))
            whole = browser_seconds(folder / "run.html", args.repeat)
            one = browser_seconds(small / "run.html", args.repeat)
            print(f"headless Chromium, load and screenshot: {whole:.2f} s (one step: {one:.2f} s)")


if __name__ == "__main__":
    main()
