"""One call through the gateway, from arrival to the transcript: route it, check the run's token
and budget, forward it with the provider's key, relay the answer, charge the ledger; or refuse it
with an OpenAI-style error that says why.

Nothing is retried here (the agent owns retries); an upstream error goes back with its status and
body; an unreachable upstream is a 502 that is counted like any other call.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.gateway.capabilities import (
    SCHEMA,
    TEXT,
    Bridged,
    as_schema_request,
    as_text_calls_answer,
    as_tool_call_answer,
    forced_function,
)
from pytest_mlebench.gateway.config import Provider
from pytest_mlebench.gateway.ledger import Ledger
from pytest_mlebench.gateway.relay import (
    MAX_REQUEST_BYTES,
    Request,
    Rewrite,
    json_or_none,
    pass_through,
    read_body,
    send,
)
from pytest_mlebench.gateway.text_calls import offered_tools
from pytest_mlebench.gateway.transcript import Transcript, body_for_log
from pytest_mlebench.gateway.upstream import (
    Route,
    route_for,
    served_endpoints,
    upstream_request,
    with_usage_in_stream,
)
from pytest_mlebench.gateway.usage import Usage
from pytest_mlebench.timestamps import utc_timestamp

log = logging.getLogger(__name__)

# A whole (not streamed) answer of a local model on CPU can take many minutes (4,096 tokens at
# 3.5 tokens/s is 20); the run's own time limit is what bounds a call.
UPSTREAM_TIMEOUT_SECONDS = 1800


@dataclass(frozen=True)
class Exchange:
    """What a started gateway answers calls with: the run's token, the providers and their keys
    (resolved on the host), the ledger and the open transcript."""

    token: str
    providers: Mapping[str, Provider]
    keys: Mapping[str, str | None]
    ledger: Ledger
    transcript: Transcript

    def handle(self, request: Request) -> None:
        """Answer one call of the agent and write its transcript entry."""
        started = time.monotonic()
        route = route_for(request.command, request.path)
        entry: dict[str, Any] = {
            "time": utc_timestamp(),
            "method": request.command,
            "path": request.path,
        }
        if route is None:
            self._refuse(
                request,
                entry,
                started,
                404,
                "not_found",
                f"the gateway does not serve {request.command} {request.path}; "
                f"it serves {served_endpoints()}",
            )
            return
        if not self._authorised(request):
            self._refuse(
                request,
                entry,
                started,
                401,
                "invalid_token",
                "the gateway takes the run's token (OPENAI_API_KEY in the sandbox)",
            )
            return
        provider = self.providers.get(route.provider)
        if provider is None:
            configured = ", ".join(self.providers) or "none"
            self._refuse(
                request,
                entry,
                started,
                404,
                "provider_not_configured",
                f"provider {route.provider!r} is not configured for this agent "
                f"(configured: {configured}); add it under 'gateway:' in the agent's "
                "config.yaml",
            )
            return
        self._forward(request, route, provider, entry, started)

    def _authorised(self, request: Request) -> bool:
        bearer = request.headers.get("Authorization", "")
        given = request.headers.get("x-api-key") or bearer.removeprefix("Bearer ").strip()
        return secrets.compare_digest(given.encode(), self.token.encode())

    def _forward(
        self,
        request: Request,
        route: Route,
        provider: Provider,
        entry: dict[str, Any],
        started: float,
    ) -> None:
        body = read_body(request)
        if body is None:
            self._refuse(
                request,
                entry,
                started,
                413,
                "request_too_large",
                f"request bodies are limited to {MAX_REQUEST_BYTES} bytes",
            )
            return
        payload = json_or_none(body)
        model = payload.get("model") if isinstance(payload, dict) else None
        entry.update(provider=provider.name, model=model, request=body_for_log(body))
        refusal = self.ledger.refusal(model) if route.kind != "models" else None
        if refusal is not None:
            self._refuse(
                request, entry, started, 429 if refusal[0] == "budget_exhausted" else 400, *refusal
            )
            return
        if route.kind == "chat" and isinstance(payload, dict) and payload.get("stream"):
            body = with_usage_in_stream(payload)
        body, rewrite = self._bridge(route.kind, provider, payload, body, entry)
        upstream = upstream_request(
            request.command, request.headers, route, provider, self.keys.get(provider.name), body
        )
        self._relay(request, upstream, model, entry, started, rewrite)

    def _bridge(
        self, kind: str, provider: Provider, payload: Any, body: bytes, entry: dict[str, Any]
    ) -> tuple[bytes, Rewrite | None]:
        """The body to send upstream and the rewrite of its answer when a capability bridge of
        ``provider`` applies to this (non-streamed chat) call; else ``body`` and ``None``."""
        if kind != "chat" or not isinstance(payload, dict) or payload.get("stream"):
            return body, None
        function = forced_function(payload) if provider.forced_tool_call == SCHEMA else None
        if function is not None:
            name = str(function["name"])
            entry["bridged"] = f"forced tool call {name} sent as a JSON-schema response_format"
            schema_body = json.dumps(as_schema_request(payload, function)).encode()
            return schema_body, self._rewrite(entry, lambda a: as_tool_call_answer(a, name))
        tools = offered_tools(payload) if provider.tool_calls == TEXT else {}
        if tools and forced_function(payload) is None:
            return body, self._rewrite(entry, lambda a: as_text_calls_answer(a, tools))
        return body, None

    def _rewrite(self, entry: dict[str, Any], bridge: Callable[[bytes], Bridged]) -> Rewrite:
        """``bridge`` as the relay's rewrite, noting in ``entry`` what it did."""

        def rewrite(answer: bytes) -> tuple[int, bytes]:
            bridged = bridge(answer)
            if bridged.note is not None:
                entry["bridged"] = bridged.note
            if bridged.error is not None:
                self.ledger.note_invalid_bridge()
                entry.update(error=bridged.error, status_to_agent=bridged.status)
                entry["upstream_response"] = body_for_log(answer)
            return bridged.status, bridged.body

        return rewrite

    def _relay(
        self,
        request: Request,
        upstream: urllib.request.Request,
        model: str | None,
        entry: dict[str, Any],
        started: float,
        rewrite: Rewrite | None = None,
    ) -> None:
        try:
            answer: Any = urllib.request.urlopen(upstream, timeout=UPSTREAM_TIMEOUT_SECONDS)
        except urllib.error.HTTPError as error:
            answer = error  # an upstream error answer: passed through with its status
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            self.ledger.charge(Usage(), model, 502)  # a failed call: counted, never silent
            self._refuse(
                request,
                entry,
                started,
                502,
                "upstream_unreachable",
                f"the gateway could not reach {upstream.full_url}: {reason}",
            )
            return
        status = int(answer.status if hasattr(answer, "status") else answer.code)
        costs: list[float | None] = []

        def charge(usage: Usage) -> None:
            costs.append(self.ledger.charge(usage, model, status))

        with answer:
            usage, logged, broken = pass_through(
                request, status, answer.headers, answer, charge, rewrite if status == 200 else None
            )
        cost = costs[0] if costs else self.ledger.charge(usage, model, status)
        if broken:
            entry["error"] = {"type": "stream_broken", "message": broken}
        entry.update(
            status=status,
            response=logged,
            usage=_usage_entry(usage),
            cost_usd=cost,
            latency_seconds=round(time.monotonic() - started, 3),
        )
        self.transcript.write(entry)

    def _refuse(
        self,
        request: Request,
        entry: dict[str, Any],
        started: float,
        status: int,
        kind: str,
        message: str,
    ) -> None:
        body = json.dumps(
            {
                "error": {
                    "message": f"mlebench gateway: {message}",
                    "type": kind,
                    "code": kind,
                    "param": None,
                }
            }
        ).encode()
        try:
            send(request, status, {"Content-Type": "application/json"}, body)
        except OSError:
            log.debug("gateway client went away before the refusal")
        entry.update(
            status=status,
            error={"type": kind, "message": message},
            latency_seconds=round(time.monotonic() - started, 3),
        )
        self.transcript.write(entry)


def _usage_entry(usage: Usage) -> dict[str, Any]:
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "model": usage.model,
        "reported": usage.reported,
    }
