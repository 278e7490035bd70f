"""Extraction: traversal refused, nested zips, damage found, threads, resumable, progress."""

from __future__ import annotations

import io
import os
import threading
import time
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle import archives, extract_archives, raw_is_complete, zip_members
from pytest_mlebench.kaggle.archives import ArchiveCorrupted, extract_zip
from pytest_mlebench.kaggle.download_progress import ByteProgress, human_bytes
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


def test_a_large_member_is_streamed_in_bounded_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    size = zip_members.WHOLE_LIMIT + 5 * zip_members.CHUNK  # deflates to a few KB: a small bomb
    archive = tmp_path / "big.zip"
    archive.write_bytes(zip_bytes({"big.bin": b"\0" * size}))
    reads: list[int] = []
    real_pread = os.pread

    def spy(fd: int, length: int, offset: int) -> bytes:
        reads.append(length)
        return real_pread(fd, length, offset)

    monkeypatch.setattr(zip_members.os, "pread", spy)
    tracemalloc.start()
    try:
        extract_zip(archive, tmp_path / "raw")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reads and max(reads) <= zip_members.CHUNK
    assert peak < 4 * zip_members.CHUNK, "the member was held in memory"
    assert (tmp_path / "raw" / "big.bin").stat().st_size == size
    assert not list((tmp_path / "raw").glob(f"*{zip_members.PART_SUFFIX}"))


@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
@pytest.mark.parametrize("large", [False, True], ids=["small", "large"])
def test_a_damaged_member_is_reported_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compression: int, large: bool
) -> None:
    if large:
        monkeypatch.setattr(zip_members, "WHOLE_LIMIT", 16)
    content = bytes(range(256)) * 40
    data = bytearray(zip_bytes({"ok.txt": b"fine", "img.jpg": content}, compression))
    data[data.index(b"img.jpg") + len(b"img.jpg") + 100] ^= 0xFF  # inside img.jpg's data
    archive = tmp_path / "bad.zip"
    archive.write_bytes(bytes(data))
    with pytest.raises(ArchiveCorrupted, match=r"bad\.zip is damaged \(img\.jpg: "):
        extract_zip(archive, tmp_path / "raw")
    assert sorted(p.name for p in (tmp_path / "raw").iterdir()) == ["ok.txt"]


def test_a_truncated_archive_is_reported(tmp_path: Path) -> None:
    whole = zip_bytes({"a.bin": os.urandom(5000), "b.bin": os.urandom(5000)}, zipfile.ZIP_STORED)
    directory = whole.index(b"PK\x01\x02")
    archive = tmp_path / "cut.zip"
    # The directory survives (so the zip opens) but b.bin's bytes are cut short.
    archive.write_bytes(whole[:6000] + b"\0" * (directory - 6000) + whole[directory:])
    with pytest.raises(ArchiveCorrupted, match=r"b\.bin: "):
        extract_zip(archive, tmp_path / "raw")


@pytest.mark.parametrize("compression", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_other_compression_methods_go_through_zipfile(tmp_path: Path, compression: int) -> None:
    archive = tmp_path / "other.zip"
    archive.write_bytes(zip_bytes({"a/b.txt": b"hello" * 1000}, compression))
    assert extract_zip(archive, tmp_path / "raw") == 1
    assert (tmp_path / "raw" / "a" / "b.txt").read_bytes() == b"hello" * 1000


def test_of_two_members_with_one_name_the_last_wins(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("a.txt", b"first")
        with pytest.warns(UserWarning, match="Duplicate"):
            bundle.writestr("a.txt", b"second")
    archive = tmp_path / "twice.zip"
    archive.write_bytes(buffer.getvalue())
    assert extract_zip(archive, tmp_path / "raw") == 1
    assert (tmp_path / "raw" / "a.txt").read_bytes() == b"second"


def test_a_non_ascii_name_matches_its_local_header(tmp_path: Path) -> None:
    archive = tmp_path / "names.zip"
    archive.write_bytes(zip_bytes({"train/café.jpg": b"utf-8 name", "plain.jpg": b"ascii"}))
    assert extract_zip(archive, tmp_path / "raw") == 2
    assert (tmp_path / "raw" / "train" / "café.jpg").read_bytes() == b"utf-8 name"


def many_files(count: int) -> dict[str, bytes]:
    return {f"train/{i:05d}.jpg": os.urandom(200 + i % 300) for i in range(count)}


def test_many_members_are_written_by_several_threads_correctly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archives, "BATCH_BYTES", 1 << 20)  # 16 members a batch: 38 batches
    monkeypatch.setattr(archives, "THREADS", 4)
    files = many_files(600)
    archive = tmp_path / "many.zip"
    archive.write_bytes(zip_bytes(files))
    threads: set[str] = set()
    real_write = zip_members.write_member

    def spy(*args: Any) -> None:
        threads.add(threading.current_thread().name)
        real_write(*args)

    monkeypatch.setattr(archives, "write_member", spy)
    assert extract_zip(archive, tmp_path / "raw") == 600
    assert len(threads) > 1
    for name, content in files.items():
        assert (tmp_path / "raw" / name).read_bytes() == content


def test_a_failure_in_one_thread_stops_the_others_and_a_rerun_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archives, "BATCH_BYTES", 1 << 20)
    monkeypatch.setattr(archives, "THREADS", 4)
    files = many_files(600)
    archive = tmp_path / "many.zip"
    archive.write_bytes(zip_bytes(files))
    real_write = zip_members.write_member
    calls: list[str] = []
    failed = threading.Event()
    after_failure: list[str] = []

    def failing(bundle: Any, fd: int, member: zipfile.ZipInfo, path: Path, stop: Any) -> None:
        calls.append(member.filename)
        if failed.is_set():
            after_failure.append(member.filename)
        if member.filename == "train/00100.jpg":
            failed.set()
            raise zip_members.DamagedMember("bad CRC-32")
        real_write(bundle, fd, member, path, stop)

    monkeypatch.setattr(archives, "write_member", failing)
    with pytest.raises(ArchiveCorrupted, match=r"train/00100\.jpg: bad CRC-32"):
        extract_zip(archive, tmp_path / "raw")
    assert len(after_failure) <= 3, "each other thread finishes at most the member it is on"
    monkeypatch.setattr(archives, "write_member", real_write)
    assert extract_zip(archive, tmp_path / "raw") == 600 - (len(calls) - 1)
    for name, content in files.items():
        assert (tmp_path / "raw" / name).read_bytes() == content


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


class FakeWriterWhoseFailureLandsLast:
    """A fake of ``archives._Writer``: batch 0 fails, and the other batch, stopped by it,
    finishes first, so the pool sees ``Stopped`` before the failure itself."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def __call__(self, batch: Any) -> int:
        if batch.members[0][0].filename == "first":
            self.failure = ArchiveCorrupted(Path("x.zip"), "first: bad CRC-32")
            self.stop.set()
            time.sleep(0.5)
            raise self.failure
        self.stop.wait()
        raise zip_members.Stopped("second")


def test_the_failure_is_reported_not_the_stop_it_caused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "THREADS", 2)
    batches = [
        archives._Batch([(zipfile.ZipInfo(name), Path(name))]) for name in ("first", "second")
    ]
    progress = ByteProgress("x", None, stream=io.StringIO())
    writer: Any = FakeWriterWhoseFailureLandsLast()
    with pytest.raises(ArchiveCorrupted, match=r"first: bad CRC-32"):
        archives._write_all(batches, writer, progress, 0)
