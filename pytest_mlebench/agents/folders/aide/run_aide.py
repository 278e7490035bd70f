"""Run AIDE (the ``aideml`` package) for one benchmark run, the way its ``aide`` command does.

The arguments are AIDE's own omegaconf settings (``agent.steps=20 agent.code.model=gpt-4o ...``),
plus ``agent.time_limit=SECONDS``, the time AIDE's search may take (``0``: the harness's
``TIME_LIMIT_SECS`` less a margin for the last copy). The loop is ``aide.run``'s without its
full-screen display, with these additions a benchmark run needs:

* after every step the best working solution so far is published: its ``submission.csv`` to
  ``SUBMISSION_DIR`` and its program to ``CODE_DIR``, so a run cut off by the time limit or the
  LLM budget still leaves its best submission to grade;
* the loop stops when the time limit is near, and each program's time is cut to what is left;
* a ``budget_exhausted`` answer of the harness's LLM gateway (HTTP 429) ends the search at once;
  AIDE would otherwise retry a 429 forever;
* the feedback model may call AIDE's review function whatever its name: aideml 0.2.0 offers the
  function only to the OpenAI models it lists (gpt-4o, gpt-4-turbo, gpt-3.5-turbo families) and
  cannot read a review given as plain text, so any other model (gpt-4.1, o3, a local server's)
  would stop it at the first review.

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
NOT_INSTALLED = 3
BUDGET_CODE = "budget_exhausted"


class BudgetExhausted(Exception):
    """The gateway refused a call: the run's LLM budget is spent."""


def split_time_limit(arguments: list[str]) -> tuple[float, list[str]]:
    """``agent.time_limit`` (``0``: from ``TIME_LIMIT_SECS``) and AIDE's other arguments."""
    limit = 0.0
    rest = []
    for argument in arguments:
        if argument.startswith(TIME_LIMIT_KEY):
            limit = float(argument[len(TIME_LIMIT_KEY) :])
        else:
            rest.append(argument)
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


def stop_on_budget_refusal() -> None:
    """Make AIDE's backends raise :class:`BudgetExhausted` instead of retrying the gateway's 429."""
    from aide.backend import backend_anthropic, backend_openai

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
                    return create_fn(*call_args, **call_kwargs)
                except Exception as error:
                    if is_budget_refusal(error):
                        raise BudgetExhausted(str(error)) from None
                    raise

            return _retrying(once, retry_exceptions, *args, **kwargs)

        backend.backoff_create = create


def allow_review_function(model: str) -> None:
    """Let ``model`` be offered AIDE's ``submit_review`` function (see the module's docstring)."""
    from aide.backend import backend_openai

    listed = getattr(backend_openai, "SUPPORTED_FUNCTION_CALL_MODELS", None)
    if isinstance(listed, set):
        listed.add(model)


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


def search(cfg: Any, deadline: float) -> str:
    """AIDE's draft/debug/improve loop until the steps, the time or the budget run out."""
    from aide.agent import Agent
    from aide.interpreter import Interpreter
    from aide.journal import Journal
    from aide.utils.config import load_task_desc, prep_agent_workspace, save_run
    from omegaconf import OmegaConf

    prep_agent_workspace(cfg)
    journal = Journal()
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
            started = time.time()
            try:
                agent.step(exec_callback=interpreter.run)
            except BudgetExhausted as exc:
                ending = f"LLM budget spent ({exc})"
                break
            save_run(cfg, journal)
            publish_best(journal, Path(cfg.workspace_dir), started)
    finally:
        interpreter.cleanup_session()
    return f"{ending} after {len(journal)} step(s)"


def main(arguments: list[str]) -> int:
    time_limit, aide_arguments = split_time_limit(arguments)
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
    allow_review_function(str(cfg.agent.feedback.model))
    print(
        f"aide: {cfg.agent.steps} steps, {time_limit:.0f} s, code model "
        f"{cfg.agent.code.model}, feedback model {cfg.agent.feedback.model}"
    )
    print(f"aide: {search(cfg, deadline)}")
    if not (Path(os.environ["SUBMISSION_DIR"]) / "submission.csv").is_file():
        print("aide: no working solution wrote a submission", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
