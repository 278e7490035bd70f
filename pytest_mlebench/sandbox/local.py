"""The local backend: a per-run temp folder and a host process tree. Weak isolation.

The contract paths are folders under a fresh temp root; public data is hard-linked (or copied) in
with read-only modes, the private answers never are. The agent gets a minimal environment (no host
secrets) and runs in its own process group, killed with all its children at the deadline. Where
Linux namespaces work (:mod:`pytest_mlebench.sandbox.namespaces`), the data is mounted read-only,
the answers and credentials are masked, the network is cut and the agent cannot see the harness's
processes. Nothing limits memory, and the agent runs the harness's own Python (its folder comes
first on the agent's ``PATH``, so ``python3`` has the packages the harness has): use the Docker
backend for untrusted agents.
``docs/sandbox.md`` spells out the difference.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copying import copy_tree_out
from pytest_mlebench.sandbox.interface import ContractPaths, ExecResult, Sandbox, SandboxSpec
from pytest_mlebench.sandbox.namespaces import maskable, namespaces_unavailable, wrap_command
from pytest_mlebench.sandbox.process import run_process_tree
from pytest_mlebench.sandbox.services import ServiceSite
from pytest_mlebench.sandbox.validator import CLIENT_SCRIPT, validate_script

PASS_THROUGH_ENV = ("PATH", "LANG", "LC_ALL", "TZ", "TMPDIR")
#: Names the interpreter whose folder comes first on the agent's PATH (default: the harness's).
LOCAL_PYTHON_ENV = "MLEBENCH_LOCAL_PYTHON"
SERVICES_DIR = ".services"  # the host services' folder, under the sandbox's root


class LocalSandbox(Sandbox):
    """Runs the agent as a host subprocess under a temp root."""

    backend = "local"
    isolated = False

    def __init__(self, spec: SandboxSpec) -> None:
        super().__init__(spec)
        # Chosen now, made by start(): the contract paths are known before the sandbox starts.
        # Short: the host services' sockets live under this root, and a unix socket path has at most
        # 107 bytes (long competition ids such as the right-whale challenge went past it).
        slug = re.sub(r"[^a-zA-Z0-9_.-]+", "-", spec.run_id)[:24]
        self.root = Path(tempfile.gettempdir()) / f"mlebench-{slug}-{uuid.uuid4().hex[:8]}"
        self._started = False
        self._exec_count = 0

    @property
    def paths(self) -> ContractPaths:
        root = self.root
        return ContractPaths(
            home=str(root),
            data=str(root / "data"),
            submission=str(root / "submission"),
            logs=str(root / "logs"),
            code=str(root / "code"),
            agent=str(root / "agent"),
            instructions=str(root / "instructions.md"),
            validate=str(root / "validate_submission.sh"),
            work=str(root / "work"),
        )

    @property
    def python(self) -> str:
        return sys.executable

    def start(self) -> None:
        if self._started:
            return
        if self.spec.network.mode == "allow":
            raise SandboxError(
                "the local backend cannot keep an egress allow-list: use --mle-sandbox docker "
                "for --mle-network allow:HOST,..."
            )
        try:
            self.root.mkdir(mode=0o700)  # fails on a planted folder of the same name
            self._started = True
            for name in ("submission", "logs", "code", "agent", "home"):
                (self.root / name).mkdir()
            if self.spec.workspace:
                (self.root / "work").mkdir()
            link_read_only(self.spec.public_dir, self.root / "data")
            self._install_validate_script()
            self.spec.services.start(self.site)
        except (OSError, SandboxError) as exc:
            self.stop()
            raise SandboxError(f"could not set up the local sandbox: {exc}") from exc
        except BaseException:
            self.stop()
            raise

    @property
    def site(self) -> ServiceSite:
        """The host services' folder: the same path on both sides (there is one filesystem)."""
        folder = self.root / SERVICES_DIR
        return ServiceSite(folder, str(folder), self.python, own_localhost=False)

    def _install_validate_script(self) -> None:
        """``validate_submission.sh`` at its contract path, as the Docker image has it: it asks
        whatever ``MLEBENCH_VALIDATOR_SOCKET`` names (the validator service, when attached)."""
        root = self.root
        shutil.copy2(CLIENT_SCRIPT, root / "agent" / "validate_client.py")
        script = root / "validate_submission.sh"
        script.write_text(validate_script(str(root / "agent" / "validate_client.py"), self.python))
        script.chmod(0o755)

    def exec(
        self,
        command: Sequence[str],
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> ExecResult:
        root = self._started_root()
        self._exec_count += 1
        log_path = log_path or root / "logs" / f".exec-{self._exec_count}.log"
        return run_process_tree(
            self._isolated(self.spec.services.wrap(command, self.site)),
            cwd=root,
            env=self._agent_env(env),
            timeout=timeout,
            log_path=log_path,
        )

    def exec_harness(
        self, command: Sequence[str], *, timeout: float | None = None, log_path: Path | None = None
    ) -> ExecResult:
        """``command`` with a clean environment (``PATH`` and the locale only), from the
        sandbox's root; the local backend has no other user to run it as."""
        root = self._started_root()
        env = {key: os.environ[key] for key in PASS_THROUGH_ENV if key in os.environ}
        self._exec_count += 1
        log_path = log_path or root / "logs" / f".harness-{self._exec_count}.log"
        return run_process_tree(
            list(command), cwd=root, env=env, timeout=timeout, log_path=log_path
        )

    def _started_root(self) -> Path:
        if not self._started:
            raise SandboxError("the local sandbox is not started")
        return self.root

    def _isolated(self, command: Sequence[str]) -> list[str]:
        """``command`` inside namespaces when the machine allows it, else unchanged."""
        if namespaces_unavailable() is not None:
            return list(command)
        return wrap_command(
            command,
            read_only=[self.root / "data"],
            hidden=maskable(self.spec.hidden_paths, self.root),
            isolate_network=self.spec.network.mode == "none",
        )

    def _agent_env(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        env = {key: os.environ[key] for key in PASS_THROUGH_ENV if key in os.environ}
        env["PATH"] = harness_python_first(env.get("PATH", os.defpath))
        env["HOME"] = str(self.root / "home")
        env["PYTHONUNBUFFERED"] = "1"
        env["CUDA_VISIBLE_DEVICES"] = ",".join(self.spec.limits.resources.gpus)
        env.update(self.contract_env())
        env.update(extra or {})
        env.update(self.spec.services.env(self.site))
        return env

    def kill_agent_processes(self) -> None:
        """SIGKILL every process whose environment names this sandbox's home (the agent's tree,
        also the parts that left its process group)."""
        if self._started:
            kill_marked(f"HOME={self.root / 'home'}".encode())

    def copy_in(self, source: Path, destination: str) -> None:
        self._started_root()
        target = Path(destination)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target)

    def copy_out(
        self,
        source: str,
        destination: Path,
        *,
        max_file_bytes: int | None = None,
        budget: CopyBudget | None = None,
    ) -> bool:
        return copy_tree_out(Path(source), destination, max_file_bytes, budget or CopyBudget())

    def stop(self, interrupted: bool = False) -> None:
        try:
            self.spec.services.stop()
        finally:
            self._remove_root()

    def _remove_root(self) -> None:
        if self._started:
            _make_writable(self.root)
            shutil.rmtree(self.root, ignore_errors=True)
            self._started = False


def harness_python_first(path: str) -> str:
    """``path`` with the folder of the agents' interpreter first.

    An agent folder's ``start.sh`` calls ``python3``: in the local backend that is the
    interpreter running pytest (a virtual environment's, with the packages the harness has), or
    the one ``MLEBENCH_LOCAL_PYTHON`` names, not whatever ``python3`` comes first on the user's
    ``PATH`` (a venv used as ``.venv/bin/pytest`` is not on it). ``docs/agents.md`` says so.
    """
    folder = str(Path(os.environ.get(LOCAL_PYTHON_ENV) or sys.executable).parent)
    return os.pathsep.join(
        [folder, *(entry for entry in path.split(os.pathsep) if entry != folder)]
    )


def kill_marked(marker: bytes) -> int:
    """SIGKILL the processes with ``marker`` as an entry of their environment; how many."""
    killed = 0
    for entry in Path("/proc").glob("[0-9]*"):
        pid = int(entry.name)
        if pid == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                continue
    return killed


def link_read_only(source: Path, destination: Path) -> None:
    """Mirror ``source`` at ``destination`` with hard links (copies across filesystems), read-only.

    Hard links share the prepared files' inodes, so the 0444 modes land on the prepared data too,
    which is what it should be anyway; the manifest check catches any change to them.
    """
    if not source.is_dir():
        raise SandboxError(f"public data folder {source} does not exist")
    shutil.copytree(source, destination, copy_function=_link_or_copy)
    for folder, _, files in os.walk(destination):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)


def _link_or_copy(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def _make_writable(root: Path) -> None:
    for folder, _, _ in os.walk(root):
        try:
            mode = os.stat(folder).st_mode
            os.chmod(folder, mode | stat.S_IWUSR | stat.S_IXUSR | stat.S_IRUSR)
        except OSError:
            continue
