"""``mlebench doctor``: one table; every failing line names its fix; exit 1 on any FAIL."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench import doctor
from pytest_mlebench.cli import main
from pytest_mlebench.kaggle import client, plan
from tests.factories import hide_package
from tests.kaggle.fakes import FakeKaggleApi, write_kaggle_competitions

REAL_CLIENT_INSTALLED = client.client_installed
REAL_CLIENT_VERSION = client.client_version


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A healthy machine: credentials, client, Docker, image, one GPU, plenty of disk."""
    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "kaggle-config"
    config.mkdir()
    (config / "kaggle.json").write_text('{"username": "u", "key": "k"}')
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(config))
    monkeypatch.setattr(client, "client_installed", lambda: True)
    monkeypatch.setattr(client, "client_version", lambda: "2.2.5")
    monkeypatch.setattr(client, "new_api", lambda: FakeKaggleApi({}))
    monkeypatch.setattr(
        "pytest_mlebench.sandbox.docker_status", lambda: (True, "Docker engine 27.0 at unix://x")
    )
    monkeypatch.setattr(doctor, "check_image", lambda: doctor.Check("sandbox image", "ok", "tag"))
    monkeypatch.setattr(doctor.shutil, "which", lambda _name: "/usr/bin/nvidia-smi")
    monkeypatch.setattr(doctor.subprocess, "run", _fake_nvidia_smi)
    monkeypatch.setattr(plan, "free_bytes", lambda _folder: 10**13)
    write_kaggle_competitions(tmp_path / "defs", ["comp-a", "comp-b"])
    return ["--competitions-dir", str(tmp_path / "defs"), "--data-dir", str(tmp_path / "data")]


class _Done:
    stdout = "GPU 0: NVIDIA H200 (UUID: GPU-1)\n"


def _fake_nvidia_smi(*_args: object, **_kwargs: object) -> _Done:
    return _Done()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, str]]:
    code = main(["doctor", *argv])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["check", "status", "detail"]
    table = {}
    for line, following in zip(lines[1:], [*lines[2:], ""], strict=True):
        if line.lstrip().startswith("fix:"):
            continue
        name = line[: lines[0].index("status")].strip()
        fix = following.strip() if following.lstrip().startswith("fix:") else ""
        table[name] = line[lines[0].index("status") :] + (" | " + fix if fix else "")
    return code, table


def test_a_healthy_machine_is_all_ok(
    machine: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, table = run(capsys, *machine, "--split", "batch")
    assert code == 0
    assert all(row.startswith("ok") for row in table.values()), table
    assert set(table) == {
        "kaggle client",
        "kaggle credentials",
        "disk",
        "docker engine",
        "sandbox image",
        "gpus",
    }
    assert "1 visible: GPU 0: NVIDIA H200" in table["gpus"]


def test_missing_credentials_fail_for_a_selection_and_name_kaggle_json(
    machine: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "kaggle-config" / "kaggle.json").unlink()
    code, table = run(capsys, *machine, "--split", "batch")
    assert code == 1
    row = table["kaggle credentials"]
    assert row.startswith("FAIL")
    assert "kaggle.json" in row and "KAGGLE_USERNAME and KAGGLE_KEY" in row


def test_without_a_selection_missing_kaggle_bits_only_warn(
    machine: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "kaggle-config" / "kaggle.json").unlink()
    hide_package(monkeypatch, "kaggle")
    monkeypatch.setattr(client, "client_installed", REAL_CLIENT_INSTALLED)
    monkeypatch.setattr(client, "client_version", REAL_CLIENT_VERSION)
    code, table = run(capsys, *machine)
    assert code == 0
    assert table["kaggle client"].startswith("warn")
    assert "pip install 'pytest-mlebench[kaggle]'" in table["kaggle client"]
    assert table["kaggle credentials"].startswith("warn")


def test_no_docker_fails_with_how_to_start_it_and_skips_the_image(
    machine: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        "pytest_mlebench.sandbox.docker_status", lambda: (False, "no Docker engine answers")
    )
    code, table = run(capsys, *machine)
    assert code == 1
    assert table["docker engine"].startswith("FAIL")
    assert "start the Docker engine" in table["docker engine"]
    assert "sandbox image" not in table


def test_too_little_disk_fails_with_the_numbers_and_the_fix(
    machine: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(plan, "free_bytes", lambda _folder: 5 * 10**9)
    code, table = run(capsys, *machine, "--lite")
    assert code == 1
    row = table["disk"]
    assert row.startswith("FAIL") and "5.0 GB free" in row
    assert "about 274.0 GB needed (estimated: sizes from a built-in table)" in row
    assert "choose another --data-dir" in row


def test_rules_not_accepted_are_listed_with_their_pages(
    machine: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    api = FakeKaggleApi({}, entered={"comp-a": True, "comp-b": False})
    monkeypatch.setattr(client, "new_api", lambda: api)
    code, table = run(capsys, *machine, "--split", "batch")
    assert code == 1
    row = table["kaggle rules"]
    assert row.startswith("FAIL") and "not accepted for 1 of 2" in row
    assert "https://www.kaggle.com/competitions/comp-b/rules" in row


def test_rules_are_skipped_quietly_when_kaggle_cannot_tell(
    machine: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, table = run(capsys, *machine, "--split", "batch")
    assert code == 0 and "kaggle rules" not in table


def test_no_gpu_is_a_warning_with_the_driver_hint(
    machine: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(doctor.shutil, "which", lambda _name: None)
    code, table = run(capsys, *machine)
    assert code == 0
    assert table["gpus"].startswith("warn") and "NVIDIA driver" in table["gpus"]


def test_an_image_not_built_is_a_warning_naming_the_build_command(
    machine: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        doctor,
        "check_image",
        lambda: doctor.Check("sandbox image", "warn", "x is not built", doctor.IMAGE_FIX),
    )
    code, table = run(capsys, *machine)
    assert code == 0 and "mlebench sandbox build" in table["sandbox image"]
