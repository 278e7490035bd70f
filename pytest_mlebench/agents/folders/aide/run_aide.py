"""Run AIDE (the ``aideml`` package) for one benchmark run, the way its ``aide`` command does.

The arguments are AIDE's own omegaconf settings (``agent.steps=20 agent.code.model=gpt-4o ...``),
plus two of this script's: ``agent.time_limit=SECONDS``, the time AIDE's search may take (``0``:
the harness's ``TIME_LIMIT_SECS`` less a margin for the last copy), and ``agent.max_tokens=N``,
the cap of every answer (AIDE's config has none and its calls ask for none, so a server's own
default cap would cut its code answers; ``0``: leave it to the server). The loop is
``aide.run``'s without its full-screen display, with these additions a benchmark run needs:

* after every step the best working solution so far is published: its ``submission.csv`` to
  ``SUBMISSION_DIR`` and its program to ``CODE_DIR``, so a run cut off by the time limit or the
  LLM budget still leaves its best submission to grade;
* the loop stops when the time limit is near, and each program's time is cut to what is left;
* a ``budget_exhausted`` answer of the harness's LLM gateway (HTTP 429) ends the search at once;
  AIDE would otherwise retry a 429 forever;
* the feedback model may call AIDE's review function whatever its name: aideml 0.2.0 offers the
  function only to the OpenAI models it lists (gpt-4o, gpt-4-turbo, gpt-3.5-turbo families) and
  cannot read a review given as plain text, so any other model (gpt-4.1, o3, a local server's)
  would stop it at the first review;
* a review the gateway could not turn into the forced call (``bridged_call_invalid``, HTTP 502:
  the model's answer was cut or not JSON) is asked again once; a second one in a row makes the
  review "buggy, no metric" instead of crashing AIDE (aideml would retry a 5xx forever or fail
  on the broken JSON);
* why the search stopped, one line in ``LOGS_DIR/stop_reason.txt`` (the record's
  ``stop_reason``): steps done, time limit or budget, and how many programs worked; during a
  step the line says which step is running, so a run the harness stops mid-call (its time limit)
  still says where it was;
* a run the harness resumes (``MLEBENCH_RESUMED=1``: its ``LOGS_DIR`` and ``AGENT_DIR`` restored
  from a snapshot) loads the journal the interrupted attempt saved last and goes on from its
  steps, with the time the harness gives it (``TIME_LIMIT_SECS`` is the time left).

It uses the standard library and aideml only; it runs with the sandbox's ``python3``.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

MARGIN_SECONDS = 30
TIME_LIMIT_KEY = "agent.time_limit="
MAX_TOKENS_KEY = "agent.max_tokens="
NOT_INSTALLED = 3
BUDGET_CODE = "budget_exhausted"
INVALID_CALL = "bridged_call_invalid"
REVIEW_ATTEMPTS = 2
STOP_REASON_FILE = "stop_reason.txt"
RESUMED_ENV = "MLEBENCH_RESUMED"


class BudgetExhausted(Exception):
    """The gateway refused a call: the run's LLM budget is spent."""


class ReviewUnreadable(Exception):
    """The review answer could not be the forced call, :data:`REVIEW_ATTEMPTS` times in a row."""


def split_own(arguments: list[str], key: str) -> tuple[float, list[str]]:
    """The value of this script's own ``key`` (``0`` when absent) and the other arguments."""
    value = 0.0
    rest = []
    for argument in arguments:
        if argument.startswith(key):
            value = float(argument[len(key) :])
        else:
            rest.append(argument)
    return value, rest


def split_time_limit(arguments: list[str]) -> tuple[float, list[str]]:
    """``agent.time_limit`` (``0``: from ``TIME_LIMIT_SECS``) and AIDE's other arguments."""
    limit, rest = split_own(arguments, TIME_LIMIT_KEY)
    if limit <= 0:
        limit = float(os.environ.get("TIME_LIMIT_SECS", "3600")) - MARGIN_SECONDS
    return max(limit, 1.0), rest


def is_budget_refusal(error: BaseException) -> bool:
    """Whether ``error`` is the gateway's 429 saying the run's budget is spent."""
    body = getattr(error, "body", None)
    code = body.get("code") if isinstance(body, dict) else getattr(error, "code", None)
    return getattr(error, "status_code", None) == 429 and (
        code == BUDGET_CODE or BUDGET_CODE in str(error)
    )


def is_invalid_bridged_call(error: BaseException) -> bool:
    """Whether ``error`` is the gateway's 502 for a forced call it could not bridge."""
    return getattr(error, "status_code", None) == 502 and INVALID_CALL in str(error)


def stop_on_budget_refusal() -> None:
    """Make AIDE's backends raise :class:`BudgetExhausted` instead of retrying the gateway's 429,
    and :class:`ReviewUnreadable` after :data:`REVIEW_ATTEMPTS` unbridgeable answers in a row."""
    from aide.backend import backend_anthropic, backend_openai

    invalid = [0]  # unbridgeable answers in a row
    for backend in (backend_openai, backend_anthropic):
        retrying = backend.backoff_create

        def create(
            create_fn: Any,
            retry_exceptions: Any,
            *args: Any,
            _retrying: Any = retrying,
            **kwargs: Any,
        ) -> Any:
            def once(*call_args: Any, **call_kwargs: Any) -> Any:
                try:
                    answer = create_fn(*call_args, **call_kwargs)
                except Exception as error:
                    if is_budget_refusal(error):
                        raise BudgetExhausted(str(error)) from None
                    if is_invalid_bridged_call(error):
                        invalid[0] += 1
                        if invalid[0] >= REVIEW_ATTEMPTS:
                            invalid[0] = 0
                            raise ReviewUnreadable(str(error)) from None
                    raise
                invalid[0] = 0
                return answer

            return _retrying(once, retry_exceptions, *args, **kwargs)

        backend.backoff_create = create


def allow_review_function(model: str) -> None:
    """Let ``model`` be offered AIDE's ``submit_review`` function (see the module's docstring)."""
    from aide.backend import backend_openai

    listed = getattr(backend_openai, "SUPPORTED_FUNCTION_CALL_MODELS", None)
    if isinstance(listed, set):
        listed.add(model)


def shape_queries(max_tokens: int, unreadable: list[int]) -> None:
    """Give every AIDE query ``max_tokens`` (unless it sets one; ``0``: none) and turn a
    :class:`ReviewUnreadable` review into "buggy, no metric" (counted in ``unreadable``)."""
    import aide.agent

    query = aide.agent.query

    def shaped(*args: Any, **kwargs: Any) -> Any:
        if max_tokens > 0 and kwargs.get("max_tokens") is None:
            kwargs["max_tokens"] = max_tokens
        try:
            return query(*args, **kwargs)
        except ReviewUnreadable as exc:
            spec = kwargs.get("func_spec")
            if getattr(spec, "name", None) != "submit_review":
                raise
            unreadable[0] += 1
            print(f"aide: the review answer was unusable twice ({exc}); the node counts as buggy")
            summary = "The review could not be read (the model's answer was cut or not JSON)."
            return {"is_bug": True, "summary": summary, "metric": None, "lower_is_better": True}

    aide.agent.query = shaped


def publish_best(journal: Any, workspace: Path, step_started: float) -> None:
    """Copy the newest node's submission and code out when it is the best working node so far."""
    if not journal.nodes:
        return
    newest = journal.nodes[-1]
    submission = workspace / "working" / "submission.csv"
    if journal.get_best_node() is not newest or not submission.is_file():
        return
    if submission.stat().st_mtime < step_started:
        return  # left by an earlier program: not this node's
    target = Path(os.environ["SUBMISSION_DIR"]) / "submission.csv"
    shutil.copyfile(submission, target)
    code_dir = Path(os.environ["CODE_DIR"])
    code_dir.mkdir(parents=True, exist_ok=True)
    (code_dir / "best_solution.py").write_text(newest.code)
    print(f"aide: step {len(journal.nodes)}: new best {newest.metric}; submission published")


def stop_line(ending: str, journal: Any, unreadable: int) -> str:
    """The line for ``stop_reason.txt``: why the search stopped, and how its programs fared."""
    nodes = list(journal.nodes)
    working = sum(1 for node in nodes if not node.is_buggy)
    line = f"{ending} after {len(nodes)} step(s); {working} working program(s)"
    if unreadable:
        line += f"; {unreadable} review(s) unreadable"
    if not (Path(os.environ["SUBMISSION_DIR"]) / "submission.csv").is_file():
        line += "; no working solution wrote a submission"
    return line


def write_stop_reason(line: str) -> None:
    """Leave ``line`` in ``LOGS_DIR/stop_reason.txt`` for the harness's record."""
    path = Path(os.environ["LOGS_DIR"]) / STOP_REASON_FILE
    path.write_text(" ".join(line.split())[:300] + "\n", encoding="utf-8")


def earlier_journal(log_root: Path) -> Path | None:
    """The journal an interrupted attempt saved last under ``log_root`` (one folder per
    attempt), when the harness resumes this run; ``None`` otherwise."""
    if os.environ.get(RESUMED_ENV) != "1":
        return None
    found = sorted(log_root.glob("*/journal.json"), key=lambda path: path.stat().st_mtime)
    return found[-1] if found else None


def start_journal(cfg: Any) -> Any:
    """The journal the search starts from: the interrupted attempt's, else a new one."""
    from aide.journal import Journal
    from aide.utils.serialize import load_json

    saved = earlier_journal(Path(cfg.log_dir).parent)
    if saved is None:
        return Journal()
    journal = load_json(saved, Journal)
    print(f"aide: resumed from {len(journal)} step(s) of {saved}")
    return journal


def search(cfg: Any, deadline: float, unreadable: list[int]) -> str:
    """AIDE's draft/debug/improve loop until the steps, the time or the budget run out."""
    from aide.agent import Agent
    from aide.interpreter import Interpreter
    from aide.utils.config import load_task_desc, prep_agent_workspace, save_run
    from omegaconf import OmegaConf

    prep_agent_workspace(cfg)
    journal = start_journal(cfg)
    agent = Agent(task_desc=load_task_desc(cfg), cfg=cfg, journal=journal)
    interpreter = Interpreter(cfg.workspace_dir, **OmegaConf.to_container(cfg.exec))
    ending = "steps done"
    try:
        while len(journal) < cfg.agent.steps:
            left = deadline - time.monotonic()
            if left < MARGIN_SECONDS:
                ending = "time limit reached"
                break
            interpreter.timeout = min(cfg.exec.timeout, int(left))
            # overwritten when the search ends; left as it is when the harness stops it mid-step
            write_stop_reason(
                f"stopped from outside during step {len(journal) + 1}: "
                + stop_line("in progress", journal, unreadable[0])
            )
            started = time.time()
            try:
                agent.step(exec_callback=interpreter.run)
            except BudgetExhausted as exc:
                ending = f"LLM budget spent ({exc})"
                break
            save_run(cfg, journal)
            publish_best(journal, Path(cfg.workspace_dir), started)
    except Exception as exc:
        write_stop_reason(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        interpreter.cleanup_session()
    write_stop_reason(stop_line(ending, journal, unreadable[0]))
    return f"{ending} after {len(journal)} step(s)"


def main(arguments: list[str]) -> int:
    time_limit, aide_arguments = split_time_limit(arguments)
    max_tokens, aide_arguments = split_own(aide_arguments, MAX_TOKENS_KEY)
    deadline = time.monotonic() + time_limit
    try:
        import aide  # noqa: F401
    except ImportError as exc:
        print(
            f"aide: the aideml package cannot be imported ({exc}); install it from "
            "requirements.lock beside this script",
            file=sys.stderr,
        )
        return NOT_INSTALLED
    from aide.utils.config import load_cfg

    sys.argv = [sys.argv[0], *aide_arguments]
    cfg = load_cfg()
    stop_on_budget_refusal()
    unreadable = [0]
    shape_queries(int(max_tokens), unreadable)
    allow_review_function(str(cfg.agent.feedback.model))
    print(
        f"aide: {cfg.agent.steps} steps, {time_limit:.0f} s, code model "
        f"{cfg.agent.code.model}, feedback model {cfg.agent.feedback.model}, answers capped at "
        f"{int(max_tokens) or 'the server'} tokens"
    )
    print(f"aide: {search(cfg, deadline, unreadable)}")
    if not (Path(os.environ["SUBMISSION_DIR"]) / "submission.csv").is_file():
        print("aide: no working solution wrote a submission", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
