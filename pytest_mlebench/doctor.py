"""``mlebench doctor``: is this machine ready to run the benchmark? One table, each problem's fix.

Every check is a small function returning a :class:`Check` (or ``None`` when it cannot apply,
e.g. the sandbox image without a Docker engine, or rules acceptance when Kaggle cannot tell).
``FAIL`` means the selection cannot run as asked; ``warn`` means something optional is missing.
The Kaggle checks fail only when the selection (``--lite``, ``--split NAME``, ``-c ID``) still
needs a download; without a selection they warn. The LLM lines check the agent of ``--agent``
(``MLEBENCH_AGENT``) with the upstreams of ``--gateway-upstream`` laid over its config
(:mod:`pytest_mlebench.doctor_llm`): its providers' secrets, its models' prices, a server on this
machine behind it (models, context, the agent's answer cap) and the image profile its folder
builds FROM. Exit status 1 when any line is ``FAIL``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pytest_mlebench.definition import Competition
from pytest_mlebench.doctor_check import Check, Status
from pytest_mlebench.doctor_llm import check_agent_image, check_llm
from pytest_mlebench.kaggle import client
from pytest_mlebench.kaggle.archives import raw_is_complete
from pytest_mlebench.kaggle.download_progress import human_bytes
from pytest_mlebench.kaggle.plan import free_bytes, plan_batch

GPU_PROBE_TIMEOUT = 15
DOCKER_FIX = (
    "start the Docker engine (dockerd), or point DOCKER_HOST at one; "
    "the SDK comes with pip install 'pytest-mlebench[docker]'"
)
IMAGE_FIX = "mlebench sandbox build (a pytest session also builds it before the first run)"
GPU_FIX = (
    "competitions that declare GPUs need an NVIDIA driver (nvidia-smi) and, with Docker, the "
    "NVIDIA Container Toolkit; CPU-only competitions need neither"
)


def run_checks(
    selection: Sequence[Competition] | None,
    data_dir: Path,
    agent: str = "dummy",
    price_table: Path | None = None,
    upstreams: Sequence[tuple[str, str]] = (),
) -> list[Check]:
    """Every check, in table order; ``selection`` is ``None`` when none was given;
    ``upstreams`` the ``--gateway-upstream`` pairs, which win over the agent's config."""
    downloads = _needing_download(selection or (), data_dir)
    severity: Status = "FAIL" if downloads else "warn"
    docker = check_docker()
    found = [
        check_client(severity),
        check_credentials(severity),
        check_rules(downloads),
        check_disk(selection, data_dir),
        docker,
        check_image() if docker.status == "ok" else None,
        check_gpus(),
        *check_llm(agent, price_table, upstreams),
        check_agent_image(agent, price_table, docker.status == "ok"),
    ]
    return [check for check in found if check is not None]


def _needing_download(selection: Sequence[Competition], data_dir: Path) -> list[str]:
    return [
        c.id
        for c in selection
        if c.source == "kaggle"
        and not raw_is_complete(data_dir / c.id / "raw")
        and not (data_dir / c.id / "prepared" / "manifest.json").is_file()
    ]


def check_client(severity: Status) -> Check:
    version = client.client_version() if client.client_installed() else None
    if version or client.client_installed():
        return Check("kaggle client", "ok", f"kaggle {version or '(version unknown)'}")
    return Check("kaggle client", severity, "not installed", client.CLIENT_HINT.split(": ")[-1])


def check_credentials(severity: Status) -> Check:
    hint = client.credentials_hint()
    if hint is None:
        return Check("kaggle credentials", "ok", "found")
    fix = hint.removeprefix("no Kaggle credentials: ")
    return Check("kaggle credentials", severity, "none found", fix)


def check_rules(competition_ids: Sequence[str]) -> Check | None:
    """Which competitions' rules the account has not accepted, where Kaggle can tell."""
    if not competition_ids or client.credentials_hint() or not client.client_installed():
        return None
    try:
        api = client.new_api()
    except Exception:  # the credentials line already says what is wrong
        return None
    answers = {cid: rules_accepted(api, cid) for cid in competition_ids}
    known = {cid: accepted for cid, accepted in answers.items() if accepted is not None}
    if not known:
        return None
    missing = [cid for cid, accepted in known.items() if not accepted]
    if not missing:
        return Check("kaggle rules", "ok", f"accepted for {len(known)} competition(s)")
    pages = " ".join(client.rules_url(cid) for cid in missing)
    return Check(
        "kaggle rules",
        "FAIL",
        f"not accepted for {len(missing)} of {len(known)}",
        f"accept the rules on each page, signed in: {pages}",
    )


def rules_accepted(api: Any, competition_id: str) -> bool | None:
    """Whether the account entered the competition (accepted its rules); ``None``: unknown."""
    try:
        listing = api.competitions_list(search=competition_id)
    except Exception:  # the API cannot tell; the download will say so itself
        return None
    for item in getattr(listing, "competitions", listing) or ():
        ref = str(getattr(item, "ref", "")).rstrip("/").rsplit("/", 1)[-1]
        if ref == competition_id:
            for name in ("user_has_entered", "userHasEntered"):
                value = getattr(item, name, None)
                if isinstance(value, bool):
                    return value
    return None


def check_disk(selection: Sequence[Competition] | None, data_dir: Path) -> Check:
    if selection is None:
        free = human_bytes(free_bytes(data_dir))
        detail = f"{free} free in {data_dir} (--lite or --split NAME sizes a selection)"
        return Check("disk", "ok", detail)
    plan = plan_batch(selection, data_dir)
    needed, free = human_bytes(plan.needed_bytes), human_bytes(plan.free_bytes)
    estimated = " (estimated: sizes from a built-in table)" if plan.estimated else ""
    detail = f"about {needed} needed{estimated}, {free} free in {data_dir}"
    if plan.enough:
        return Check("disk", "ok", detail)
    return Check(
        "disk",
        "FAIL",
        detail,
        "free some space, choose another --data-dir (MLEBENCH_DATA_DIR), "
        "or prepare fewer competitions",
    )


def check_docker() -> Check:
    from pytest_mlebench.sandbox import docker_status

    available, why = docker_status()
    if available:
        return Check("docker engine", "ok", why)
    return Check("docker engine", "FAIL", why, DOCKER_FIX)


def check_image() -> Check | None:
    try:
        from pytest_mlebench.sandbox.docker.engine import docker_client
        from pytest_mlebench.sandbox.docker.image import image_tag
        from pytest_mlebench.sandbox.docker.recipe import image_exists

        docker = docker_client()
        try:
            tag = image_tag()
            built = image_exists(docker, tag)
        finally:
            docker.close()
    except Exception as exc:  # the engine line reports the engine; this one only the image
        return Check("sandbox image", "warn", f"cannot tell ({exc})", IMAGE_FIX)
    if built:
        return Check("sandbox image", "ok", tag)
    return Check("sandbox image", "warn", f"{tag} is not built", IMAGE_FIX)


def check_gpus() -> Check:
    tool = shutil.which("nvidia-smi")
    if tool is None:
        return Check("gpus", "warn", "none visible (nvidia-smi not found)", GPU_FIX)
    try:
        listing = subprocess.run(
            [tool, "-L"], capture_output=True, text=True, timeout=GPU_PROBE_TIMEOUT, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("gpus", "warn", f"nvidia-smi -L failed ({exc})", GPU_FIX)
    gpus = [line for line in listing.splitlines() if line.startswith("GPU ")]
    if not gpus:
        return Check("gpus", "warn", "nvidia-smi lists no GPU", GPU_FIX)
    return Check("gpus", "ok", f"{len(gpus)} visible: {gpus[0]}")


def table_lines(checks: Sequence[Check]) -> list[str]:
    """The table: name, status, detail; the fix on its own line below each non-ok line."""
    width = max(len(check.name) for check in checks)
    lines = [f"{'check':<{width}}  status  detail"]
    for check in checks:
        lines.append(f"{check.name:<{width}}  {check.status:<6}  {check.detail}")
        if check.status != "ok" and check.fix:
            lines.append(f"{'':<{width}}  {'':<6}  fix: {check.fix}")
    return lines


def add_doctor_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    from pytest_mlebench.settings import add_cli_options

    parser = commands.add_parser(
        "doctor",
        help="check credentials, disk, Docker, the image, GPUs and the agent's LLM gateway; "
        "each problem's fix",
    )
    common(parser)
    add_cli_options(parser, "agent", "price-table", "gateway-upstream")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("-c", "--competition", action="append", help="check for this competition")
    which.add_argument("--split", help="check for every competition of a split")
    which.add_argument(
        "--lite", action="store_const", const="lite", dest="split", help="same as --split lite"
    )
    parser.set_defaults(handler=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from pytest_mlebench.registry import load_registry
    from pytest_mlebench.settings import cli_value

    data_dir: Path = cli_value(args, "data-dir")
    selection: list[Competition] | None = None
    if args.split or args.competition:
        registry = load_registry(cli_value(args, "competitions-dir"))
        selection = (
            registry.split(args.split)
            if args.split
            else [registry.get(cid) for cid in args.competition]
        )
    checks = run_checks(
        selection,
        data_dir,
        cli_value(args, "agent"),
        cli_value(args, "price-table"),
        cli_value(args, "gateway-upstream") or (),
    )
    for line in table_lines(checks):
        print(line)
    return 1 if any(check.status == "FAIL" for check in checks) else 0
