"""Run mini-swe-agent (the ``mini-swe-agent`` package) on one benchmark task through the gateway.

mini-swe-agent is a bash-only agent: its loop (``DefaultAgent``) asks the model for ``bash`` tool
calls, runs each in a fresh shell (``LocalEnvironment``) and sends the output back, until a
command prints ``COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` or a limit is reached. This script runs
that loop unchanged and gives it:

* the task: the harness's instructions file (``INSTRUCTIONS_FILE``), followed for a competition by
  its ``description.md``; the commands run in ``WORK_DIR`` when the harness sets it (an
  engineering task), else in ``CODE_DIR`` (a competition: the code that makes the submission);
* a model on OpenAI's SDK that calls the run's LLM gateway (``OPENAI_BASE_URL`` and the run token
  in ``OPENAI_API_KEY``) with chat completions and mini-swe-agent's own ``bash`` tool, parsing and
  observation formats (mini-swe-agent's default model class is litellm's, whose install is 372 MB
  and whose import takes half a minute; a model class is its documented extension point);
* limits from the harness: at most ``--step-limit`` model calls, its wall-time limit the run's
  ``TIME_LIMIT_SECS`` less a margin (or ``--time-limit``), each command cut to the time left;
* a ``budget_exhausted`` answer of the gateway (HTTP 429) ends the run at once, cleanly: the
  SDK would retry a 429, and mini-swe-agent's retry would again;
* the trajectory in ``LOGS_DIR/mini-swe/trajectory.json``, saved after every step;
* why the loop stopped, one line in ``LOGS_DIR/stop_reason.txt`` (the harness's record keeps it as
  ``stop_reason``): mini-swe-agent's exit status (``Submitted``, ``RepeatedFormatError``,
  ``LimitsExceeded``, ``TimeExceeded``, ``BudgetExhausted``, or the error that ended it) with
  what it means and how many model calls and commands ran (while a call is out, the line says
  so: a run the harness stops mid-call still says where it was);
* long command outputs cut in the middle (:data:`OUTPUT_CHARS` kept), so a history of many steps
  stays within a local model's context;
* a run the harness resumes (``MLEBENCH_RESUMED=1``: ``LOGS_DIR`` and ``CODE_DIR`` restored from
  a snapshot) goes on from the trajectory the interrupted attempt saved: its messages are the
  start of the new conversation, followed by a note of the time left, and its model calls count
  toward ``--step-limit`` (:func:`resuming_agent`).

It uses the standard library, mini-swe-agent and openai only; it runs with the sandbox's
``python3``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

MARGIN_SECONDS = 30
NOT_INSTALLED = 3
BUDGET_CODE = "budget_exhausted"
PROMPTS = Path(__file__).with_name("prompts.yaml")
LOG = logging.getLogger("mini-swe")
STOP_REASON_FILE = "stop_reason.txt"
RESUMED_ENV = "MLEBENCH_RESUMED"
OUTPUT_CHARS = 8000
EXIT_MEANINGS = {
    "Submitted": "the agent finished (it printed COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT)",
    "RepeatedFormatError": "the model's answers held no usable bash call, several in a row",
    "LimitsExceeded": "the step limit was reached",
    "TimeExceeded": "the time limit was reached",
    "BudgetExhausted": "the run's LLM budget is spent",
}
OBSERVATION_TEMPLATE = (
    "{% if output.exception_info %}<exception>{{output.exception_info}}</exception>\n"
    "{% endif %}<returncode>{{output.returncode}}</returncode>\n"
    f"{{% if output.output | length <= {OUTPUT_CHARS} %}}<output>\n{{{{output.output}}}}</output>"
    f"{{% else %}}<output_head>\n{{{{output.output[:{OUTPUT_CHARS // 2}]}}}}</output_head>\n"
    "<elided_chars>{{output.output | length - "
    f"{OUTPUT_CHARS}}}}}</elided_chars>\n"
    f"<output_tail>\n{{{{output.output[-{OUTPUT_CHARS // 2}:]}}}}</output_tail>{{% endif %}}"
)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="run_mini_swe.py", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="the model name the gateway is asked for")
    parser.add_argument("--step-limit", type=int, default=50, help="most model calls (0: none)")
    parser.add_argument(
        "--time-limit", type=float, default=0, help="seconds (0: TIME_LIMIT_SECS less a margin)"
    )
    parser.add_argument("--command-timeout", type=int, default=600, help="seconds per command")
    parser.add_argument("--max-tokens", type=int, default=0, help="answer cap (0: the server's)")
    return parser.parse_args(argv)


def time_limit(requested: float) -> float:
    """The seconds the loop may take: ``requested``, or ``TIME_LIMIT_SECS`` less a margin."""
    if requested > 0:
        return requested
    return max(float(os.environ.get("TIME_LIMIT_SECS", "3600")) - MARGIN_SECONDS, 1.0)


def work_dir() -> Path:
    """Where the commands run: ``WORK_DIR`` (an engineering task) or ``CODE_DIR``."""
    folder = Path(os.environ.get("WORK_DIR") or os.environ["CODE_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def task_text() -> str:
    """The instructions file, then a competition's description when there is one."""
    text = Path(os.environ["INSTRUCTIONS_FILE"]).read_text(encoding="utf-8")
    description = Path(os.environ.get("DATA_DIR", "/nonexistent")) / "description.md"
    if not os.environ.get("WORK_DIR") and description.is_file():
        text += "\n\n# Competition description\n\n" + description.read_text(encoding="utf-8")
    return text


def is_budget_refusal(error: BaseException) -> bool:
    """Whether ``error`` is the gateway's 429 saying the run's budget is spent."""
    body = getattr(error, "body", None)
    code = body.get("code") if isinstance(body, dict) else getattr(error, "code", None)
    return getattr(error, "status_code", None) == 429 and (
        code == BUDGET_CODE or BUDGET_CODE in str(error)
    )


def gateway_model(name: str, max_tokens: int) -> Any:
    """A mini-swe-agent model (its ``Model`` protocol) on OpenAI's SDK, aimed at the gateway."""
    import openai
    from minisweagent.exceptions import InterruptAgentFlow
    from minisweagent.models.utils.actions_toolcall import (
        BASH_TOOL,
        format_toolcall_observation_messages,
        parse_toolcall_actions,
    )
    from minisweagent.models.utils.retry import retry
    from pydantic import BaseModel

    class BudgetExhausted(InterruptAgentFlow):
        """The gateway refused a call: the run's LLM budget is spent; the run ends here."""

    class GatewayModelConfig(BaseModel):
        model_name: str
        max_tokens: int = 0
        format_error_template: str = (
            "{{ error }} Answer with exactly one call of the bash tool: one command."
        )
        observation_template: str = OBSERVATION_TEMPLATE

    class GatewayModel:
        abort_exceptions: ClassVar[list[type[BaseException]]] = [
            BudgetExhausted,
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
            openai.BadRequestError,
            KeyboardInterrupt,
        ]

        def __init__(self) -> None:
            self.config = GatewayModelConfig(model_name=name, max_tokens=max_tokens)
            # The SDK retries nothing (a budget 429 must stop the run); mini's retry does the rest.
            self.client = openai.OpenAI(max_retries=0)

        def _create(self, messages: list[dict[str, Any]]) -> Any:
            # OpenAI's reasoning models refuse max_tokens; llama.cpp takes max_completion_tokens too
            cap = self.config.max_tokens
            extra = {"max_completion_tokens": cap} if cap else {}
            try:
                return self.client.chat.completions.create(
                    model=self.config.model_name, messages=messages, tools=[BASH_TOOL], **extra
                )
            except openai.APIStatusError as error:
                if is_budget_refusal(error):
                    print(f"mini-swe: LLM budget spent ({error})", flush=True)
                    exit_message = {
                        "role": "exit",
                        "content": "LLM budget spent",
                        "extra": {"exit_status": "BudgetExhausted", "submission": ""},
                    }
                    raise BudgetExhausted(exit_message) from None
                raise

        def query(self, messages: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
            # overwritten when the loop ends; left as it is when the harness stops it mid-call
            calls = sum(1 for m in messages if m.get("role") == "assistant")
            write_stop_reason(
                stop_line(
                    "Running", f"stopped from outside in model call {calls + 1}", messages, calls
                )
            )
            prepared = [{k: v for k, v in m.items() if k != "extra"} for m in messages]
            for attempt in retry(logger=LOG, abort_exceptions=self.abort_exceptions):
                with attempt:
                    response = self._create(prepared)
            choice = response.choices[0]
            actions = parse_toolcall_actions(
                choice.message.tool_calls or [],
                format_error_template=self.config.format_error_template,
                template_kwargs={"finish_reason": choice.finish_reason},
            )
            calls = choice.message.tool_calls or []
            message: dict[str, Any] = {"role": "assistant", "content": choice.message.content or ""}
            if calls:
                message["tool_calls"] = [call.model_dump(mode="json") for call in calls]
            message["extra"] = {
                "actions": actions,
                "response": response.model_dump(mode="json"),
                "cost": 0.0,  # the gateway counts tokens and cost
                "timestamp": time.time(),
            }
            return message

        def format_message(self, **kwargs: Any) -> dict[str, Any]:
            return dict(kwargs)

        def format_observation_messages(
            self, message: dict[str, Any], outputs: list[dict[str, Any]], template_vars: Any = None
        ) -> list[dict[str, Any]]:
            return list(
                format_toolcall_observation_messages(
                    actions=message.get("extra", {}).get("actions", []),
                    outputs=outputs,
                    observation_template=self.config.observation_template,
                    template_vars=template_vars,
                )
            )

        def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
            return self.config.model_dump()

        def serialize(self) -> dict[str, Any]:
            return {"info": {"config": {"model": self.config.model_dump(mode="json")}}}

    return GatewayModel()


def bounded_environment(cwd: Path, command_timeout: int, deadline: float) -> Any:
    """mini-swe-agent's local shell, each command's time cut to what is left before ``deadline``."""
    from minisweagent.environments.local import LocalEnvironment

    class BoundedEnvironment(LocalEnvironment):  # type: ignore[misc]
        def execute(
            self, action: dict[str, Any], cwd: str = "", *, timeout: int | None = None
        ) -> dict[str, Any]:
            left = max(int(deadline - time.monotonic()), 1)
            return dict(super().execute(action, cwd, timeout=min(timeout or command_timeout, left)))

    env = {"PAGER": "cat", "MANPAGER": "cat", "LESS": "-R", "PIP_PROGRESS_BAR": "off"}
    return BoundedEnvironment(cwd=str(cwd), timeout=command_timeout, env=env)


def earlier_messages(trajectory: Path) -> list[dict[str, Any]]:
    """The messages of the trajectory an interrupted attempt saved, when the harness resumes
    this run (none otherwise, or when the attempt had ended: its last message an exit)."""
    if os.environ.get(RESUMED_ENV) != "1" or not trajectory.is_file():
        return []
    import json

    try:
        messages = json.loads(trajectory.read_text(encoding="utf-8")).get("messages") or []
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(messages, list) or (messages and messages[-1].get("role") == "exit"):
        return []
    return [message for message in messages if isinstance(message, dict)]


def resuming_agent(agent_class: Any, earlier: list[dict[str, Any]]) -> Any:
    """``agent_class`` whose ``run`` starts from ``earlier`` messages instead of a new task:
    ``DefaultAgent.run`` adds the system and task messages once before its loop, and this
    subclass puts the earlier conversation (which begins with them) there instead, plus a
    note of the time left; the earlier model calls count toward the step limit."""

    class ResumingAgent(agent_class):  # type: ignore[misc, valid-type]
        started = False

        def add_messages(self, *messages: dict[str, Any]) -> list[dict[str, Any]]:
            if self.started or not earlier:
                return list(super().add_messages(*messages))
            self.started = True
            self.n_calls = sum(1 for message in earlier if message.get("role") == "assistant")
            note = (
                "The harness resumed this run after an interruption: the files are as they "
                f"were at its last snapshot; you have {os.environ.get('TIME_LIMIT_SECS')} "
                "seconds left. Continue the task."
            )
            resumed = self.model.format_message(role="user", content=note)
            return list(super().add_messages(*earlier, resumed))

    return ResumingAgent


def prepare_environment(logs: Path) -> None:
    """Quiet mini-swe-agent's banner and keep its global config in the logs, not in ``$HOME``."""
    os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")
    os.environ.setdefault("MSWEA_GLOBAL_CONFIG_DIR", str(logs / "config"))
    os.environ.setdefault("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "3")


def stop_line(exit_status: str, detail: str, messages: list[dict[str, Any]], calls: int) -> str:
    """The line for ``stop_reason.txt``: the exit status, what it means, calls and commands."""
    commands = sum(len((m.get("extra") or {}).get("actions") or []) for m in messages)
    meaning = detail or EXIT_MEANINGS.get(exit_status, "")
    head = f"{exit_status}: {meaning}" if meaning else exit_status
    return f"{head} ({calls} model call(s), {commands} command(s) run)"


def write_stop_reason(line: str) -> None:
    """Leave ``line`` in ``LOGS_DIR/stop_reason.txt`` for the harness's record."""
    path = Path(os.environ["LOGS_DIR"]) / STOP_REASON_FILE
    path.write_text(" ".join(line.split())[:300] + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    options = parse_arguments(argv)
    limit = time_limit(options.time_limit)
    deadline = time.monotonic() + limit
    logs = Path(os.environ["LOGS_DIR"]) / "mini-swe"
    prepare_environment(logs)
    try:
        import yaml
        from minisweagent.agents.default import DefaultAgent
    except ImportError as exc:
        print(
            f"mini-swe: the mini-swe-agent package cannot be imported ({exc}); install it from "
            "requirements.lock beside this script",
            file=sys.stderr,
        )
        return NOT_INSTALLED
    prompts = yaml.safe_load(PROMPTS.read_text(encoding="utf-8"))
    cwd = work_dir()
    earlier = earlier_messages(logs / "trajectory.json")
    if earlier:
        print(f"mini-swe: resumed from {len(earlier)} message(s) of the earlier trajectory")
    agent = resuming_agent(DefaultAgent, earlier)(
        gateway_model(options.model, options.max_tokens),
        bounded_environment(cwd, options.command_timeout, deadline),
        system_template=prompts["system_template"],
        instance_template=prompts["instance_template"],
        step_limit=options.step_limit,
        cost_limit=0,  # the gateway's --mle-cost-budget is the run's cost limit
        wall_time_limit_seconds=int(limit),
        output_path=logs / "trajectory.json",
    )
    print(
        f"mini-swe: model {options.model}, at most {options.step_limit} steps, {limit:.0f} s, "
        f"in {cwd}",
        flush=True,
    )
    try:
        result = agent.run(task_text())
    except Exception as exc:  # the trajectory is saved; say what stopped the loop, in one line
        print(f"mini-swe: stopped by {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        write_stop_reason(stop_line(type(exc).__name__, str(exc), agent.messages, agent.n_calls))
        return 1
    status = str(result.get("exit_status") or "unknown")
    print(f"mini-swe: {status} after {agent.n_calls} model request(s)", flush=True)
    write_stop_reason(stop_line(status, "", agent.messages, agent.n_calls))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
