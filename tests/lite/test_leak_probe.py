"""The leak probe catches a prepare that leaks through ids or file names.

Deliberately leaky copies of real Lite prepares run through the same harness as the real ones:
numbering test ids by the raw file's (author-grouped) row order, naming rows by their label, and
keeping a clip's ``_1``/``_0`` label suffix in a test file name. The probe must score past the
midpoint on each, and stay below it on the real prepare.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_mlebench.definition import load_competition
from tests.lite.harness import is_better, leak_probe, perfect, prepare_from_shape, score
from tests.lite.shapes import load_shapes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "spooky-author-identification"
SPLIT_LINE = "    train, test = train_test_split("
WHALE = "the-icml-2013-whale-challenge-right-whale-redux"
WHALE_TEST_NAME = 'Test{index}.aif"'
LEAKS = {
    "ids in raw order": '    source["id"] = [f"id{i:05d}" for i in range(len(source))]\n',
    "label in the id": '    source["id"] = source["author"] + source["id"]\n',
}


def _probe_gap(folder: Path, root: Path) -> tuple[float, float, bool]:
    competition = load_competition(folder)
    prepared = prepare_from_shape(competition, load_shapes()[folder.name], root)
    baseline = score(prepared, prepared.read_sample(), root / "sample.csv").score
    best = score(prepared, perfect(prepared), root / "perfect.csv").score
    probe = score(prepared, leak_probe(prepared), root / "probe.csv").score
    assert baseline is not None and best is not None and probe is not None
    middle = (baseline + best) / 2
    return probe, middle, is_better(probe, middle, competition.lower_is_better)


def test_the_real_prepare_does_not_leak(tmp_path: Path) -> None:
    _, _, leaked = _probe_gap(ROOT / "competitions" / EXAMPLE, tmp_path)
    assert not leaked


@pytest.mark.parametrize("leak", sorted(LEAKS))
def test_a_leaky_prepare_is_caught(leak: str, tmp_path: Path) -> None:
    folder = tmp_path / EXAMPLE
    shutil.copytree(ROOT / "competitions" / EXAMPLE, folder)
    prepare = folder / "prepare.py"
    text = prepare.read_text("utf-8")
    assert SPLIT_LINE in text
    prepare.write_text(text.replace(SPLIT_LINE, LEAKS[leak] + SPLIT_LINE, 1), "utf-8")
    probe, middle, leaked = _probe_gap(folder, tmp_path / "run")
    assert leaked, f"{leak}: probe {probe:.4g} did not pass the midpoint {middle:.4g}"


def test_a_label_digit_in_a_test_file_name_is_caught(tmp_path: Path) -> None:
    folder = tmp_path / WHALE
    shutil.copytree(ROOT / "competitions" / WHALE, folder)
    prepare = folder / "prepare.py"
    text = prepare.read_text("utf-8")
    assert text.count(WHALE_TEST_NAME) == 1
    leaky = "Test{index}_{match['label']}.aif\""
    prepare.write_text(text.replace(WHALE_TEST_NAME, leaky), "utf-8")
    probe, middle, leaked = _probe_gap(folder, tmp_path / "run")
    assert leaked, f"label suffix: probe {probe:.4g} did not pass the midpoint {middle:.4g}"
