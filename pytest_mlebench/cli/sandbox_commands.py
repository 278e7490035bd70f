"""``mlebench agents`` (the built-in agents) and ``mlebench sandbox`` (images and containers)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

# How long a first build takes, for the line printed before it (base: measured on a fresh 2-core
# machine, README "Set-up time"; the others depend on how many wheels are cached).
FIRST_BUILD = {
    "base": "about 8 min on a fresh machine (a debootstrap base image, then apt-get; both need "
    "a Debian mirror when no registry answers), 1 to 2 min with a warm cache",
    "eng": "about 13 min on a loaded 2-core machine (apt-get of Debian's torch, onnx, flask, ...) "
    "FROM an existing base image",
}


def add_agents(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("agents", help="list the built-in agents")
    parser.set_defaults(handler=cmd_agents)


def cmd_agents(args: argparse.Namespace) -> int:
    from pytest_mlebench.agents import BUILTIN_AGENTS

    for name, text in BUILTIN_AGENTS.items():
        print(f"{name:<10} {text}")
    print("or pass --mle-agent=PATH for an agent folder with config.yaml (docs/agents.md)")
    return 0


def add_sandbox(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("sandbox", help="build the Docker image or clean up containers")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    build = actions.add_parser("build", help="build an image profile (offline-capable)")
    build.add_argument("--force", action="store_true", help="rebuild even if the image exists")
    _profile_option(build)
    build.add_argument(
        "--wheelhouse",
        type=Path,
        metavar="DIR",
        help="prepared folder of the lock's wheels (air-gapped; default: download them with "
        "this machine's pip into $XDG_CACHE_HOME/mlebench/wheels)",
    )
    build.set_defaults(handler=cmd_sandbox_build)
    lock = actions.add_parser(
        "lock", help="resolve a profile's requirements.in into requirements.lock with hashes"
    )
    _profile_option(lock, default="ml")
    lock.set_defaults(handler=cmd_sandbox_lock)
    cleanup = actions.add_parser(
        "cleanup",
        help="remove sandbox containers and built images whose session is gone (--all: every one)",
    )
    cleanup.add_argument(
        "--all", action="store_true", help="also remove those of sessions still running"
    )
    cleanup.set_defaults(handler=cmd_sandbox_cleanup)
    status = actions.add_parser(
        "status", help="say whether a Docker engine answers and which profile images are built"
    )
    status.set_defaults(handler=cmd_sandbox_status)


def _profile_option(parser: argparse.ArgumentParser, default: str = "base") -> None:
    from pytest_mlebench.sandbox.docker.profiles import ALL_PROFILES as PROFILES

    parser.add_argument(
        "--profile",
        default=default,
        choices=list(PROFILES),
        help="; ".join(f"{name}: {text}" for name, text in PROFILES.items()),
    )


def cmd_sandbox_status(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox import docker_status

    ok, why = docker_status()
    print("docker: available" if ok else f"docker: not available ({why})")
    if ok:
        from pytest_mlebench.sandbox.docker.profiles import profile_states

        for name, tag, built in profile_states():
            print(f"profile {name:<5} {tag} {'built' if built else 'not built'}")
    return 0 if ok else 1


def cmd_sandbox_build(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker.profiles import build_profile

    started = time.monotonic()
    expected = FIRST_BUILD.get(args.profile, "longer: it downloads the profile's wheels first")
    print(f"image {args.profile}: built unless up to date; a first build takes {expected}")
    image = build_profile(
        args.profile,
        wheels_from=args.wheelhouse,
        force=args.force,
        progress=lambda line: print(line, flush=True),
    )
    print(f"image ready: {image} ({time.monotonic() - started:.0f} s)")
    return 0


def cmd_sandbox_lock(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker.profiles import lock_profile

    lock, count = lock_profile(args.profile, progress=lambda line: print(line, flush=True))
    print(f"wrote {lock} ({count} pinned packages)")
    return 0


def cmd_sandbox_cleanup(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker import reap_containers
    from pytest_mlebench.sandbox.docker.cleanup import reap_build_images

    removed = reap_containers(None, include_live=args.all)
    images = reap_build_images(by_hand=True, include_live=args.all)
    print(f"removed {removed} container(s) and {images} image(s) the harness's builder made")
    return 0
