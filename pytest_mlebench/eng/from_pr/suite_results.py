"""Which files are tests, and each test's outcome from pytest's junit XML (stdlib only).

Shared by the generator (on the host) and by the verifier of every task it writes (copied there
as ``verify/_suite_results.py``), so both sides read a suite's results the same way. Nothing of
pytest-mlebench is imported here: the file must also run inside the task's image.

The XML is written with ``-o junit_family=xunit1``, whose ``<testcase>`` carries the test's
``file``; the pytest node id is rebuilt from ``file``, ``classname`` and ``name``. A collection
error is a test case with an empty ``classname`` (its ``name`` is the dotted module path).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import PurePosixPath

PASSED, FAILED, ERROR, SKIPPED = "passed", "failed", "error", "skipped"
# -p no:mlebench: a repository's suite never runs with this project's own pytest plugin loaded.
PYTEST_OPTIONS = ("-p", "no:cacheprovider", "-p", "no:mlebench", "-o", "junit_family=xunit1",
                  "-q", "--continue-on-collection-errors")  # fmt: skip
REQUIREMENT_FILES = ("requirements.txt", "requirements-dev.txt", "requirements-test.txt")
TEST_DIRS = frozenset({"tests", "test", "testing"})


# Folders pytest never collects from (its default ``norecursedirs``, plus installed packages): an
# agent's ``.venv`` or ``build/`` holds other projects' tests, not this repository's.
UNCOLLECTED = frozenset({"venv", "node_modules", "build", "dist", "site-packages", "__pycache__",
                         "_darcs", "CVS", "{arch}"})  # fmt: skip


def collected_folder(part: str) -> bool:
    """Whether pytest would look into a folder of this name."""
    return not (part.startswith(".") or part.endswith(".egg") or part in UNCOLLECTED)


def is_test_path(path: str) -> bool:
    """A test file or test helper: under a ``tests``/``test`` folder, ``test_*.py``,
    ``*_test.py`` or any ``conftest.py``."""
    parts = PurePosixPath(path).parts
    name = parts[-1] if parts else ""
    if any(part in TEST_DIRS for part in parts[:-1]):
        return True
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


def node_id(file: str, classname: str, name: str) -> str:
    """The pytest node id of a junit test case (``tests/test_x.py::TestA::test_b[1]``)."""
    module = file[:-3].replace("/", ".") if file.endswith(".py") else file.replace("/", ".")
    classes = classname[len(module) + 1 :].split(".") if classname.startswith(module + ".") else []
    return "::".join([file, *[part for part in classes if part], name])


def read_junit(text: str) -> tuple[dict[str, str], list[str]]:
    """``(outcomes, collection_errors)``: node id → passed/failed/error/skipped, and the dotted
    module paths that failed to collect."""
    outcomes: dict[str, str] = {}
    broken: list[str] = []
    for case in ElementTree.fromstring(text).iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        children = {child.tag for child in case}
        if not classname:
            broken.append(name)
            continue
        state = PASSED
        if "failure" in children:
            state = FAILED
        elif "error" in children:
            state = ERROR
        elif "skipped" in children:
            state = SKIPPED
        test = node_id(case.get("file") or _file_of(classname), classname, name)
        if outcomes.get(test, PASSED) == PASSED:  # a teardown error adds a second report
            outcomes[test] = state
    return outcomes, broken


def _file_of(classname: str) -> str:
    return classname.replace(".", "/") + ".py"


def module_of(test: str) -> str:
    """The dotted module path of a node id, as a collection error names it."""
    file = test.split("::", 1)[0]
    return file[:-3].replace("/", ".") if file.endswith(".py") else file
