"""statoil-iceberg-classifier-challenge reads Kaggle's 7-Zip archives; a bad one is a clear error.

A truncated or corrupted ``train.json.7z``, or one without ``data/processed/train.json``, stops
the prepare with a :class:`PrepareError` that names the archive and says to download it again,
never with a traceback from the 7-Zip reader.
"""

from __future__ import annotations

import io
from pathlib import Path

import py7zr
import pytest

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError

COMPETITION = (
    Path(__file__).resolve().parents[2] / "competitions" / ("statoil-iceberg-classifier-challenge")
)


def _archive(member: str, content: str) -> bytes:
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        archive.writestr(content, member)
    return buffer.getvalue()


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


GOOD = _archive("data/processed/train.json", '[{"id": "a1"}]')
CASES = {
    "truncated": (GOOD[: len(GOOD) // 2], "damaged or not a 7z archive"),
    "not 7z": (b"PK\x03\x04 this is a zip" * 4, "damaged or not a 7z archive"),
    "corrupted stream": (_flip(GOOD, 40), "download it again"),
    "other member": (_archive("train.json", "[]"), "holds no data/processed/train.json"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_archive_is_a_clear_error(case: str, tmp_path: Path) -> None:
    raw, public, private = (tmp_path / name for name in ("raw", "public", "private"))
    for folder in (raw, public, private):
        folder.mkdir()
    content, message = CASES[case]
    (raw / "train.json.7z").write_bytes(content)
    prepare = load_prepare(load_competition(COMPETITION))
    with pytest.raises(PrepareError, match=message) as caught:
        prepare(raw, public, private)
    assert "train.json.7z" in str(caught.value)
