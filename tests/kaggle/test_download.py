"""The download adapter against a fake Kaggle API: retries, checksums, 403s, resuming."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle import KaggleDownloader, RulesNotAccepted
from pytest_mlebench.kaggle.download import RetryPolicy
from pytest_mlebench.kaggle.zip_members import PART_SUFFIX
from pytest_mlebench.prepare_batch import prepare_batch, summary_lines
from pytest_mlebench.registry import Competition, load_registry
from tests.kaggle.fakes import (
    ConnectionError,
    Cut,
    FakeHTTPError,
    FakeKaggleApi,
    api_factory,
    corrupted,
    kaggle_archive,
    stored_archive,
    write_kaggle_competitions,
)

IDS = ["comp-a", "comp-b", "comp-c", "comp-d"]


class Interrupted(BaseException):
    """Stands for Ctrl-C or a killed process: not an ``Exception``, so nothing retries it."""


@pytest.fixture
def defs(tmp_path: Path) -> Path:
    return write_kaggle_competitions(tmp_path / "defs", IDS)


def competitions(defs: Path) -> list[Competition]:
    return load_registry((defs,)).split("batch")


def downloader(api: FakeKaggleApi, lines: list[str], delays: list[float]) -> KaggleDownloader:
    retry = RetryPolicy(tries=4, first_delay=1.0, sleep=delays.append)
    return KaggleDownloader(api_factory=api_factory(api), retry=retry, say=lines.append)


def test_a_batch_downloads_extracts_and_prepares_each_competition(
    defs: Path, tmp_path: Path
) -> None:
    api = FakeKaggleApi({cid: [kaggle_archive()] for cid in IDS})
    lines: list[str] = []
    outcomes = prepare_batch(
        competitions(defs),
        tmp_path / "data",
        say=lines.append,
        fetch_raw=downloader(api, lines, []),
    )
    assert [o.status for o in outcomes] == ["prepared"] * 4
    raw = tmp_path / "data" / "comp-a" / "raw"
    assert sorted(p.name for p in (raw / "train").iterdir())[:2] == ["0000.jpg", "0001.jpg"]
    assert not (raw / "train.zip").exists(), "a nested zip is unpacked, then deleted"
    assert not (tmp_path / "data" / "comp-a" / "download" / "comp-a.zip").exists()
    manifest = json.loads((tmp_path / "data" / "comp-a" / "download" / "manifest.json").read_text())
    assert len(manifest["archives"]["comp-a.zip"]["sha256"]) == 64


def test_a_complete_raw_folder_is_not_downloaded_again(defs: Path, tmp_path: Path) -> None:
    api = FakeKaggleApi({cid: [kaggle_archive()] for cid in IDS})
    fetch = downloader(api, [], [])
    prepare_batch(competitions(defs), tmp_path / "data", say=lambda _: None, fetch_raw=fetch)
    prepare_batch(
        competitions(defs), tmp_path / "data", say=lambda _: None, fetch_raw=fetch, force=True
    )
    assert api.calls == IDS


def test_rules_not_accepted_on_two_competitions_are_all_reported_at_the_end(
    defs: Path, tmp_path: Path
) -> None:
    api = FakeKaggleApi(
        {cid: [kaggle_archive()] for cid in IDS},
        failures={"comp-b": [FakeHTTPError(403)], "comp-d": [FakeHTTPError(403)]},
    )
    lines: list[str] = []
    outcomes = prepare_batch(
        competitions(defs),
        tmp_path / "data",
        say=lines.append,
        fetch_raw=downloader(api, lines, []),
    )
    assert [o.status for o in outcomes] == ["prepared", "skipped", "prepared", "skipped"]
    summary = summary_lines(outcomes, tmp_path / "data")
    tail = summary[summary.index(next(s for s in summary if s.startswith("Kaggle needs"))) :]
    assert tail[1:] == [
        "  https://www.kaggle.com/competitions/comp-b/rules",
        "  https://www.kaggle.com/competitions/comp-d/rules",
    ]
    assert "accept the rules of 2 competition(s)" in tail[0]


def test_a_transient_error_is_retried_with_growing_delays(defs: Path, tmp_path: Path) -> None:
    errors: list[BaseException | Cut] = [
        FakeHTTPError(503),
        ConnectionError("reset"),
        FakeHTTPError(429),
    ]
    api = FakeKaggleApi({"comp-a": [kaggle_archive()]}, failures={"comp-a": errors})
    lines: list[str] = []
    delays: list[float] = []
    comp = competitions(defs)[0]
    downloader(api, lines, delays)(comp, tmp_path / "data" / "comp-a" / "raw")
    assert delays == [1.0, 2.0, 4.0]
    assert api.calls == ["comp-a"] * 4
    assert any("try 2 of 4 in 1 s" in line for line in lines)
    assert (tmp_path / "data" / "comp-a" / "raw" / ".complete").is_file()


def test_transient_errors_give_up_after_the_last_try_with_a_clear_error(
    defs: Path, tmp_path: Path
) -> None:
    api = FakeKaggleApi(
        {"comp-a": [kaggle_archive()]}, failures={"comp-a": [FakeHTTPError(502)] * 4}
    )
    delays: list[float] = []
    with pytest.raises(DataNotPrepared, match="failed after 4 tries .*run the command later"):
        downloader(api, [], delays)(competitions(defs)[0], tmp_path / "raw")
    assert len(delays) == 3


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (404, "Kaggle knows no competition of that id"),
        (401, "Kaggle refused the credentials .*kaggle.json.*KAGGLE_USERNAME/KAGGLE_KEY"),
        (400, "download failed: FakeHTTPError: 400"),
    ],
)
def test_other_http_errors_are_not_retried_and_name_the_fix(
    defs: Path, tmp_path: Path, status: int, message: str
) -> None:
    api = FakeKaggleApi(
        {"comp-a": [kaggle_archive()]}, failures={"comp-a": [FakeHTTPError(status)]}
    )
    delays: list[float] = []
    with pytest.raises(DataNotPrepared, match=message):
        downloader(api, [], delays)(competitions(defs)[0], tmp_path / "raw")
    assert delays == []


def test_403_carries_the_rules_url(defs: Path, tmp_path: Path) -> None:
    api = FakeKaggleApi({"comp-a": [kaggle_archive()]}, failures={"comp-a": [FakeHTTPError(403)]})
    with pytest.raises(RulesNotAccepted) as info:
        downloader(api, [], [])(competitions(defs)[0], tmp_path / "raw")
    assert info.value.url == "https://www.kaggle.com/competitions/comp-a/rules"


def test_a_corrupted_archive_is_detected_and_downloaded_again(defs: Path, tmp_path: Path) -> None:
    good = stored_archive()
    api = FakeKaggleApi({"comp-a": [corrupted(good), good]})
    lines: list[str] = []
    raw = tmp_path / "data" / "comp-a" / "raw"
    downloader(api, lines, [])(competitions(defs)[0], raw)
    assert api.calls == ["comp-a", "comp-a"]
    assert any("is damaged (" in line and "downloading it again" in line for line in lines)
    assert (raw / "train" / "0000.jpg").read_bytes() == bytes([0xFF, 0xD8, 0xFF, 7, 0]) * 60


def test_an_archive_damaged_twice_is_reported(defs: Path, tmp_path: Path) -> None:
    bad = corrupted(stored_archive())
    api = FakeKaggleApi({"comp-a": [bad]})
    with pytest.raises(DataNotPrepared, match="damaged twice .*check the disk and the network"):
        downloader(api, [], [])(competitions(defs)[0], tmp_path / "raw")


def test_an_archive_that_changed_since_its_checksum_was_recorded_is_fetched_again(
    defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = FakeKaggleApi({"comp-a": [stored_archive()]})
    raw = tmp_path / "data" / "comp-a" / "raw"
    archive = raw.with_name("download") / "comp-a.zip"
    # The first run downloads and records the archive, then stops before extracting it.

    def interrupt(*_args: object, **_kwargs: object) -> None:
        raise Interrupted

    with monkeypatch.context() as patch:
        patch.setattr("pytest_mlebench.kaggle.download.start_raw", interrupt)
        with pytest.raises(Interrupted):
            downloader(api, [], [])(competitions(defs)[0], raw)
    data = bytearray(archive.read_bytes())
    data[-30] ^= 0x01  # bit rot in the copy on disk: same size, other digest
    archive.write_bytes(bytes(data))
    lines: list[str] = []
    downloader(api, lines, [])(competitions(defs)[0], raw)
    assert any("differs from its recorded SHA-256" in line for line in lines)
    assert api.calls == ["comp-a", "comp-a"]
    assert (raw / ".complete").is_file()


def test_an_interrupted_download_resumes_from_where_it_stopped(defs: Path, tmp_path: Path) -> None:
    payload = kaggle_archive(images=20)
    api = FakeKaggleApi(
        {"comp-a": [payload]}, failures={"comp-a": [Cut(len(payload) // 2, Interrupted())]}
    )
    raw = tmp_path / "data" / "comp-a" / "raw"
    with pytest.raises(Interrupted):
        downloader(api, [], [])(competitions(defs)[0], raw)
    assert (raw.with_name("download") / "comp-a.zip").stat().st_size == len(payload) // 2
    downloader(api, [], [])(competitions(defs)[0], raw)
    assert api.resumed_from == [len(payload) // 2]
    assert (raw / ".complete").is_file()


def test_a_connection_lost_mid_download_is_resumed_by_the_retry(defs: Path, tmp_path: Path) -> None:
    payload = kaggle_archive(images=20)
    api = FakeKaggleApi(
        {"comp-a": [payload]}, failures={"comp-a": [Cut(100, ConnectionError("reset"))]}
    )
    raw = tmp_path / "raw"
    downloader(api, [], [])(competitions(defs)[0], raw)
    assert api.resumed_from == [100]
    assert (raw / ".complete").is_file()


def test_an_interrupted_extraction_resumes_and_skips_finished_members(
    defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_mlebench.kaggle import archives, zip_members

    api = FakeKaggleApi({"comp-a": [stored_archive(images=10)]})
    raw = tmp_path / "data" / "comp-a" / "raw"
    real = zip_members._write_new
    finished: list[str] = []

    def interrupted_at_the_fifth(path: Path, data: bytes) -> None:
        if len(finished) == 4:  # killed halfway through writing a member
            real(path, data[: len(data) // 2])
            raise Interrupted
        real(path, data)
        finished.append(path.name)

    monkeypatch.setattr(zip_members, "_write_new", interrupted_at_the_fifth)
    with pytest.raises(Interrupted):
        downloader(api, [], [])(competitions(defs)[0], raw)
    assert not (raw / ".complete").exists()
    monkeypatch.setattr(zip_members, "_write_new", real)
    written: list[int] = []
    real_extract = archives.extract_zip

    def counting(*args: object, **kwargs: object) -> int:
        count = real_extract(*args, **kwargs)  # type: ignore[arg-type]
        written.append(count)
        return count

    monkeypatch.setattr(archives, "extract_zip", counting)
    downloader(api, [], [])(competitions(defs)[0], raw)
    assert written == [11 - 4], "the 4 members written before the interruption are skipped"
    assert api.calls == ["comp-a"], "the verified archive is reused, not downloaded again"
    assert (raw / ".complete").is_file()
    assert not list(raw.rglob(f"*{PART_SUFFIX}"))
    with zipfile.ZipFile(io.BytesIO(stored_archive(images=10))) as bundle:
        for member in bundle.infolist():
            assert (raw / member.filename).read_bytes() == bundle.read(member), member.filename


def test_missing_credentials_name_kaggle_json_and_the_variables(
    defs: Path, tmp_path: Path, isolated_kaggle_config: Path
) -> None:
    with pytest.raises(DataNotPrepared) as info:
        KaggleDownloader(say=lambda _: None)(competitions(defs)[0], tmp_path / "raw")
    message = str(info.value)
    assert str(isolated_kaggle_config / "kaggle.json") in message
    assert "KAGGLE_CONFIG_DIR" in message
    assert "KAGGLE_USERNAME and KAGGLE_KEY" in message
    assert "Traceback" not in message


def test_a_missing_kaggle_client_names_the_extra(
    defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.factories import hide_package

    monkeypatch.setenv("KAGGLE_USERNAME", "someone")
    monkeypatch.setenv("KAGGLE_KEY", "0123")
    hide_package(monkeypatch, "kaggle")
    with pytest.raises(DataNotPrepared, match=r"pip install 'pytest-mlebench\[kaggle\]'"):
        KaggleDownloader(say=lambda _: None)(competitions(defs)[0], tmp_path / "raw")


def test_one_missing_token_is_diagnosed_once_for_a_whole_batch(defs: Path, tmp_path: Path) -> None:
    made: list[int] = []

    def failing_factory() -> object:
        from pytest_mlebench.kaggle.client import new_api

        made.append(1)
        return new_api()

    fetch = KaggleDownloader(api_factory=failing_factory, say=lambda _: None)
    outcomes = prepare_batch(
        competitions(defs), tmp_path / "data", say=lambda _: None, fetch_raw=fetch
    )
    assert [o.status for o in outcomes] == ["skipped"] * 4
    assert made == [1]
    assert all("no Kaggle credentials" in o.detail for o in outcomes)
