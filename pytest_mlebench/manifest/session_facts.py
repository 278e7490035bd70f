"""What only the session knows, added to the manifest of its records at the session end.

Read-only: it reads the agent's files, the registry and the installed version; it starts
nothing. The harness version is this package's; the agent's digest is the SHA-256 of its folder
(every file's relative path and bytes) or of its script, so an edited agent reads as another
one; a folder agent's image tag carries the same kind of hash (``images``). The GPU type is
what ``nvidia-smi -L`` says of the devices, asked only when a run was granted one.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from pytest_mlebench.manifest.from_records import mapped
from pytest_mlebench.session import MLEBenchSession

DISTRIBUTION = "pytest-mlebench"
SMI_TIMEOUT = 20


def harness_version() -> str:
    """The installed version of the harness (``unknown`` for an uninstalled checkout)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def harness_entry(version: str) -> dict[str, Any]:
    """``{"version", "major"}``: the major version is what a comparison checks."""
    return {"version": version, "major": version.split(".")[0]}


def content_digest(path: Path) -> str:
    """``sha256:`` of a file's bytes, or of a folder's files (relative path and bytes each)."""
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        name = file.relative_to(path) if path.is_dir() else Path(file.name)
        digest.update(f"{name.as_posix()}\0".encode())
        digest.update(file.read_bytes())
        digest.update(b"\0")
    return f"sha256:{digest.hexdigest()}"


def agent_digest(agent: Any) -> str:
    """The agent's content digest (its folder or script), else the harness version of a
    built-in whose code is the harness's own."""
    for attribute in ("folder", "script"):
        where = getattr(agent, attribute, None)
        if isinstance(where, Path) and where.exists():
            return content_digest(where)
    return f"built-in of pytest-mlebench {harness_version()}"


def agent_providers(agent: Any) -> list[str]:
    """The providers of the agent's LLM gateway (``[]`` without one)."""
    gateway = getattr(agent, "gateway", None)
    return sorted(getattr(gateway, "providers", None) or ())


def gpu_types(indices: Iterable[str], listing: str | None = None) -> str | None:
    """The model names of GPUs ``indices`` from ``nvidia-smi -L`` (``None`` when unknown);
    several models are joined with ``+``."""
    if listing is None:
        listing = _smi_listing()
    names = {}
    for line in (listing or "").splitlines():
        head, _, rest = line.partition(":")
        if head.startswith("GPU "):
            names[head.removeprefix("GPU ").strip()] = rest.split("(UUID")[0].strip()
    found = sorted({names[i] for i in indices if i in names})
    return "+".join(found) or None


def _smi_listing() -> str | None:
    binary = shutil.which("nvidia-smi")
    if binary is None:
        return None
    try:
        done = subprocess.run(
            [binary, "-L"], capture_output=True, text=True, timeout=SMI_TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def known_issues(mle_session: MLEBenchSession, ids: Sequence[str]) -> dict[str, list[str]]:
    """Per competition of the set that declares any: its issues as ``kind`` or ``kind (fixed)``
    (our prepare removes it); ``{}`` when none does."""
    found = {}
    for cid in ids:
        competition = mle_session.registry.competitions.get(cid)
        issues = competition.known_issues if competition is not None else ()
        if issues:
            found[cid] = [f"{i.kind} (fixed)" if i.removed else i.kind for i in issues]
    return found


def with_session_facts(
    manifest: dict[str, Any], mle_session: MLEBenchSession, gpu_indices: Iterable[str] = ()
) -> dict[str, Any]:
    """``manifest`` with what the session knows: harness, agent digest, providers, GPU type,
    known issues. ``gpu_indices`` are the GPUs its runs were granted."""
    agent = mle_session.agent
    digest = agent_digest(agent)
    wanted = sorted(set(gpu_indices))
    gpu_type = gpu_types(wanted) if wanted else None
    ids = (manifest.get("competitions") or {}).get("ids") or []
    per = dict(manifest.get("by_competition") or {})
    if isinstance(per.get("gpu"), dict):
        per["gpu"] = {
            cid: mapped(entry, lambda one: _with_type(one, gpu_type))
            for cid, entry in per["gpu"].items()
        }
    return {
        **manifest,
        "harness": harness_entry(harness_version()),
        "agent": mapped(manifest.get("agent"), lambda entry: _with_digest(entry, agent, digest)),
        "models": {**manifest["models"], "providers": agent_providers(agent)},
        "gpu": mapped(manifest.get("gpu"), lambda entry: _with_type(entry, gpu_type)),
        "known_issues": known_issues(mle_session, ids),
        "by_competition": per,
    }


def _with_digest(entry: Any, agent: Any, digest: str) -> Any:
    if isinstance(entry, dict) and entry.get("name") == agent.name:
        return {**entry, "digest": digest}
    return entry


def _with_type(entry: Any, gpu_type: str | None) -> Any:
    if isinstance(entry, dict) and entry.get("count"):
        return {**entry, "type": gpu_type}
    return entry
