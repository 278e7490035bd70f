"""The verify-side builds of a task with a ``builder:`` block: facts for a verifier with no engine.

The verifier's container has no Docker engine, so before it runs, the harness carries out the
task's declared recipe (:class:`~pytest_mlebench.eng.builder_spec.BuilderSpec`) on the final
workspace with the harness's builder (:mod:`.image_builder`) and writes what happened into a
folder the verifier gets read-only as ``$BUILD_DIR``:

```
summary.json    the build: ok, refused, timed_out, wall_s, image_id, size, base_size, user
                (the image's Config.User), entrypoint, cmd, steps (cached or not), context files
build.log       the build log (capped)
inspect.json    docker image inspect; history.json: docker history
run.json        the docker run: exit_code, timed_out, wall_s, user; run.log its output
run/            the files the run wrote to its output folder
rebuild/        summary.json, build.log, history.json after a source-only change of the context
```

The run has no network, the recipe's memory and CPU limits, no capabilities, no new
privileges, the private input folder read-only at ``/input`` and an empty output folder; it runs
as the image's own user (the verifier checks ``Config.User``, the harness does not enforce it).
A build that fails or is refused is a fact (``ok: false``) the verifier scores, not an error.
Every image built here is removed before this returns.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_mlebench.eng.builder_spec import BuilderSpec, RunRecipe
from pytest_mlebench.sandbox.docker.cleanup import ownership_labels, remember, remove_container
from pytest_mlebench.sandbox.docker.engine import docker_client, import_docker
from pytest_mlebench.sandbox.docker.image_builder import BuildResult, ImageBuilder
from pytest_mlebench.sandbox.memory_sizes import size_in_bytes

INPUT_MOUNT = "/input"
RUN_LOG_BYTES = 64 * 1024
PROBE_LINE = "\n# mlebench cache probe: a source-only change\n"


def run_task_builds(
    spec: BuilderSpec,
    builder: ImageBuilder,
    workspace: Path,
    private_dir: Path,
    out: Path,
) -> dict[str, Any]:
    """Build ``workspace`` (a copy the harness owns), run the image, rebuild after a source-only
    change; the facts go to ``out`` (made here). Returns the record's summary of them."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        first = builder.build(workspace, spec.dockerfile)
        summary = {"build": write_build(first, out, builder)}
        if first.ok and spec.run is not None and first.tag is not None:
            summary["run"] = run_image(first.tag, spec.run, private_dir, out, builder.labels)
        if first.ok and spec.rebuild_after_change:
            summary["rebuild"] = _rebuild(spec, builder, workspace, out / "rebuild")
        return summary
    finally:
        builder.remove_all()


def write_build(result: BuildResult, out: Path, builder: ImageBuilder) -> dict[str, Any]:
    """``summary.json``, ``build.log``, ``inspect.json`` and ``history.json`` of one build."""
    out.mkdir(parents=True, exist_ok=True)
    config = (result.inspect or {}).get("Config") or {}
    facts = {
        **result.summary(),
        "user": config.get("User") or "",
        "entrypoint": config.get("Entrypoint"),
        "cmd": config.get("Cmd"),
        "base_size": _base_size(result, builder),
        "steps": list(result.steps),
        "context_files": list(result.context_files),
    }
    _write_json(out / "summary.json", facts)
    (out / "build.log").write_text(result.log, "utf-8")
    _write_json(out / "inspect.json", result.inspect)
    _write_json(out / "history.json", list(result.history))
    return result.summary()


def _base_size(result: BuildResult, builder: ImageBuilder) -> int | None:
    """The size of the allowed base image the build started FROM (the budget counts above it)."""
    if result.inspect is None:
        return None
    parents = {entry.get("Id") for entry in result.history}
    client = docker_client()
    try:
        for tag in builder.limits.allowed_from:
            try:
                image = client.images.get(tag)
            except import_docker().errors.NotFound:
                continue
            if image.id in parents:
                return int(image.attrs.get("Size") or 0)
    finally:
        client.close()
    return None


def _rebuild(
    spec: BuilderSpec, builder: ImageBuilder, workspace: Path, out: Path
) -> dict[str, Any]:
    """The cache probe: one comment line appended to a source file, then the same build."""
    with tempfile.TemporaryDirectory(prefix="mlebench-rebuild-") as tmp:
        copy = Path(tmp) / "context"
        shutil.copytree(workspace, copy, symlinks=True)
        target = copy / str(spec.rebuild_after_change)
        if not target.is_file() or target.is_symlink():
            out.mkdir(parents=True, exist_ok=True)
            facts = {"ok": False, "skipped": f"no file {spec.rebuild_after_change} to change"}
            _write_json(out / "summary.json", facts)
            return facts
        with target.open("a", encoding="utf-8") as handle:
            handle.write(PROBE_LINE)
        return write_build(builder.build(copy, spec.dockerfile), out, builder)


def run_image(
    tag: str, recipe: RunRecipe, private_dir: Path, out: Path, labels: dict[str, str] | Any
) -> dict[str, Any]:
    """One ``docker run`` of ``tag`` as the recipe says; ``run.json``, ``run.log``, ``run/``."""
    docker = import_docker()
    client = docker_client()
    staging = Path(tempfile.mkdtemp(prefix="mlebench-run-"))
    container: Any = None
    try:
        mounts = _run_mounts(docker, recipe, private_dir, staging)
        memory = size_in_bytes(recipe.memory)
        container = client.containers.create(
            tag, command=list(recipe.args), network_mode="none", mounts=mounts,
            labels={**ownership_labels(f"build-run-{tag}", "build"), **dict(labels)},
            cap_drop=["ALL"], security_opt=["no-new-privileges"], pids_limit=256,
            mem_limit=memory, memswap_limit=memory, nano_cpus=int(recipe.cpus * 1e9),
        )  # fmt: skip
        remember(container)
        started = time.monotonic()
        container.start()
        status, timed_out = _wait(container, recipe.timeout_s)
        wall = time.monotonic() - started
        text = container.logs(stdout=True, stderr=True)[-RUN_LOG_BYTES:].decode("utf-8", "replace")
        (out / "run.log").write_text(text, "utf-8")
        shutil.copytree(staging / "output", out / "run", symlinks=True)
        user = (container.attrs.get("Config") or {}).get("User") or ""
        facts: dict[str, Any] = {
            "exit_code": status,
            "timed_out": timed_out,
            "wall_s": round(wall, 3),
        }
        facts |= {"user": user, "args": list(recipe.args)}
        _write_json(out / "run.json", facts)
        return facts
    except docker.errors.DockerException as exc:
        facts = {"exit_code": None, "error": f"{type(exc).__name__}: {exc}"}
        _write_json(out / "run.json", facts)
        return facts
    finally:
        if container is not None:
            remove_container(container, graceful=False)
        client.close()
        shutil.rmtree(staging, ignore_errors=True)


def _run_mounts(docker: Any, recipe: RunRecipe, private_dir: Path, staging: Path) -> list[Any]:
    """The hidden input (a copy anyone may read) read-only, an output folder anyone may write."""
    mount = docker.types.Mount
    output = staging / "output"
    output.mkdir()
    output.chmod(0o777)  # the image's own user, whoever it is, writes here
    mounts = [mount(recipe.output, str(output), type="bind", read_only=False)]
    if recipe.input is not None:
        source = private_dir / recipe.input
        copy = staging / "input"
        if source.is_dir():
            shutil.copytree(source, copy)
        else:
            copy.mkdir()
        for path in [copy, *copy.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        mounts.append(mount(INPUT_MOUNT, str(copy), type="bind", read_only=True))
    return mounts


def _wait(container: Any, limit: float) -> tuple[int | None, bool]:
    """The exit status, or ``(None, True)`` when the run passed ``limit`` (then killed)."""
    try:
        outcome = container.wait(timeout=limit)
    except Exception:  # requests' ReadTimeout or the engine's own
        try:
            container.kill()
        except import_docker().errors.DockerException:
            pass
        return None, True
    return int(outcome.get("StatusCode", -1)), False


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=1, sort_keys=True, default=str) + "\n", "utf-8")
