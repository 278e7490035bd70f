"""Start and stop a local model server: llama.cpp's OpenAI-compatible server on loopback.

The server runs in a child process the harness owns, not in the harness's own process, although
``xllamacpp`` is a Python binding that could serve from a thread: the binding gives no way to stop
its server and free the model short of ending the process; a crash in native code (a bad GGUF
file, memory) would take the pytest session down with it; its log lines go to the process's own
stderr, which the child sends to a log file; and the process is what a deadline or Ctrl-C can
stop for certain (SIGTERM, then SIGKILL). The server listens on ``127.0.0.1`` only, and is
ready when ``GET /v1/models`` answers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from pytest_mlebench.local_model.catalog import INSTALL_HINT, ModelFile
from pytest_mlebench.local_model.model_error import LocalModelError

DEFAULT_PORT = 8080
DEFAULT_MAX_TOKENS = 4096
HOST = "127.0.0.1"
NOT_INSTALLED = 3  # the child's exit status when xllamacpp is missing
START_TIMEOUT_SECONDS = 300.0
STOP_TIMEOUT_SECONDS = 10.0
POLL_SECONDS = 0.25


def machine_cores() -> int:
    """The CPU cores this process may run on (its affinity; the CPU count where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerOptions:
    """How the server runs: its port, context length, CPU threads and the answer cap.

    ``context`` ``0`` is the model's own trained context (32,768 tokens for Qwen2.5-Coder-1.5B,
    8,192 for SmolLM2-135M): mini-swe-agent keeps its whole history (up to 50 steps), which
    outgrows 8,192 tokens in about ten steps. ``threads`` defaults to the cores this process may
    use: a benchmark run leaves the machine to the server while the agent waits for an answer
    (on a machine busy with other work, fewer threads than free cores are faster: llama.cpp's
    threads spin while they wait). ``max_tokens`` caps answers whose request sets no
    ``max_tokens``; 4,096 holds AIDE's longest answers (a plan and a whole program), and the
    built-in agents set their own cap anyway.
    """

    port: int = DEFAULT_PORT
    context: int = 0
    threads: int = field(default_factory=machine_cores)
    max_tokens: int = DEFAULT_MAX_TOKENS


class LocalModelServer:
    """One local model server: ``start()`` it (or use ``with``), read ``base_url``, ``stop()``."""

    def __init__(self, model: ModelFile, options: ServerOptions, log_path: Path) -> None:
        self.model = model
        self.options = options
        self.log_path = log_path
        self.load_seconds: float | None = None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (``http://127.0.0.1:PORT/v1``)."""
        return f"http://{HOST}:{self.options.port}/v1"

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self, timeout: float = START_TIMEOUT_SECONDS) -> None:
        """Start the child and wait until ``/v1/models`` answers.

        Raises:
            LocalModelError: The port is taken, xllamacpp is missing, the child died or did not
                answer within ``timeout`` (the message quotes the end of its log).
        """
        if self._process is not None:
            return
        if answers(self.base_url):
            raise LocalModelError(
                f"port {self.options.port} on {HOST} already answers as a model server; "
                "stop it or choose another port"
            )
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "pytest_mlebench.local_model.child", *self._arguments()],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # Ctrl-C reaches it through stop(), not half-way
            )
        self._wait_ready(started, timeout)
        self.load_seconds = round(time.monotonic() - started, 3)

    def _arguments(self) -> list[str]:
        o = self.options
        values = (self.model.path, self.model.name, o.port, o.context, o.threads, o.max_tokens)
        return [str(value) for value in values]

    def _wait_ready(self, started: float, timeout: float) -> None:
        assert self._process is not None
        while time.monotonic() - started < timeout:
            code = self._process.poll()
            if code is not None:
                self._process = None
                raise LocalModelError(self._died_message(code))
            if answers(self.base_url):
                return
            time.sleep(POLL_SECONDS)
        self.stop()
        raise LocalModelError(
            f"the local model server did not answer {self.base_url}/models within {timeout:.0f} s"
            f"; its log: {self.log_path}"
        )

    def _died_message(self, code: int) -> str:
        if code == NOT_INSTALLED:
            return f"the local model server needs the xllamacpp package: {INSTALL_HINT}"
        tail = self.log_path.read_text(errors="replace")[-1500:] if self.log_path.is_file() else ""
        return (
            f"the local model server for {self.model.path} exited with status {code} before it "
            f"answered; the end of its log ({self.log_path}):\n{tail}"
        )

    def running(self) -> bool:
        """Whether the child is alive."""
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """Stop the child: SIGTERM, then SIGKILL after a grace period; safe to call twice."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LocalModelServer:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def answers(base_url: str) -> bool:
    """Whether an OpenAI-compatible server answers ``GET base_url/models`` with a model list."""
    try:
        with urllib.request.urlopen(base_url + "/models", timeout=2) as answer:
            return isinstance(json.loads(answer.read()).get("data"), list)
    except (OSError, ValueError, AttributeError):
        return False
