"""The prepared-data check is cheap by default (sizes and times) and thorough on demand."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_mlebench import data
from pytest_mlebench.data import check_prepared, prepare_competition
from pytest_mlebench.registry import Competition, load_competition
from tests.factories import write_competition


@pytest.fixture
def toy(tmp_path: Path) -> Competition:
    folder = write_competition(tmp_path / "defs", "toy")
    return load_competition(folder / "config.yaml")


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    real = data.sha256_file

    def counting(path: Path) -> str:
        names.append(path.name)
        return real(path)

    monkeypatch.setattr(data, "sha256_file", counting)
    return names


def test_an_unchanged_folder_is_checked_without_reading_a_file(
    toy: Competition, tmp_path: Path, hashed: list[str]
) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    hashed.clear()
    assert check_prepared(toy, paths) is None
    assert hashed == []


def test_verify_hashes_every_file(toy: Competition, tmp_path: Path, hashed: list[str]) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    hashed.clear()
    assert check_prepared(toy, paths, verify=True) is None
    assert len(hashed) == 5


def test_same_size_new_content_is_caught_by_its_new_time(toy: Competition, tmp_path: Path) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    train = paths.public / "train.csv"
    train.chmod(0o644)
    train.write_bytes(train.read_bytes().replace(b"r000", b"r999"))
    assert "public/train.csv does not match" in (check_prepared(toy, paths) or "")


def test_same_size_and_time_is_caught_only_by_verify(toy: Competition, tmp_path: Path) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    train = paths.public / "train.csv"
    train.chmod(0o644)
    status = train.stat()
    train.write_bytes(train.read_bytes().replace(b"r000", b"r999"))
    os.utime(train, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert check_prepared(toy, paths) is None
    assert "does not match" in (check_prepared(toy, paths, verify=True) or "")


def test_a_touched_file_is_hashed_once_then_its_time_recorded(
    toy: Competition, tmp_path: Path, hashed: list[str]
) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    os.utime(paths.public / "test.csv", ns=(1, 1_000_000_000))
    hashed.clear()
    prepare_competition(toy, tmp_path / "data")
    assert hashed == ["test.csv"]
    hashed.clear()
    prepare_competition(toy, tmp_path / "data")
    assert hashed == []


def test_an_old_manifest_without_times_is_accepted_and_upgraded(
    toy: Competition, tmp_path: Path, hashed: list[str]
) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    manifest = json.loads(paths.manifest.read_text())
    del manifest["mtime_ns"]
    manifest["version"] = 1
    paths.manifest.write_text(json.dumps(manifest))
    hashed.clear()
    assert check_prepared(toy, paths) is None
    assert len(hashed) == 5
    prepare_competition(toy, tmp_path / "data")
    assert "mtime_ns" in json.loads(paths.manifest.read_text())
    hashed.clear()
    assert check_prepared(toy, paths) is None
    assert hashed == []
