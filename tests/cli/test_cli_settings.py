"""The ``mlebench`` command's shared options resolve through the settings table, like pytest's.

``--data-dir``, ``--competitions-dir`` and ``report --max-drop`` are the ``--mle-*`` settings of
the same names: the same environment variables, the same precedence (CLI > env > default; the CLI
has no ini file) and the same error message for a bad value (exit status 2, bad usage).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.errors import SettingError
from pytest_mlebench.records.run_record import append_record
from pytest_mlebench.settings import SETTINGS, resolve_settings
from tests.factories import write_competition
from tests.report.builders import record


@pytest.fixture
def toys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for entry in SETTINGS:
        monkeypatch.delenv(entry.env, raising=False)
    monkeypatch.chdir(tmp_path)
    write_competition(tmp_path / "defs", "toy", splits={"toys": ["toy"]})
    (tmp_path / "a-file").write_text("not a folder")
    for name, score in (("base.jsonl", 0.95), ("new.jsonl", 0.1)):
        append_record(tmp_path / name, record("alpha", 0, score))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_data_dir_from_the_environment(
    toys: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MLEBENCH_DATA_DIR", str(toys / "env-data"))
    code, out, _ = run(capsys, "prepare", "--competitions-dir", "defs", "--split", "toys")
    assert code == 0
    assert f"1 of 1 prepared in {toys / 'env-data'}" in out
    assert (toys / "env-data" / "toy" / "prepared" / "public").is_dir()


def test_the_data_dir_option_wins_over_the_environment(
    toys: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MLEBENCH_DATA_DIR", str(toys / "env-data"))
    argv = ("prepare", "--competitions-dir", "defs", "-c", "toy", "--data-dir", "cli-data")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and f"prepared in {toys / 'cli-data'}" in out
    assert not (toys / "env-data").exists()


def test_competition_folders_from_the_environment(
    toys: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--split", "toys")
    assert code == 1 and not out  # the toy split is not known without its folder
    monkeypatch.setenv("MLEBENCH_COMPETITIONS_DIRS", str(toys / "defs"))
    code, out, _ = run(capsys, "list", "--split", "toys")
    assert code == 0 and out.splitlines()[1].split()[0] == "toy"


def test_max_drop_from_the_environment(
    toys: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = ("report", "--compare", "base.jsonl", "new.jsonl")
    assert run(capsys, *compare)[0] == 1
    monkeypatch.setenv("MLEBENCH_MAX_DROP", "100")
    assert run(capsys, *compare)[0] == 0
    assert run(capsys, *compare, "--max-drop", "0")[0] == 1


BAD = [
    pytest.param(("list",), "competitions-dir", "missing", id="competitions-dir"),
    pytest.param(
        ("prepare", "--competitions-dir", "defs", "--all"), "data-dir", "a-file", id="data"
    ),
    pytest.param(("report", "--compare", "base.jsonl", "new.jsonl"), "max-drop", "-1", id="drop"),
]


@pytest.mark.parametrize(("command", "name", "bad"), BAD)
def test_a_bad_environment_value_reads_as_in_pytest(
    toys: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pytester: pytest.Pytester,
    command: tuple[str, ...],
    name: str,
    bad: str,
) -> None:
    monkeypatch.chdir(toys)  # pytester moved elsewhere
    entry = next(entry for entry in SETTINGS if entry.name == name)
    monkeypatch.setenv(entry.env, bad)
    code, _, err = run(capsys, *command)
    assert code == 2
    with pytest.raises(SettingError) as in_pytest:
        resolve_settings(pytester.parseconfig())
    assert err == f"mlebench: error: {in_pytest.value}\n"
    assert f"invalid {name} " in err and f"from environment variable {entry.env}: " in err


@pytest.mark.parametrize(("command", "name", "bad"), BAD)
def test_a_bad_option_value_names_the_option(
    toys: Path,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
    name: str,
    bad: str,
) -> None:
    code, _, err = run(capsys, *command, f"--{name}", bad)
    assert code == 2
    shown = [bad] if name == "competitions-dir" else bad
    assert err.startswith(f"mlebench: error: invalid {name} {shown!r} from option --{name}: ")


def test_help_shows_the_environment_variables(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["prepare", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "[env MLEBENCH_DATA_DIR]" in out and "[env MLEBENCH_COMPETITIONS_DIRS]" in out
