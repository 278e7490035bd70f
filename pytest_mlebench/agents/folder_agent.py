"""Agents defined by an mle-bench-style agent folder: ``config.yaml`` → :class:`FolderAgent`.

A folder's ``config.yaml`` maps agent ids to their settings (``start`` script, ``kwargs``,
``env_vars`` with ``${{ secrets.NAME }}`` taken from the host, ``privileged``, ``gateway``,
``network``, ``dockerfile``); the format is in ``docs/agents.md``. Bad input is an
:class:`~pytest_mlebench.errors.AgentError` naming the file and the fix.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pytest_mlebench.agents.dockerfile import AgentImage, agent_image
from pytest_mlebench.agents.protocol import AgentTask
from pytest_mlebench.errors import AgentError, ConfigError
from pytest_mlebench.gateway.config import KEY_VARIABLES, GatewayConfig, gateway_config
from pytest_mlebench.sandbox.interface import ExecResult, Sandbox
from pytest_mlebench.values.network_policy import network_text
from pytest_mlebench.yaml_text import load_yaml

SECRET = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class FolderAgent:
    """An agent folder in mle-bench's format: ``start`` script, kwargs, env vars, privileged.

    ``gateway`` holds the providers the run's LLM gateway serves (their keys stay on the host);
    ``network`` is the config's ``network:`` (the session's ``--mle-network`` wins over it);
    ``image`` its own Dockerfile (``dockerfile:``), which the Docker backend builds and runs.
    """

    name: str
    folder: Path
    start: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    privileged: bool = False
    gateway: GatewayConfig | None = None
    network: str | None = None
    image: AgentImage | None = None

    def run(self, sandbox: Sandbox, task: AgentTask) -> ExecResult:
        sandbox.copy_in(self.folder, sandbox.paths.agent)
        start = f"{sandbox.paths.agent}/{self.start}"
        return sandbox.exec(
            ["bash", start, *self.args],
            timeout=task.time_limit,
            env=self.env,
            log_path=task.log_path,
        )


def load_folder_agent(folder: Path, agent_id: str | None) -> FolderAgent:
    chosen, entry = read_agent_entry(folder, agent_id)
    return folder_agent(folder, chosen, entry)


def read_agent_entry(folder: Path, agent_id: str | None) -> tuple[str, dict[str, Any]]:
    """The id and settings of one agent of ``folder/config.yaml`` (the first one by default)."""
    config_path = folder / "config.yaml"
    try:
        entries = load_yaml(config_path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise AgentError(f"{config_path}: cannot be read ({exc})") from None
    if not isinstance(entries, dict) or not entries:
        raise AgentError(f"{config_path}: expected a mapping of agent ids to their settings")
    chosen = agent_id or next(iter(entries))
    if chosen not in entries:
        raise AgentError(f"{config_path}: no agent {chosen!r}; it defines {', '.join(entries)}")
    entry: dict[str, Any] = entries[chosen] or {}
    return str(chosen), entry


def folder_agent(folder: Path, chosen: str, entry: Mapping[str, Any]) -> FolderAgent:
    """The agent ``chosen`` of ``folder`` from its settings ``entry``."""
    config_path = folder / "config.yaml"
    if "start" not in entry:
        raise AgentError(f"{config_path}: agent {chosen!r} needs a 'start' script")
    env_vars = {str(key): str(value) for key, value in (entry.get("env_vars") or {}).items()}
    gateway = _gateway(entry.get("gateway"), env_vars, config_path)
    taken = set(KEY_VARIABLES) if gateway is not None else set()
    return FolderAgent(
        name=chosen,
        folder=folder,
        start=str(entry["start"]),
        args=_kwargs_args(entry.get("kwargs") or {}, entry.get("kwargs_type", "argparse")),
        env=_resolve_env({k: v for k, v in env_vars.items() if k not in taken}, config_path),
        privileged=bool(entry.get("privileged", False)),
        gateway=gateway,
        network=_network(entry.get("network"), config_path),
        image=agent_image(entry, folder, config_path),
    )


def _gateway(section: Any, env_vars: Mapping[str, str], config_path: Path) -> GatewayConfig | None:
    """The agent's gateway (``None`` without providers, or with ``gateway: false``)."""
    if section is False:
        return None
    try:
        config = gateway_config(None if section is True else section, env_vars, str(config_path))
    except ConfigError as exc:
        raise AgentError(str(exc)) from None
    return config if config.providers else None


def _network(value: Any, config_path: Path) -> str | None:
    if value is None:
        return None
    try:
        return network_text(value)
    except ValueError as exc:
        raise AgentError(f"{config_path}: invalid network {value!r}: {exc}") from None


def _kwargs_args(kwargs: Mapping[str, Any], style: str) -> tuple[str, ...]:
    if style == "omegaconf":
        return tuple(f"{key}={value}" for key, value in kwargs.items())
    if style != "argparse":
        raise AgentError(f"kwargs_type {style!r} must be 'argparse' or 'omegaconf'")
    return tuple(part for key, value in kwargs.items() for part in (f"--{key}", str(value)))


def _resolve_env(env_vars: Mapping[str, Any], config_path: Path) -> dict[str, str]:
    resolved: dict[str, str] = {}
    for key, value in env_vars.items():
        text = str(value)
        missing = [m for m in SECRET.findall(text) if m not in os.environ]
        if missing:
            raise AgentError(
                f"{config_path}: env var {key} needs the secret(s) {', '.join(missing)}; "
                f"export {shlex.quote(missing[0])}=... on the host"
            )
        resolved[key] = SECRET.sub(lambda m: os.environ[m.group(1)], text)
    return resolved
