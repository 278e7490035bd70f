"""Placing raw files: hard links where possible, copies otherwise, clear errors."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from pytest_mlebench import placing
from pytest_mlebench.errors import PrepareError


def test_a_file_is_hard_linked_on_the_same_file_system(tmp_path: Path) -> None:
    source = tmp_path / "raw" / "a.tif"
    source.parent.mkdir()
    source.write_bytes(b"pixels")
    target = tmp_path / "public" / "train" / "a.tif"
    placing.place_file(source, target)
    assert target.read_bytes() == b"pixels"
    assert os.stat(target).st_ino == os.stat(source).st_ino


def test_a_copy_where_links_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cross_device(_source: object, _target: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(placing.os, "link", cross_device)
    source = tmp_path / "a.wav"
    source.write_bytes(b"audio")
    target = tmp_path / "out" / "a.wav"
    placing.place_file(source, target)
    assert target.read_bytes() == b"audio"
    assert os.stat(target).st_ino != os.stat(source).st_ino


def test_missing_source_and_existing_target_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(PrepareError, match="download complete"):
        placing.place_file(tmp_path / "nope.jpg", tmp_path / "out.jpg")
    source = tmp_path / "a.jpg"
    source.write_bytes(b"x")
    (tmp_path / "b.jpg").write_bytes(b"y")
    with pytest.raises(PrepareError, match="already exists"):
        placing.place_file(source, tmp_path / "b.jpg")


def test_place_files_counts(tmp_path: Path) -> None:
    pairs = []
    for name in ("a", "b", "c"):
        (tmp_path / name).write_text(name)
        pairs.append((tmp_path / name, tmp_path / "out" / name))
    assert placing.place_files(pairs) == 3
