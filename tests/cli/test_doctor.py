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
        "llm gateway",
        "llm prices",
    }
    assert "1 visible: GPU 0: NVIDIA H200" in table["gpus"]
    assert "agent dummy calls no LLM provider" in table["llm gateway"]


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


LLM_AGENT = """
llm:
  start: start.sh
  kwargs: {model: MODEL}
  env_vars:
    OPENAI_API_KEY: ${{ secrets.DOCTOR_TEST_KEY }}
"""


def llm_agent(root: Path, model: str = "gpt-4o") -> str:
    folder = root / "llm-agent"
    folder.mkdir(exist_ok=True)
    (folder / "config.yaml").write_text(LLM_AGENT.replace("MODEL", model))
    (folder / "start.sh").write_text("true\n")
    return str(folder)


def test_a_missing_provider_secret_fails_the_gateway_line_with_the_export(
    machine: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("DOCTOR_TEST_KEY", raising=False)
    code, table = run(capsys, *machine, "--agent", llm_agent(tmp_path))
    assert code == 1
    row = table["llm gateway"]
    assert row.startswith("FAIL") and "openai (https://api.openai.com/v1)" in row
    assert "export DOCTOR_TEST_KEY=..." in row
    monkeypatch.setenv("DOCTOR_TEST_KEY", "sk-doctor")
    code, table = run(capsys, *machine, "--agent", llm_agent(tmp_path))
    assert code == 0
    assert (
        table["llm gateway"].startswith("ok") and "secrets set on the host" in table["llm gateway"]
    )
    assert "sk-doctor" not in table["llm gateway"]
    assert table["llm prices"].startswith("ok") and "prices gpt-4o" in table["llm prices"]


def test_a_model_missing_from_the_price_table_warns_with_the_override(
    machine: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DOCTOR_TEST_KEY", "sk-doctor")
    agent = llm_agent(tmp_path, model="my-llama")
    code, table = run(capsys, *machine, "--agent", agent)
    assert code == 0
    row = table["llm prices"]
    assert row.startswith("warn") and "not priced: my-llama" in row
    assert "--mle-price-table FILE" in row
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  my-llama: {input: 1, output: 2}\n")
    code, table = run(capsys, *machine, "--agent", agent, "--price-table", str(prices))
    assert table["llm prices"].startswith("ok") and "prices my-llama" in table["llm prices"]


def test_a_broken_price_table_fails_naming_the_file(
    machine: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  gpt-x: {input: cheap}\n")
    code, table = run(capsys, *machine, "--price-table", str(prices))
    assert code == 1
    assert table["llm prices"].startswith("FAIL") and str(prices) in table["llm prices"]


def test_an_agent_that_cannot_load_fails_the_gateway_line(
    machine: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, table = run(capsys, *machine, "--agent", "nobody")
    assert code == 1
    assert "unknown agent 'nobody'" in table["llm gateway"]
