"""Second public sources: parsed from the config, downloaded against the published MD5, or taken
from ``--from`` offline, with messages that name the fix.

The network is a fake peer (:class:`FakeZenodo`) standing in for Zenodo's record metadata and
file download; nothing here leaves the machine.
"""

from __future__ import annotations

import hashlib
import io
import json
import urllib.error
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from pytest_mlebench.errors import ConfigError, DataNotPrepared
from pytest_mlebench.public_sources.fill import RECORD_NAME, fill_public_sources
from pytest_mlebench.public_sources.spec import PublicSource, parse_public_sources

CID = "some-competition"
MEMBER = "Meta/labels.csv"
RECORD = "https://records.example/api/records/7"
URL = "https://records.example/records/7/files/meta.zip?download=1"
CSV = b"fname,labels,usage\na.wav,Bark,Private\n"


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in files.items():
            bundle.writestr(name, data)
    return buffer.getvalue()


GOOD = _zip({MEMBER: CSV, "Meta/other.csv": b"x\n"})


def _source(**changes: object) -> PublicSource:
    entry: dict[str, object] = {
        "file": "meta.zip",
        "url": URL,
        "record": RECORD,
        "members": [MEMBER],
        "about": "the test labels",
    }
    entry.update(changes)
    (source,) = parse_public_sources([entry], Path("config.yaml"))
    return source


class FakeZenodo:
    """A fake peer: serves a record's metadata (MD5 and size per file) and the file's bytes."""

    def __init__(self, served: bytes, published: bytes | None = None) -> None:
        published = served if published is None else published
        self.served = served
        self.metadata = {
            "files": [
                {
                    "key": "meta.zip",
                    "size": len(published),
                    "checksum": "md5:" + hashlib.md5(published).hexdigest(),
                }
            ]
        }
        self.requests: list[str] = []

    @contextmanager
    def __call__(self, url: str) -> Iterator[IO[bytes]]:
        self.requests.append(url)
        if url == RECORD:
            yield io.BytesIO(json.dumps(self.metadata).encode())
        elif url == URL:
            yield io.BytesIO(self.served)
        else:
            raise urllib.error.URLError(f"no such address {url}")


def _offline(url: str) -> Iterator[IO[bytes]]:
    raise urllib.error.URLError("Temporary failure in name resolution")


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / CID / "raw"
    folder.mkdir(parents=True)
    return folder


def test_a_download_matching_the_published_md5_is_unpacked_and_kept(raw: Path) -> None:
    peer = FakeZenodo(GOOD)
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=peer)
    assert (raw / MEMBER).read_bytes() == CSV
    assert not (raw / "Meta" / "other.csv").exists()  # only the members prepare reads
    cached = raw.parent / "sources" / "meta.zip"
    assert cached.read_bytes() == GOOD
    record = json.loads((raw / RECORD_NAME).read_text())
    assert record["meta.zip"]["md5"] == hashlib.md5(GOOD).hexdigest()
    assert peer.requests == [RECORD, URL]
    # raw/ filled again from another source: the verified copy serves, no network.
    (raw / MEMBER).unlink()
    (raw / RECORD_NAME).unlink()
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=_offline)
    assert (raw / MEMBER).read_bytes() == CSV


def test_members_in_place_are_not_fetched_again(raw: Path) -> None:
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=FakeZenodo(GOOD))
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=_offline)
    assert (raw / MEMBER).read_bytes() == CSV


def test_a_corrupt_download_is_refused_and_not_kept(raw: Path) -> None:
    damaged = GOOD[:-10] + b"0123456789"
    with pytest.raises(DataNotPrepared, match="is not the published file") as caught:
        fill_public_sources(
            CID, [_source()], raw, download_allowed=True, opener=FakeZenodo(damaged, GOOD)
        )
    assert f"MD5 is {hashlib.md5(damaged).hexdigest()}" in str(caught.value)
    assert f"published in {RECORD}" in str(caught.value)
    assert not (raw / MEMBER).exists()
    assert not list((raw.parent / "sources").iterdir())


def test_a_pinned_md5_needs_no_record(raw: Path) -> None:
    peer = FakeZenodo(GOOD)
    source = _source(record=None, md5=hashlib.md5(GOOD).hexdigest(), size=len(GOOD))
    fill_public_sources(CID, [source], raw, download_allowed=True, opener=peer)
    assert peer.requests == [URL]
    assert (raw / MEMBER).read_bytes() == CSV


def test_no_network_names_the_address_and_from(raw: Path) -> None:
    with pytest.raises(DataNotPrepared) as caught:
        fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=_offline)
    message = str(caught.value)
    assert RECORD in message and "name resolution" in message
    assert URL in message and "--from PATH" in message


def test_a_record_without_the_file_is_a_clear_error(raw: Path) -> None:
    peer = FakeZenodo(GOOD)
    peer.metadata = {"files": [{"key": "other.zip", "checksum": "md5:" + "0" * 32}]}
    with pytest.raises(DataNotPrepared, match=f"{RECORD} lists no file meta.zip"):
        fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=peer)


def test_offline_copy_beside_kaggles_files_is_checked_and_unpacked(
    raw: Path, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "meta.zip").write_bytes(GOOD)
    fill_public_sources(CID, [_source()], raw, local=[mirror], opener=_offline)
    assert (raw / MEMBER).read_bytes() == CSV
    record = json.loads((raw / RECORD_NAME).read_text())["meta.zip"]
    assert record["from"] == str(mirror / "meta.zip")
    assert "no MD5 pinned" in record["checked"]


def test_a_corrupt_offline_copy_names_the_fresh_download(raw: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "meta.zip").write_bytes(GOOD[: len(GOOD) // 2])  # cut off: no zip directory
    with pytest.raises(DataNotPrepared) as caught:
        fill_public_sources(CID, [_source()], raw, local=[mirror])
    message = str(caught.value)
    assert "is not a readable zip" in message
    assert f"replace it with a fresh download from {URL}" in message
    assert f"--from {mirror}" in message


def test_an_offline_copy_with_a_different_pinned_md5_is_refused(raw: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    other = _zip({MEMBER: b"fname,labels,usage\nb.wav,Meow,Private\n"})
    (mirror / "meta.zip").write_bytes(other)
    source = _source(md5=hashlib.md5(GOOD).hexdigest())
    with pytest.raises(DataNotPrepared, match="pinned in the competition's config.yaml"):
        fill_public_sources(CID, [source], raw, local=[mirror])
    assert not (raw / MEMBER).exists()


def test_an_offline_copy_missing_a_member_is_refused(raw: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "meta.zip").write_bytes(_zip({"Meta/other.csv": b"x\n"}))
    with pytest.raises(DataNotPrepared, match=f"holds no {MEMBER}"):
        fill_public_sources(CID, [_source()], raw, local=[mirror])


def test_the_extracted_member_serves_offline(raw: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "labels.csv").write_bytes(CSV)
    fill_public_sources(CID, [_source()], raw, local=[mirror])
    assert (raw / MEMBER).read_bytes() == CSV


def test_a_missing_offline_copy_names_the_address_and_from(raw: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    with pytest.raises(DataNotPrepared) as caught:
        fill_public_sources(CID, [_source()], raw, local=[mirror], opener=_offline)
    message = str(caught.value)
    assert f"meta.zip (the test labels) is not in {mirror}" in message
    assert f"download it from {URL}" in message
    assert f"mlebench prepare -c {CID} --from {mirror}" in message


def test_without_downloads_a_missing_source_says_how_to_prepare(raw: Path) -> None:
    with pytest.raises(
        DataNotPrepared, match=f"not fetched yet; prepare it with: mlebench prepare -c {CID}"
    ):
        fill_public_sources(CID, [_source()], raw)


def test_no_sources_is_nothing_to_do(raw: Path) -> None:
    fill_public_sources(CID, [], raw, opener=_offline)
    assert not (raw / RECORD_NAME).exists()


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"file": "m.zip", "url": URL, "members": ["a"], "about": "x"}, "give md5"),
        ({"file": "m.zip", "url": URL, "members": ["a"], "record": RECORD}, "missing about"),
        (
            {"file": "m.zip", "url": URL, "members": ["../a"], "about": "x", "md5": "0" * 32},
            "relative",
        ),
        (
            {"file": "m.zip", "url": URL, "members": ["a"], "about": "x", "md5": "ABC"},
            "32 lower-case",
        ),
        ({"file": "m.zip", "url": URL, "members": ["a"], "about": "x", "mirror": 1}, "unknown key"),
    ],
)
def test_a_bad_entry_is_a_config_error(entry: dict[str, object], problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse_public_sources([entry], Path("config.yaml"))


def test_a_kept_copy_that_changed_since_is_downloaded_again(raw: Path) -> None:
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=FakeZenodo(GOOD))
    cached = raw.parent / "sources" / "meta.zip"
    cached.write_bytes(GOOD[:-1] + b"!")  # no longer the MD5 recorded at its download
    (raw / RECORD_NAME).unlink()
    (raw / MEMBER).unlink()
    peer = FakeZenodo(GOOD)
    fill_public_sources(CID, [_source()], raw, download_allowed=True, opener=peer)
    assert peer.requests == [RECORD, URL]
    assert cached.read_bytes() == GOOD
    assert (raw / MEMBER).read_bytes() == CSV


def test_members_placed_with_kaggles_files_count_as_an_extracted_copy(raw: Path) -> None:
    (raw / MEMBER).parent.mkdir(parents=True)
    (raw / MEMBER).write_bytes(CSV)
    fill_public_sources(CID, [_source()], raw, opener=_offline)
    record = json.loads((raw / RECORD_NAME).read_text())["meta.zip"]
    assert record["checked"] == "content, by prepare.py"
