"""Data preparation: once, checksummed, atomic, re-prepared when broken, skipped when impossible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.data import check_prepared, prepare_competition, prepared_paths
from pytest_mlebench.errors import DataNotPrepared, PrepareError
from pytest_mlebench.registry import Competition, load_competition
from tests.factories import toy_config, write_competition


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Competition:
    monkeypatch.setenv("TOY_PREPARE_COUNTER", str(tmp_path / "calls.txt"))
    folder = write_competition(tmp_path / "defs", "toy")
    return load_competition(folder / "config.yaml")


def calls(tmp_path: Path) -> int:
    path = tmp_path / "calls.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_prepare_writes_public_private_and_manifest(toy: Competition, tmp_path: Path) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    assert sorted(p.name for p in paths.public.iterdir()) == [
        "description.md",
        "sample_submission.csv",
        "test.csv",
        "train.csv",
    ]
    assert paths.answers.is_file()
    manifest = json.loads(paths.manifest.read_text())
    assert set(manifest["files"]) == {
        "public/description.md",
        "public/sample_submission.csv",
        "public/test.csv",
        "public/train.csv",
        "private/answers.csv",
    }
    assert check_prepared(toy, paths) is None


def test_second_prepare_is_a_no_op(toy: Competition, tmp_path: Path) -> None:
    first = prepare_competition(toy, tmp_path / "data")
    before = first.manifest.read_text()
    prepare_competition(toy, tmp_path / "data")
    assert calls(tmp_path) == 1
    assert first.manifest.read_text() == before


def test_forced_prepare_gives_identical_checksums(toy: Competition, tmp_path: Path) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    files = json.loads(paths.manifest.read_text())["files"]
    prepare_competition(toy, tmp_path / "data", force=True)
    assert calls(tmp_path) == 2
    assert json.loads(paths.manifest.read_text())["files"] == files


def add_file(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x89PNG")


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda p: (p.public / "train.csv").write_text("id,x,label\n"), "does not match"),
        (lambda p: (p.public / "train.csv").unlink(), "added or removed"),
        (lambda p: (p.public / "extra.csv").write_text("x\n"), "added or removed"),
        (lambda p: add_file(p.public / "images" / "deep" / "x.png"), "added or removed"),
        (lambda p: (p.public / "link.csv").symlink_to(p.answers), "added or removed"),
        (lambda p: p.manifest.unlink(), "not prepared"),
        (lambda p: p.manifest.write_text("{not json"), "unreadable"),
    ],
)
def test_damaged_data_is_detected_and_prepared_again(
    toy: Competition, tmp_path: Path, damage, problem: str
) -> None:
    paths = prepare_competition(toy, tmp_path / "data")
    (paths.public / "train.csv").chmod(0o644)
    damage(paths)
    assert problem in (check_prepared(toy, paths) or "")
    messages: list[str] = []
    prepare_competition(toy, tmp_path / "data", progress=messages.append)
    assert calls(tmp_path) == 2
    assert check_prepared(toy, paths) is None


def test_changed_definition_prepares_again(toy: Competition, tmp_path: Path) -> None:
    prepare_competition(toy, tmp_path / "data")
    (toy.description_path).write_text("# toy\n\nNew text.\n")
    prepare_competition(toy, tmp_path / "data")
    assert calls(tmp_path) == 2


def test_failed_prepare_leaves_nothing_that_looks_prepared(tmp_path: Path) -> None:
    folder = write_competition(
        tmp_path / "defs",
        "toy",
        prepare="def prepare(raw, public, private):\n"
        "    (public / 'half.csv').write_text('a')\n    raise RuntimeError('disk full')\n",
    )
    comp = load_competition(folder / "config.yaml")
    with pytest.raises(PrepareError, match="disk full"):
        prepare_competition(comp, tmp_path / "data")
    paths = prepared_paths(comp, tmp_path / "data")
    assert not paths.public.exists()
    assert list((tmp_path / "data" / "toy").glob("prepared*")) == []


def test_prepare_must_write_answers(tmp_path: Path) -> None:
    folder = write_competition(
        tmp_path / "defs",
        "toy",
        prepare="def prepare(raw, public, private):\n"
        "    (public / 'sample_submission.csv').write_text('id,label\\n')\n",
    )
    comp = load_competition(folder / "config.yaml")
    with pytest.raises(PrepareError, match="answers.csv"):
        prepare_competition(comp, tmp_path / "data")


def test_missing_source_package_names_the_command(tmp_path: Path) -> None:
    config = toy_config("toy", requires=["no_such_module_for_mlebench"])
    folder = write_competition(tmp_path / "defs", "toy", config=config)
    comp = load_competition(folder / "config.yaml")
    with pytest.raises(DataNotPrepared) as info:
        prepare_competition(comp, tmp_path / "data")
    assert info.value.command == f"mlebench prepare -c toy --data-dir {tmp_path / 'data'}"
    assert "no_such_module_for_mlebench" in str(info.value)


def test_kaggle_competition_is_not_downloaded_by_fixtures(tmp_path: Path) -> None:
    folder = write_competition(tmp_path / "defs", "toy", config=toy_config("toy", source="kaggle"))
    comp = load_competition(folder / "config.yaml")
    with pytest.raises(DataNotPrepared, match="Kaggle data is not downloaded"):
        prepare_competition(comp, tmp_path / "data")


def test_missing_system_data_path_is_a_skip_with_the_hint(tmp_path: Path) -> None:
    config = toy_config("toy", requires=[str(tmp_path / "no-such-debian-dataset")])
    folder = write_competition(tmp_path / "defs", "toy", config=config)
    comp = load_competition(folder / "config.yaml")
    with pytest.raises(DataNotPrepared, match="no-such-debian-dataset.*apt-get install"):
        prepare_competition(comp, tmp_path / "data")


def test_a_linked_folder_is_not_entered_and_its_manifest_names_are_kept_out(
    toy: Competition, tmp_path: Path
) -> None:
    """As a ``Path.rglob`` listing: a link to a folder is not a prepared file (its files are
    not the data's), and no file named ``manifest.json`` is counted, at any depth."""
    paths = prepare_competition(toy, tmp_path / "data")
    elsewhere = tmp_path / "elsewhere"
    add_file(elsewhere / "inside.png")
    (paths.public / "linked").symlink_to(elsewhere)
    (paths.private / "manifest.json").write_text("{}")
    assert check_prepared(toy, paths) is None
