"""Streaming extraction: traversal refused, nested zips, resumable, progress rate-limited."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle import extract_archives, raw_is_complete
from pytest_mlebench.kaggle.archives import extract_zip
from pytest_mlebench.kaggle.progress import ByteProgress, human_bytes
from tests.kaggle.fakes import kaggle_archive, zip_bytes


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "a/../../evil", "..\\evil.txt"])
def test_a_member_escaping_the_target_is_refused(tmp_path: Path, name: str) -> None:
    archive = tmp_path / "bad.zip"
    archive.write_bytes(zip_bytes({"ok.txt": b"fine", name: b"evil"}))
    with pytest.raises(DataNotPrepared, match="escapes"):
        extract_zip(archive, tmp_path / "raw")
    assert not (tmp_path / "evil.txt").exists()


def test_a_symlink_inside_the_target_cannot_lead_out(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "link").symlink_to(tmp_path / "outside", target_is_directory=True)
    archive = tmp_path / "bad.zip"
    archive.write_bytes(zip_bytes({"link/evil.txt": b"evil"}))
    with pytest.raises(DataNotPrepared, match="escapes"):
        extract_zip(archive, raw)


def test_nested_zips_are_unpacked_beside_themselves_several_levels_deep(tmp_path: Path) -> None:
    innermost = zip_bytes({"deep/leaf.txt": b"leaf"})
    middle = zip_bytes({"inner.zip": innermost})
    download = tmp_path / "download"
    download.mkdir()
    (download / "comp.zip").write_bytes(zip_bytes({"data/middle.zip": middle, "a.csv": b"x\n"}))
    extract_archives(download, tmp_path / "raw")
    raw = tmp_path / "raw"
    assert (raw / "data" / "deep" / "leaf.txt").read_bytes() == b"leaf"
    assert not list(raw.rglob("*.zip"))
    assert raw_is_complete(raw)
    assert (download / "comp.zip").is_file(), "kept unless keep=False"


def test_members_are_streamed_not_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "big.zip"
    archive.write_bytes(zip_bytes({"big.bin": b"\0" * (5 << 20)}))
    reads: list[int] = []
    real_read = zipfile.ZipExtFile.read

    def spy(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        reads.append(n)
        return real_read(self, n)

    monkeypatch.setattr(zipfile.ZipExtFile, "read", spy)
    extract_zip(archive, tmp_path / "raw")
    assert reads and all(0 < n <= 1 << 20 for n in reads)
    assert (tmp_path / "raw" / "big.bin").stat().st_size == 5 << 20


def test_extracting_again_writes_nothing(tmp_path: Path) -> None:
    archive = tmp_path / "comp.zip"
    archive.write_bytes(kaggle_archive())
    assert extract_zip(archive, tmp_path / "raw") == 3
    assert extract_zip(archive, tmp_path / "raw") == 0


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_in_a_log_is_one_line_every_few_seconds() -> None:
    now = [0.0]
    log = FakeTerminal(tty=False)
    progress = ByteProgress("  downloading x.zip", 10_000_000, stream=log, clock=lambda: now[0])
    for step in range(1, 101):
        now[0] = step * 0.1  # 10 s of updates, ten a second
        progress.update(step * 100_000)
    progress.finish(10_000_000)
    lines = log.getvalue().splitlines()
    assert len(lines) == 3  # at 5 s, at 10 s, and the final one
    assert lines[0] == "  downloading x.zip: 5.0 MB of 10.0 MB (50 %)"


def test_progress_on_a_terminal_redraws_one_line() -> None:
    now = [0.0]
    tty = FakeTerminal(tty=True)
    progress = ByteProgress("x", None, stream=tty, clock=lambda: now[0])
    now[0] = 1.0
    progress.update(1500)
    progress.finish(2000)
    assert tty.getvalue() == "\rx: 1.5 KB\x1b[K\rx: 2.0 KB\x1b[K\n"


def test_human_bytes() -> None:
    assert [human_bytes(n) for n in (999, 1000, 158 * 10**9)] == ["999 B", "1.0 KB", "158.0 GB"]
