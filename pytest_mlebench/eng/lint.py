"""Which check ids the hidden ``verify/`` tests of a task name, read from source, never run.

A verifier test names its check with ``@pytest.mark.check("ID")`` (on a function or a class) or a
module-level ``pytestmark = pytest.mark.check("ID")``. :func:`checks_in_verify` finds them with
:mod:`ast` in every ``test_*.py`` of the folder, so the task loader can hold ``config.yaml`` and the
tests to each other at session start without importing a line of the verifier.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pytest_mlebench.errors import ConfigError

MARK = "check"


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
