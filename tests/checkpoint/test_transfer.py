"""A snapshot's trip as an archive: packed on a node, kept on the controller, unpacked bounded."""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from pytest_mlebench.checkpoint.snapshot import latest_snapshot
from pytest_mlebench.checkpoint.transfer import pack_snapshot, store_snapshot, unpack_snapshot


def made_snapshot(folder: Path, number: int, weights: bytes) -> Path:
    (folder / "code").mkdir(parents=True)
    (folder / "code" / "weights.bin").write_bytes(weights)
    (folder / "files.json").write_text(
        json.dumps({"code/weights.bin": [len(weights), hashlib.sha256(weights).hexdigest()]})
    )
    info = {
        "number": number,
        "time_used": 5.0 * number,
        "taken_at": "then",
        "taken_at_epoch": 1.0,
        "seconds": 0.1,
        "copied_bytes": len(weights),
        "new_bytes": len(weights),
        "linked_bytes": 0,
        "files": 1,
    }
    (folder / "snapshot.json").write_text(json.dumps(info))
    return folder


def test_the_controller_keeps_each_snapshot_and_links_what_did_not_change(tmp_path: Path) -> None:
    weights = os.urandom(4096)
    first = pack_snapshot(made_snapshot(tmp_path / "node" / "0001", 1, weights))
    second = pack_snapshot(made_snapshot(tmp_path / "node" / "0002", 2, weights))
    run_dir = tmp_path / "controller"

    kept_first = store_snapshot(run_dir, first, 1 << 20)
    kept_second = store_snapshot(run_dir, second, 1 << 20)

    assert latest_snapshot(run_dir) == kept_second and kept_second.info.time_used == 10.0
    assert os.path.samefile(
        kept_first.folder / "code" / "weights.bin", kept_second.folder / "code" / "weights.bin"
    )
    assert not list((run_dir / "checkpoints").glob("*.partial"))


def archive_of(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info, content in members:
            tar.addfile(info, io.BytesIO(content) if content else None)
    return buffer.getvalue()


def test_an_archive_with_a_link_or_over_its_bound_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("code/escape")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    with pytest.raises(ValueError, match="not a file"):
        unpack_snapshot(archive_of((link, b"")), tmp_path / "a", 1 << 20)
    big = tarfile.TarInfo("code/big.bin")
    big.size = 40 * 1024**2
    with pytest.raises(ValueError, match="more than 1024 bytes"):
        unpack_snapshot(archive_of((big, b"\0" * big.size)), tmp_path / "b", 1024)
    escape = tarfile.TarInfo("../outside.txt")
    escape.size = 2
    with pytest.raises(tarfile.OutsideDestinationError):
        unpack_snapshot(archive_of((escape, b"no")), tmp_path / "c", 1024)
    assert not (tmp_path / "outside.txt").exists()
