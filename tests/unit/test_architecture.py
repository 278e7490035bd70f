"""The layer map of docs/architecture.md holds in the code: no import cycle, no import upward.

The map is read from the document's layer table, so the picture and the check cannot drift: a new
module must be placed in the table before this test passes. Every import counts (module level,
inside functions and under ``TYPE_CHECKING``) because each one is a dependency a reader must hold
in their head. Implicit imports of parent packages do not count (a package's ``__init__``
importing its own submodules is not a cycle).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "pytest_mlebench"
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = "pytest_mlebench"
# Top-level folders mapped into the package namespace by links (pyproject's wheel targets).
MAPPED = ("graders", "competitions", "fixtures")
MAX_ENGINE_LINES = 400


@dataclass(frozen=True)
class Layer:
    number: int
    name: str
    patterns: tuple[str, ...]


def read_layers(text: str) -> list[Layer]:
    """Rows of the layer table: ``| 3 | features | `agents/`, `integrity/` |``."""
    layers = []
    for line in text.splitlines():
        match = re.match(r"^\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|(.+)\|\s*$", line)
        if match:
            patterns = tuple(re.findall(r"`([^`]+)`", match.group(3)))
            layers.append(Layer(int(match.group(1)), match.group(2), patterns))
    return layers


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)  # "" is the root package


def engine_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(ENGINE.rglob("*.py")):
        relative = path.relative_to(ENGINE)
        if relative.parts[0] in MAPPED:
            continue
        modules[module_name(path)] = path
    return modules


def layer_of(module: str, layers: list[Layer]) -> Layer | None:
    """The layer whose most specific pattern covers the module (``sandbox/`` covers a package)."""
    module = module or "__init__"  # the root package's own __init__.py
    best: tuple[int, Layer] | None = None
    for layer in layers:
        for pattern in layer.patterns:
            if pattern.endswith("/"):
                prefix = pattern.rstrip("/").replace("/", ".")
                covers = module == prefix or module.startswith(prefix + ".")
                weight = len(prefix) + 1
            else:
                covers = module == pattern.replace("/", ".")
                weight = 10_000
            if covers and (best is None or weight > best[0]):
                best = (weight, layer)
    return best[1] if best else None


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The engine module (or mapped package) that an absolute import name lands in."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    inner = name[len(PACKAGE) + 1 :]
    head = inner.split(".")[0]
    if head in MAPPED:
        return head
    while inner not in modules:
        if "." not in inner:
            return "" if "" in modules else None
        inner = inner.rsplit(".", 1)[0]
    return inner


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = [PACKAGE, *package.split(".")] if package else [PACKAGE]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from pkg import sub` imports the submodule when there is one, else pkg itself.
            names = [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            target = resolve(name, modules)
            if target is not None and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = engine_modules()
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def shown(module: str) -> str:
    return f"{PACKAGE}.{module}" if module else PACKAGE


@pytest.fixture(scope="module")
def layers() -> list[Layer]:
    found = read_layers(DOC.read_text())
    assert found, f"{DOC} has no layer table"
    return found


def test_every_engine_module_has_a_layer(layers: list[Layer]) -> None:
    unplaced = [shown(m) for m in engine_modules() if layer_of(m, layers) is None]
    assert not unplaced, (
        f"place these modules in the layer table of docs/architecture.md: {unplaced}"
    )


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(map(shown, c)) for c in found)


def test_no_import_from_a_layer_above(layers: list[Layer]) -> None:
    upward = []
    for module, targets in sorted(import_graph().items()):
        own = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if own and theirs and theirs.number > own.number:
                upward.append(
                    f"{shown(module)} ({own.number} {own.name}) imports {shown(target)}"
                    f" ({theirs.number} {theirs.name})"
                )
    assert not upward, "imports from a layer above:\n" + "\n".join(upward)


def _outside_graders(name: str) -> bool:
    """An import of pytest or of the engine; graders import themselves through the engine's name."""
    head, _, rest = name.partition(".")
    return head == "pytest" or (head == PACKAGE and rest.split(".")[0] != "graders")


def test_graders_stay_pure() -> None:
    offenders = []
    for path in sorted((ROOT / "graders").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(_outside_graders(n) for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"graders/ must not import pytest or {PACKAGE}: {sorted(set(offenders))}"


def test_engine_modules_stay_small() -> None:
    large = {
        shown(m): n
        for m, path in engine_modules().items()
        if (n := len(path.read_text().splitlines())) > MAX_ENGINE_LINES
    }
    assert not large, f"split these modules by concern (over {MAX_ENGINE_LINES} lines): {large}"


def test_engine_module_names_are_unique() -> None:
    """One module per name: ``base.py`` in three packages made every import line ambiguous."""
    seen: dict[str, list[str]] = {}
    for module, path in engine_modules().items():
        if path.name in ("__init__.py", "__main__.py") or "scripts" in path.parts:
            continue  # agent scripts run inside the sandbox, outside the engine's namespace
        seen.setdefault(path.name, []).append(shown(module))
    reused = {name: found for name, found in seen.items() if len(found) > 1}
    assert not reused, f"give these modules names of their own: {reused}"


def test_the_checker_sees_a_cycle_and_an_upward_import() -> None:
    """The checks themselves can fail: a hand-made graph with one cycle and one upward edge."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    layers = read_layers("| 0 | low | `a`, `b`, `c` |\n| 1 | high | `d`, `x/` |")
    assert layer_of("x.y", layers) == layers[1]
    assert layer_of("a", layers) == layers[0]
    assert layer_of("z", layers) is None
