"""The optional LLM judge (``--mle-judge MODEL``; off by default): asked after a run, on the host.

The judge asks a model the original benchmark's rule questions (:mod:`.judge_prompt`) about the
run's code and logs, and turns each "yes" into a flag (``judge/<question>``, severity from the
policy's ``judge`` section). An unreadable reply or a failed call is a ``judge-error`` note in the
report's ``checks``, never a flag.

The call goes through a :class:`~pytest_mlebench.gateway.Gateway` of its own, started in this
process for the one call and stopped after it: the agent's provider entry (or the provider's
default with its usual key variable), the ``--mle-gateway-upstream`` overrides, the price table,
the key resolution from the host's environment, the transcript with keys cut out, and the token
and cost accounting are the gateway's own code, not a second HTTP client beside it. The one extra
hop is a unix socket between two threads of this process. That gateway's ledger is the judge's
alone: its cost never counts against the agent's budget.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.gateway import (
    Gateway,
    GatewayConfig,
    GatewayError,
    PriceTable,
    Provider,
    load_price_table,
)
from pytest_mlebench.gateway.config import KEY_VARIABLES, host_environment
from pytest_mlebench.gateway.unix_client import post_json
from pytest_mlebench.integrity.judge_prompt import (
    JudgeAnswer,
    JudgePrompt,
    judge_prompt,
    read_reply,
)
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.values.integrity_policy import Policy
from pytest_mlebench.values.providers import DEFAULT_BASE_URLS

PROMPT_FILE = Path("integrity") / "judge-prompt.md"
TRANSCRIPT_FILE = Path("integrity") / "judge.jsonl"
MAX_REPLY_CHARS = 4000
ANSWER_TOKENS = 1024
ACCOUNTING = ("input_tokens", "output_tokens", "cost_usd", "unpriced_models")
SEPARATE_BUDGET = "the judge's own; never counted against the agent's LLM budget"


@dataclass(frozen=True)
class JudgeSetup:
    """Who the judge asks: the model, its provider (base URL and key as written), the prices."""

    model: str
    provider: Provider
    prices: PriceTable
    environ: Mapping[str, str]

    @property
    def upstream_model(self) -> str:
        """The model name the provider gets (``anthropic/`` or ``openai/`` taken off)."""
        prefix, _, rest = self.model.partition("/")
        return rest if rest and prefix in DEFAULT_BASE_URLS else self.model


def provider_of(model: str) -> str:
    """``anthropic`` for ``anthropic/…`` and ``claude…`` models, else ``openai`` (also for any
    OpenAI-compatible server: vLLM, Ollama, a proxy, given with ``--mle-gateway-upstream``)."""
    prefix = model.partition("/")[0]
    if prefix in DEFAULT_BASE_URLS and "/" in model:
        return prefix
    return "anthropic" if model.startswith("claude") else "openai"


def judge_setup(
    model: str,
    agent_gateway: GatewayConfig | None,
    upstreams: Mapping[str, str],
    price_table: Path | None,
    environ: Mapping[str, str] | None = None,
) -> JudgeSetup:
    """The judge of ``model``, checked: its provider's key is on the host.

    The provider comes from where a run's gateway takes it: the agent config's entry for that
    provider, else the provider's default URL with its usual key variable
    (``${{ secrets.OPENAI_API_KEY }}``); ``--mle-gateway-upstream`` replaces the URL.

    Raises:
        GatewayError: The key's secret is not set on the host (the message names it).
        ConfigError: The price table cannot be read.
    """
    name = provider_of(model)
    configured = agent_gateway.providers.get(name) if agent_gateway is not None else None
    variable = next(var for var, provider in KEY_VARIABLES.items() if provider == name)
    default = Provider(name, DEFAULT_BASE_URLS[name], f"${{{{ secrets.{variable} }}}}")
    config = GatewayConfig({name: configured or default}).with_upstreams(upstreams)
    environ = environ if environ is not None else host_environment()
    setup = JudgeSetup(model, config.providers[name], load_price_table(price_table), environ)
    try:
        setup.provider.resolved_key(environ)
    except GatewayError as exc:
        raise GatewayError(f"the LLM judge --mle-judge {model}: {exc}") from None
    return setup


@dataclass(frozen=True)
class JudgeOutcome:
    """What the judge did: its flags, the record's ``integrity.judge`` entry, the check's status."""

    flags: tuple[Flag, ...]
    record: dict[str, Any]
    status: str


def run_judge(setup: JudgeSetup, run_dir: Path, policy: Policy) -> JudgeOutcome:
    """Ask the judge about the run in ``run_dir``; never raises (a failure is a judge error)."""
    record: dict[str, Any] = {"model": setup.model, "provider": setup.provider.name}
    try:
        prompt = _write_prompt(run_dir, policy, record)
        call = ask(setup, prompt, run_dir / TRANSCRIPT_FILE)
    except Exception as exc:  # the judge is evidence, never a reason for a run to break
        record["error"] = f"{type(exc).__name__}: {exc}"
        return JudgeOutcome((), record, f"judge-error: {record['error']}")
    record.update(call.accounting, transcript=str(TRANSCRIPT_FILE), reply=call.reply)
    if call.status != 200:
        record["error"] = f"the provider answered {call.status}: {call.reply[:300]}"
        return JudgeOutcome((), record, f"judge-error: {record['error']}")
    answers, problem = read_reply(call.reply)
    record["answers"] = {
        a.question.id: {"question": a.question.text, "answer": a.answer, "evidence": a.evidence}
        for a in answers
    }
    record["error"] = problem
    flags = tuple(_flag(a, setup, record, policy) for a in answers if a.answer == "yes")
    return JudgeOutcome(flags, record, f"judge-error: {problem}" if problem else "ran")


def _write_prompt(run_dir: Path, policy: Policy, record: dict[str, Any]) -> JudgePrompt:
    """The run's prompt, saved beside its evidence; its size and cuts go into ``record``."""
    prompt = judge_prompt(
        run_dir,
        int(policy.number("judge", "max_code_chars")),
        int(policy.number("judge", "max_log_chars")),
    )
    (run_dir / PROMPT_FILE).parent.mkdir(parents=True, exist_ok=True)
    (run_dir / PROMPT_FILE).write_text(prompt.as_text(), "utf-8")
    record.update(
        prompt_file=str(PROMPT_FILE),
        prompt_chars=len(prompt.system) + len(prompt.user),
        truncated=list(prompt.truncated),
    )
    return prompt


def _flag(answer: JudgeAnswer, setup: JudgeSetup, record: dict[str, Any], policy: Policy) -> Flag:
    return Flag(
        "judge",
        answer.question.id,
        policy.severity("judge", answer.question.policy_key),
        f"the LLM judge ({setup.model}) answered yes: {answer.question.text}",
        {
            "answer": "yes",
            "evidence": answer.evidence,
            "model": setup.model,
            "prompt_file": record.get("prompt_file"),
            "cost_usd": record.get("cost_usd"),
        },
    )


@dataclass(frozen=True)
class JudgeCall:
    """One call's HTTP status, the reply's text (the error body when not 200), its accounting."""

    status: int
    reply: str
    accounting: dict[str, Any]


def ask(setup: JudgeSetup, prompt: JudgePrompt, transcript: Path) -> JudgeCall:
    """Ask through a gateway of the judge's own, started for this call and stopped after it."""
    provider = setup.provider
    gateway = Gateway(
        GatewayConfig({provider.name: provider}), setup.prices, transcript, environ=setup.environ
    )
    # A short folder: a unix socket's path is limited to about 100 bytes (run folders are long).
    folder = Path(tempfile.mkdtemp(prefix="mlebench-judge-"))
    try:
        gateway.start(folder / "judge.sock")
        path, payload = _request(setup, prompt)
        status, body = post_json(folder / "judge.sock", gateway.token, path, payload)
    finally:
        gateway.stop()
        shutil.rmtree(folder, ignore_errors=True)
    summary = gateway.summary()
    accounting = {key: summary[key] for key in ACCOUNTING} | {"budget": SEPARATE_BUDGET}
    text = _reply_text(provider.name, body) if status == 200 else json.dumps(body)
    return JudgeCall(status, text[:MAX_REPLY_CHARS], accounting)


def _request(setup: JudgeSetup, prompt: JudgePrompt) -> tuple[str, dict[str, Any]]:
    model = setup.upstream_model
    if setup.provider.name == "anthropic":
        return "/v1/messages", {
            "model": model,
            "max_tokens": ANSWER_TOKENS,
            "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}],
        }
    return "/v1/chat/completions", {
        "model": model,
        "messages": [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ],
    }


def _reply_text(provider: str, body: Any) -> str:
    """The text of a chat completion or of an Anthropic message; '' when there is none."""
    if not isinstance(body, dict):
        return str(body)
    if provider == "anthropic":
        blocks = body.get("content") or []
        return "".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict))
    choices = body.get("choices") or [{}]
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else ""


def check_judge(
    model: str | None, agent: object, upstreams: Mapping[str, str], price_table: Path | None
) -> JudgeSetup | None:
    """At session start: the judge's setup, or the usage error a missing key makes."""
    if model is None:
        return None
    return judge_setup(model, getattr(agent, "gateway", None), upstreams, price_table)
