"""Code imports the graders, fixtures and competitions only through the ``pytest_mlebench`` name.

In a checkout the top-level folders are importable under their bare names too; an import by the
bare name would load a second copy of the module (distinct exception classes, distinct caches) and
would break in an installed wheel, where only ``pytest_mlebench`` exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_FOLDERS = ("pytest_mlebench", "graders", "fixtures", "competitions", "tests", "tools", "bench")
BARE_IMPORT = re.compile(
    r"^\s*(?:from\s+(?:graders|fixtures|competitions)[\s.]|import\s+(?:graders|fixtures|competitions)\b)"
    r"|[\"'](?:graders|fixtures)\.[a-z_]+[\"']",
    re.MULTILINE,
)


def python_files() -> list[Path]:
    files: list[Path] = []
    for folder in CODE_FOLDERS:
        root = ROOT / folder
        if root.is_symlink():
            continue
        files.extend(root.rglob("*.py"))
    files.extend(ROOT.glob("*.py"))  # top-level modules, if any
    return files


def test_no_code_imports_a_bare_top_level_folder() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in python_files()
        if path != Path(__file__).resolve()
        for match in BARE_IMPORT.finditer(path.read_text("utf-8"))
    ]
    assert not offenders, "import these through pytest_mlebench: " + "; ".join(offenders)


def test_checkout_links_point_at_the_top_level_folders() -> None:
    for name in ("graders", "fixtures", "competitions"):
        link = ROOT / "pytest_mlebench" / name
        assert link.is_symlink() and link.resolve() == (ROOT / name).resolve(), name
