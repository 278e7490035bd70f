"""What the hidden ``verify/`` files of a task hold, read from source, never run.

Which check ids they name: a verifier test names its check with ``@pytest.mark.check("ID")`` (on
a function or a class) or a module-level ``pytestmark = pytest.mark.check("ID")``.
:func:`checks_in_verify` finds them with :mod:`ast` in every ``test_*.py`` of the folder, so the
task loader can hold ``config.yaml`` and the tests to each other at session start without
importing a line of the verifier.

Whether they start a process: every program derived from the agent's work runs through the
verifier's one door (``mlebench_agent_run``: ``run_agent``, ``start_agent``; and
``agent_module``), which drops it to an unprivileged user with a fresh environment and a time
limit. :func:`process_starts` finds any other way to start one (``subprocess``, ``os.system``,
``os.exec*``, ``os.spawn*``, ``os.fork``, ``pty``, ``multiprocessing``, a process pool,
``asyncio.create_subprocess_*``, and those modules imported by name), so the loader refuses a
task whose verifier could run the agent's code as root.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pytest_mlebench.errors import ConfigError

MARK = "check"
DOOR = "mlebench_agent_run (run_agent, start_agent) or mlebench_agent_code (agent_module)"
PROCESS_MODULES = frozenset({"subprocess", "pty", "multiprocessing", "concurrent.futures.process"})
PROCESS_POOL = "ProcessPoolExecutor"
OS_PROCESS_CALLS = frozenset({"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp"})
ASYNC_PROCESS_CALLS = frozenset({"create_subprocess_exec", "create_subprocess_shell"})


def checks_in_verify(verify: Path) -> dict[str, list[Path]]:
    """``{check id: [test files naming it]}`` over ``verify/**/test_*.py``."""
    found: dict[str, list[Path]] = {}
    for path in sorted(verify.rglob("test_*.py")):
        for check in checks_in_source(path):
            files = found.setdefault(check, [])
            if path not in files:
                files.append(path)
    return found


def checks_in_source(path: Path) -> list[str]:
    """The check ids ``path``'s tests name; :class:`ConfigError` when it does not parse."""
    try:
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: the verifier test does not parse ({exc})") from None
    ids: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            ids.extend(_marked(decorator) for decorator in node.decorator_list)
        elif isinstance(node, ast.Assign) and _names_pytestmark(node):
            values = (
                node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            )
            ids.extend(_marked(value) for value in values)
    return [check for check in ids if check]


def _names_pytestmark(node: ast.Assign) -> bool:
    return any(
        isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
    )


def _marked(node: ast.expr) -> str:
    """The id of a ``pytest.mark.check("ID")`` / ``mark.check("ID")`` call, else ``""``."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return ""
    if node.func.attr != MARK or not _is_mark(node.func.value):
        return ""
    if len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else ""
    return ""


def _is_mark(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "mark"
    return isinstance(node, ast.Name) and node.id == "mark"


def process_starts_in_verify(verify: Path) -> list[str]:
    """``FILE:LINE: what`` for each way to start a process outside the door, over
    ``verify/**/*.py``."""
    found: list[str] = []
    for path in sorted(verify.rglob("*.py")):
        found.extend(f"{path}:{line}: {what}" for line, what in process_starts(path))
    return found


def process_starts(path: Path) -> list[tuple[int, str]]:
    """``(line, what)`` for each process start in ``path`` that bypasses the verifier's door."""
    try:
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: the verifier file does not parse ({exc})") from None
    found = []
    for node in ast.walk(tree):
        what = _process_start(node)
        if what:
            found.append((getattr(node, "lineno", 0), what))
    return found


def _process_start(node: ast.AST) -> str:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return next((f"import {n}" for n in names if _process_module(n)), "")
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        names = [alias.name for alias in node.names]
        if _process_module(module):
            return f"from {module} import ..."
        if PROCESS_POOL in names:
            return f"from {module} import {PROCESS_POOL}"
        if module == "os":
            return next((f"from os import {n}" for n in names if _os_process_call(n)), "")
        return ""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "os" and _os_process_call(node.attr):
            return f"os.{node.attr}"
        if node.attr == PROCESS_POOL:
            return f"{node.value.id}.{PROCESS_POOL}"
        if node.value.id == "asyncio" and node.attr in ASYNC_PROCESS_CALLS:
            return f"asyncio.{node.attr}"
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        name = node.args[0].value
        if isinstance(name, str) and _process_module(name) and _is_importer(node.func):
            return f"import of {name!r} by name"
    return ""


def _process_module(name: str) -> bool:
    return any(name == module or name.startswith(f"{module}.") for module in PROCESS_MODULES)


def _os_process_call(name: str) -> bool:
    return name in OS_PROCESS_CALLS or name.startswith(("exec", "spawn"))


def _is_importer(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in {"__import__", "import_module"}
    return isinstance(func, ast.Attribute) and func.attr == "import_module"
