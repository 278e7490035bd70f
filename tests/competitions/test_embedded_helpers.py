"""The prepare-time helpers of ``pytest_mlebench.embedded``: checks, ids, splits and writers."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench import embedded
from pytest_mlebench.errors import PrepareError


def _bundled(path: Path, sha256: str) -> embedded.BundledFile:
    return embedded.BundledFile(
        distribution="example-data",
        relative_path=str(path),
        sha256=sha256,
        version="1.2.3",
        install="pip install example-data==1.2.3",
    )


def test_locate_returns_a_file_with_the_expected_checksum(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(b"a,b\n1,2\n")
    digest = hashlib.sha256(b"a,b\n1,2\n").hexdigest()
    assert _bundled(path, digest).locate() == path


def test_a_different_file_names_the_expected_version(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(b"changed\n")
    with pytest.raises(PrepareError, match=r"example-data==1\.2\.3.*pip install example-data"):
        _bundled(path, "0" * 64).locate()


def test_a_missing_file_says_what_to_install(tmp_path: Path) -> None:
    with pytest.raises(PrepareError, match="not found.*pip install example-data==1.2.3"):
        _bundled(tmp_path / "absent.csv", "0" * 64).locate()


def test_a_missing_distribution_says_what_to_install() -> None:
    source = embedded.BundledFile(
        distribution="surely-not-installed-xyz",
        relative_path="pkg/data.csv",
        sha256="0" * 64,
        version="1.0",
        install="pip install surely-not-installed-xyz==1.0",
    )
    with pytest.raises(PrepareError, match="not installed.*pip install surely-not-installed"):
        source.locate()


def test_fresh_ids_are_distinct_and_reproducible() -> None:
    first = embedded.fresh_ids(5000, embedded.rng_for(1))
    again = embedded.fresh_ids(5000, embedded.rng_for(1))
    assert len(set(first.tolist())) == 5000
    assert np.array_equal(first, again)
    assert first.min() >= 100_000
    assert not np.array_equal(np.sort(first), first)


def test_stratified_split_keeps_each_label_share() -> None:
    labels = ["a"] * 800 + ["b"] * 200
    train, test = embedded.stratified_split(labels, 0.25, embedded.rng_for(0))
    assert len(test) == 250
    assert not set(train.tolist()) & set(test.tolist())
    assert sum(labels[i] == "b" for i in test) == 50


def test_stratified_split_rejects_a_bad_fraction() -> None:
    with pytest.raises(PrepareError, match="test_fraction"):
        embedded.stratified_split(["a", "b"], 1.5, embedded.rng_for(0))


def _parts() -> dict[str, pd.DataFrame]:
    train = pd.DataFrame({"id": [1, 2], "x": [0.5, 1.5], "y": [0, 1]})
    test = pd.DataFrame({"id": [3, 4], "x": [2.5, 3.5]})
    answers = pd.DataFrame({"id": [3, 4], "y": [1, 0]})
    return {"train": train, "test": test, "answers": answers, "sample": answers.assign(y=0)}


def test_write_prepared_writes_the_four_files(tmp_path: Path) -> None:
    embedded.write_prepared(tmp_path / "public", tmp_path / "private", **_parts())
    assert sorted(p.name for p in (tmp_path / "public").iterdir()) == [
        "sample_submission.csv",
        "test.csv",
        "train.csv",
    ]
    assert (tmp_path / "private" / "answers.csv").read_text() == "id,y\n3,1\n4,0\n"


def test_write_prepared_refuses_answers_in_the_test_file(tmp_path: Path) -> None:
    parts = _parts()
    parts["test"] = parts["test"].assign(y=[1, 0])
    with pytest.raises(PrepareError, match="answer columns"):
        embedded.write_prepared(tmp_path / "public", tmp_path / "private", **parts)


def test_write_prepared_refuses_shared_ids(tmp_path: Path) -> None:
    parts = _parts()
    parts["train"] = parts["train"].assign(id=[3, 9])
    with pytest.raises(PrepareError, match="share ids"):
        embedded.write_prepared(tmp_path / "public", tmp_path / "private", **parts)


def test_write_prepared_refuses_a_sample_with_other_ids(tmp_path: Path) -> None:
    parts = _parts()
    parts["sample"] = parts["sample"].assign(id=[3, 5])
    with pytest.raises(PrepareError, match="sample_submission"):
        embedded.write_prepared(tmp_path / "public", tmp_path / "private", **parts)
