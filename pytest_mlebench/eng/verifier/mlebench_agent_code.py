"""The agent's Python code, run out of the verifier's reach: a child process, as another user.

A verifier that ``import``s the agent's module runs the agent's code inside the process that
counts the checks: a module-level ``sys.modules["mlebench_verify"].results = ...`` would then
rewrite the results. :func:`agent_module` instead imports the module in a **child process**
started through the verifier's one door (:mod:`mlebench_agent_run`): as the unprivileged user
``nobody`` when the verifier is root (always, in its container), in a fresh environment, with
``python3 -I``. The child cannot write the verifier's output folder, signal or trace the
verifier, or read ``/private`` or ``/verify`` (root only).

The verifier drives the module through a proxy (:class:`Remote`): attribute reads, calls, item
access, ``len``, iteration and ``numpy.asarray`` are requests over a pipe pair. Values go to the
child pickled (the verifier is trusted); values come back in a **data-only** encoding
(:mod:`mlebench_agent_values`), so nothing the child sends can run code in the verifier. Any other
object (a fitted model, a torch module) stays in the child and comes back as a :class:`Remote`
handle. An exception in the agent's code is raised in the verifier as :class:`AgentCodeError` (and,
where the child raised a built-in exception such as ``AttributeError``, as that type too, so
``getattr(remote, "x", default)`` behaves). A call past its timeout, or past 90 % of the verifier's
time (``VERIFY_TIME_LIMIT``), kills the child: a hang is a failed check, not the verifier's.

This file imports only the standard library at module level (numpy and pandas where values need
them), so the child starts fast and any verifier image can load it from ``$PYTHONPATH``.
"""

from __future__ import annotations

import builtins
import json
import os
import pickle
import select
import struct
import sys
import tempfile
import time
import traceback
import weakref
from pathlib import Path
from typing import Any

from mlebench_agent_run import (
    DEFAULT_TIMEOUT_S,
    AgentProcess,
    agent_scratch,
    in_verifier_container,
    seconds_left,
    start_agent,
)
from mlebench_agent_values import decode, encode

__all__ = ["AgentCodeError", "Remote", "agent_module", "in_verifier_container", "type_name"]

MAX_FRAME = 1 << 31
_HEADER = struct.Struct(">Q")


class AgentCodeError(Exception):
    """The agent's code raised, hung or died in its child process (a failed check, never an
    error of the verifier)."""

    type_name = "AgentCodeError"


def agent_module(
    name: str,
    work_dir: Path | str,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    writable: tuple[Path, ...] = (),
) -> Remote:
    """The agent's module ``name`` (found in ``work_dir``), imported in a child process; the
    child's output goes to ``<tmp>/agent-<name>.log`` (its tail is in every error); a call may
    take ``timeout_s``, never past 90 % of the verifier's time limit."""
    root: Remote = _Link(name, Path(work_dir), timeout_s, writable).root
    return root


def type_name(value: Any) -> str:
    """The class name of ``value``, whether it lives here or in the agent's child."""
    if isinstance(value, Remote):
        return str(object.__getattribute__(value, "_type"))
    return type(value).__name__


class Remote:
    """An object of the agent's child process; every use is a request to the child."""

    __slots__ = ("__weakref__", "_id", "_link", "_type")

    def __init__(self, link: _Link, ref: int, kind: str) -> None:
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ref)
        object.__setattr__(self, "_type", kind)

    def _ask(self, op: str, payload: Any = None) -> Any:
        link: _Link = object.__getattribute__(self, "_link")
        return link.request(op, object.__getattribute__(self, "_id"), payload)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("objects of the agent's code are read through the verifier's proxy")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._ask("call", (args, kwargs))

    def __getitem__(self, key: Any) -> Any:
        return self._ask("getitem", key)

    def __len__(self) -> int:
        return int(self._ask("len"))

    def __iter__(self) -> Any:
        return iter(self._ask("list"))

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy as np

        value = np.asarray(self._ask("array"))
        return value if dtype is None else value.astype(dtype)

    def __str__(self) -> str:
        return str(self._ask("str"))

    def __repr__(self) -> str:
        kind = object.__getattribute__(self, "_type")
        return f"<agent {kind} #{object.__getattribute__(self, '_id')}>"

    def __reduce__(self) -> Any:
        return (_Ref, (object.__getattribute__(self, "_id"),))


class _Ref:
    """A :class:`Remote` as it travels to the child: the id of an object the child holds."""

    def __init__(self, ref: int) -> None:
        self.ref = ref


class _Link:
    """The verifier's end: the child process, its pipes, the request/response loop."""

    def __init__(self, name: str, work: Path, timeout_s: float, writable: tuple[Path, ...]) -> None:
        self.name, self.timeout_s, self.dead = name, timeout_s, ""
        self.log_path = Path(tempfile.mkdtemp(prefix="agent-code-")) / f"agent-{name}.log"
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        boot = (
            f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import mlebench_agent_code as m; m.serve({to_child_r}, {from_child_w})"
        )
        self.agent = start_agent(
            [sys.executable, "-I", "-c", boot, name, str(work)], log=self.log_path, cwd=work,
            writable=(work, *writable), home=agent_scratch("agent-home-"),
            pass_fds=(to_child_r, from_child_w),
        )  # fmt: skip
        self.process = self.agent.process
        os.close(to_child_r)
        os.close(from_child_w)
        self._deadline()
        weakref.finalize(self, _stop, self.agent, self.to_child, self.from_child)
        self.root = self._decode(self._receive("import"))

    def _deadline(self) -> None:
        """The next answer's deadline: the call's timeout, cut to the verifier's time."""
        left = seconds_left(self.timeout_s)
        self.cut = left < self.timeout_s
        self.until = time.monotonic() + left

    def request(self, op: str, ref: int, payload: Any) -> Any:
        if self.dead:
            raise AgentCodeError(self.dead)
        frame = pickle.dumps((op, ref, payload), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            os.write(self.to_child, _HEADER.pack(len(frame)))
            _write_all(self.to_child, frame)
        except OSError:
            self._fail(f"the agent's process for {self.name!r} has exited")
        self._deadline()
        return self._decode(self._receive(op))

    def _receive(self, op: str) -> dict[str, Any]:
        try:
            header = json.loads(self._frame(op))
            blobs = [self._frame(op) for _ in range(int(header.get("blobs", 0)))]
        except AgentCodeError:
            raise
        except (ValueError, TypeError, AttributeError):
            self._fail(f"the agent's process for {self.name!r} sent an unreadable answer")
        if not isinstance(header, dict):
            self._fail(f"the agent's process for {self.name!r} sent an unreadable answer")
        header["_blobs"] = blobs
        answer: dict[str, Any] = header
        return answer

    def _frame(self, op: str) -> bytes:
        size = _HEADER.unpack(self._read(_HEADER.size, op))[0]
        if size > MAX_FRAME:
            self._fail(f"the agent's process for {self.name!r} sent an answer over 2 GiB")
        return self._read(size, op)

    def _read(self, size: int, op: str) -> bytes:
        chunks, left = [], size
        while left:
            wait = max(0.0, self.until - time.monotonic())
            ready, _, _ = select.select([self.from_child], [], [], wait)
            if not ready:
                limit = os.environ.get("VERIFY_TIME_LIMIT", "?")
                verifiers = f"90 % of the verifier's {limit} s"
                past = verifiers if self.cut else f"{self.timeout_s:.0f} s"
                self._fail(f"the agent's code ran past {past} ({op} in {self.name!r})")
            chunk = os.read(self.from_child, min(left, 1 << 20))
            if not chunk:
                self.process.wait(timeout=5)
                self._fail(
                    f"the agent's process for {self.name!r} exited ({self.process.returncode})"
                )
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def _fail(self, message: str) -> Any:
        _stop(self.agent, None, None)
        self.dead = f"{message}; its output ends: {self._log_tail()}"
        raise AgentCodeError(self.dead)

    def _log_tail(self) -> str:
        try:
            return self.log_path.read_text("utf-8", "replace")[-600:].strip() or "(nothing)"
        except OSError:
            return "(no log)"

    def _remote(self, ref: int, kind: str) -> Remote:
        return Remote(self, ref, kind)

    def _decode(self, header: dict[str, Any]) -> Any:
        if header.get("t") == "raise":
            raise _error(str(header.get("type", "")), str(header.get("message", ""))[:2000])
        try:
            return decode(header.get("value"), header["_blobs"], self._remote)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            self._fail(f"the agent's process for {self.name!r} sent a malformed value ({exc})")


_MIXED: dict[str, type[AgentCodeError]] = {}


def _error(kind: str, message: str) -> AgentCodeError:
    """The agent's exception as :class:`AgentCodeError`, mixed with its built-in type if it has
    one; one mixed class per type, so equal failures compare equal (hypothesis relies on it)."""
    base = getattr(builtins, kind, None)
    text = f"{kind} in the agent's code: {message}"
    if isinstance(base, type) and issubclass(base, Exception) and base is not AgentCodeError:
        if kind not in _MIXED:
            _MIXED[kind] = type(kind, (AgentCodeError, base), {"type_name": kind})
        return _MIXED[kind](text)
    error = AgentCodeError(text)
    error.type_name = kind
    return error


def _stop(agent: AgentProcess, *fds: int | None) -> None:
    agent.stop(grace_s=0)
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# -- the child's end -------------------------------------------------------------------------


def serve(read_fd: int, write_fd: int) -> None:
    """The child: import ``sys.argv[1]`` from ``sys.argv[2]``, then answer requests until EOF."""
    name, work = sys.argv[1], sys.argv[2]
    sys.argv = [name]
    sys.path.insert(0, work)
    keep: dict[int, Any] = {}
    try:
        import importlib

        keep[0] = importlib.import_module(name)
        _answer(write_fd, {"t": "ok", "value": {"t": "ref", "id": 0, "type": "module"}}, [])
    except BaseException as exc:  # reported to the verifier, then the child ends
        _raise(write_fd, exc)
        return
    while True:
        size = _read_exact(read_fd, _HEADER.size)
        frame = None if size is None else _read_exact(read_fd, _HEADER.unpack(size)[0])
        if frame is None:  # the verifier closed its end
            return
        op, ref, payload = pickle.loads(frame)  # from the verifier: trusted
        try:
            value = _perform(op, keep[ref], _resolve(payload, keep))
            blobs: list[bytes] = []
            _answer(write_fd, {"t": "ok", "value": encode(value, blobs, keep)}, blobs)
        except BaseException as exc:  # the agent's exception, reported
            _raise(write_fd, exc)


def _perform(op: str, target: Any, payload: Any) -> Any:
    if op == "getattr":
        return getattr(target, payload)
    if op == "call":
        args, kwargs = payload
        return target(*args, **kwargs)
    if op == "getitem":
        return target[payload]
    if op == "len":
        return len(target)
    if op == "list":
        return list(target)
    if op == "str":
        return str(target)
    if op == "array":
        import numpy

        detach = getattr(target, "detach", None)  # a torch tensor that requires grad
        return numpy.asarray(detach() if callable(detach) else target)
    raise ValueError(f"unknown request {op!r}")


def _resolve(value: Any, keep: dict[int, Any]) -> Any:
    if isinstance(value, _Ref):
        return keep[value.ref]
    if isinstance(value, list):
        return [_resolve(item, keep) for item in value]
    if isinstance(value, tuple):
        return tuple(_resolve(item, keep) for item in value)
    if isinstance(value, dict):
        return {key: _resolve(item, keep) for key, item in value.items()}
    return value


def _raise(write_fd: int, exc: BaseException) -> None:
    message = f"{exc}\n{''.join(traceback.format_exception(exc)[-3:])}"
    _answer(write_fd, {"t": "raise", "type": type(exc).__name__, "message": message[-2000:]}, [])


def _answer(write_fd: int, header: dict[str, Any], blobs: list[bytes]) -> None:
    header["blobs"] = len(blobs)
    for frame in (json.dumps(header).encode(), *blobs):
        _write_all(write_fd, _HEADER.pack(len(frame)) + frame)


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
