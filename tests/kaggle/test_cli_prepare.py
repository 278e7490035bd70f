"""``mlebench prepare`` on the Kaggle path: --from, --dry-run, the disk check, leaderboard fetch."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.kaggle import client, plan
from tests.kaggle.fakes import (
    FakeHTTPError,
    FakeKaggleApi,
    kaggle_archive,
    write_kaggle_competitions,
)

IDS = ["comp-a", "comp-b"]


@pytest.fixture
def argv(tmp_path: Path) -> list[str]:
    write_kaggle_competitions(tmp_path / "defs", IDS)
    return ["--competitions-dir", str(tmp_path / "defs"), "--data-dir", str(tmp_path / "data")]


@pytest.fixture
def no_api(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fails the test if anything creates a Kaggle API object."""
    made: list[str] = []

    def forbidden() -> object:
        made.append("api")
        raise AssertionError("no Kaggle API object may be created here")

    monkeypatch.setattr(client, "new_api", forbidden)
    return made


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch) -> FakeKaggleApi:
    api = FakeKaggleApi({cid: [kaggle_archive()] for cid in IDS})
    monkeypatch.setattr(client, "new_api", lambda: api)
    return api


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_from_a_zip_needs_no_network_and_no_credentials(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "comp-a.zip"
    archive.write_bytes(kaggle_archive())
    code, out, _ = run(capsys, "prepare", *argv, "-c", "comp-a", "--from", str(archive))
    assert code == 0, out
    assert "1 of 1 prepared" in out
    assert no_api == []
    assert archive.is_file(), "the user's zip is left where it was"
    public = tmp_path / "data" / "comp-a" / "prepared" / "public"
    assert (public / "sample_submission.csv").read_text().startswith("id,label\n0000,0")


def test_from_a_folder_of_raw_files_links_them(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    mirror = tmp_path / "mirror"
    with zipfile.ZipFile(tmp_path / "x.zip", "w") as bundle:
        bundle.writestr("unused", b"")
    (tmp_path / "comp-a.zip").write_bytes(kaggle_archive())
    with zipfile.ZipFile(tmp_path / "comp-a.zip") as bundle:
        bundle.extractall(mirror)  # a mirror keeps Kaggle's files as they are, train.zip too
    code, out, _ = run(capsys, "prepare", *argv, "-c", "comp-a", "--from", str(mirror))
    assert code == 0, out
    raw = tmp_path / "data" / "comp-a" / "raw"
    assert (raw / "train.csv").stat().st_ino == (mirror / "train.csv").stat().st_ino
    assert (raw / "train" / "0001.jpg").is_file()
    assert (mirror / "train.zip").is_file(), "the mirror is not changed"
    assert no_api == []


def test_from_a_folder_of_zips_serves_a_batch(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "comp-a.zip").write_bytes(kaggle_archive())
    with zipfile.ZipFile(store / "comp-a.zip") as bundle:
        bundle.extractall(store / "comp-b")
    code, out, _ = run(capsys, "prepare", *argv, "--split", "batch", "--from", str(store))
    assert code == 0, out
    assert "2 of 2 prepared" in out
    assert no_api == []


def test_from_a_folder_without_the_competition_says_what_it_looked_for(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "comp-a.zip").write_bytes(kaggle_archive())
    code, out, _ = run(capsys, "prepare", *argv, "--split", "batch", "--from", str(store))
    assert code == 1
    assert f"neither {store / 'comp-b.zip'} nor {store / 'comp-b'}/ exists" in out


def test_the_same_from_zip_again_does_not_extract_again(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "comp-a.zip"
    archive.write_bytes(kaggle_archive())
    run(capsys, "prepare", *argv, "-c", "comp-a", "--from", str(archive))
    marker = tmp_path / "data" / "comp-a" / "raw" / ".complete"
    before = marker.stat().st_mtime_ns
    code, _, _ = run(capsys, "prepare", *argv, "-c", "comp-a", "--from", str(archive), "--force")
    assert code == 0 and marker.stat().st_mtime_ns == before


def test_dry_run_prints_sizes_and_totals_from_kaggle(
    argv: list[str], fake_api: FakeKaggleApi, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "prepare", *argv, "--split", "batch", "--dry-run")
    assert code == 0
    size = len(kaggle_archive())
    assert any(
        line.startswith("comp-a") and f"{size} B" in line and "[Kaggle file list]" in line
        for line in out.splitlines()
    )
    assert "data to fetch: 1.2 KB" in out and size == 611
    assert "disk needed: about" in out and ": enough" in out
    assert fake_api.calls == [], "a dry run downloads nothing"


def test_dry_run_of_lite_without_credentials_uses_the_table_of_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "prepare", "--data-dir", str(tmp_path / "data"), "--lite", "--dry-run"
    )
    assert code == 0
    lines = out.splitlines()
    rows = [line for line in lines if line.endswith(".zip [estimate]")]
    assert len(rows) == 22, out
    assert all(" ~" in row for row in rows), "each estimated size is marked ~"
    assert "data to fetch: ~158.0 GB (estimated)" in out
    assert "disk needed: about 274.0 GB, estimated;" in out
    assert lines[-1].startswith("~ marks an estimate") and "KAGGLE_USERNAME" in lines[-1]


def test_the_lite_size_table_matches_the_published_totals() -> None:
    sizes = plan.APPROXIMATE_LITE_BYTES
    assert len(sizes) == 22
    total = sum(sizes.values())
    assert 150 * plan.GB <= total <= 165 * plan.GB
    without_siim = total - sizes["siim-isic-melanoma-classification"]
    assert 40 * plan.GB <= without_siim <= 44 * plan.GB


def test_a_batch_that_cannot_fit_is_refused_with_the_numbers(
    argv: list[str],
    fake_api: FakeKaggleApi,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(plan, "free_bytes", lambda _folder: 900)
    code, _, err = run(capsys, "prepare", *argv, "--split", "batch")
    assert code == 1
    assert "free in" in err and "900 B" in err and "NOT enough" in err
    assert "--skip-disk-check" in err
    assert fake_api.calls == []
    code, out, _ = run(capsys, "prepare", *argv, "--split", "batch", "--skip-disk-check")
    assert code == 0 and "2 of 2 prepared" in out


def test_prepare_reports_every_rules_url_at_the_end(
    argv: list[str], fake_api: FakeKaggleApi, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_api.failures = {cid: [FakeHTTPError(403)] for cid in IDS}
    code, out, _ = run(capsys, "prepare", *argv, "--split", "batch")
    assert code == 1
    tail = out.splitlines()[-3:]
    assert tail[1:] == [
        "  https://www.kaggle.com/competitions/comp-a/rules",
        "  https://www.kaggle.com/competitions/comp-b/rules",
    ]


BOARD = (
    "TeamId,TeamName,SubmissionDate,Score\n"
    + "".join(f"{i},team {i},2020-01-01,{1 - i / 100:.2f}\n" for i in range(1, 21))
    + "21,no score,2020-01-01,\n"
)


def test_leaderboard_fetch_writes_beside_and_compares_with_the_shipped_board(
    argv: list[str], tmp_path: Path, fake_api: FakeKaggleApi, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_api.boards = {"comp-a": BOARD}
    shipped = tmp_path / "defs" / "comp-a" / "leaderboard.csv"
    before = shipped.read_text()
    code, out, _ = run(capsys, "leaderboard", "fetch", *argv, "comp-a")
    assert code == 0, out
    written = list((tmp_path / "data" / "comp-a" / "leaderboard").glob("kaggle-*.csv"))
    assert len(written) == 1 and str(written[0]) in out
    assert written[0].read_text().splitlines()[1] == "1,0.99,team 1"
    assert "rows: shipped 10, fetched 20 (+10)" in out
    assert "thresholds differ (shipped -> fetched): gold 1 -> 0.98" in out
    assert "public board" in out
    assert shipped.read_text() == before


def test_leaderboard_fetch_for_a_competition_without_a_board_says_how_to_use_it(
    argv: list[str], tmp_path: Path, fake_api: FakeKaggleApi, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "defs" / "comp-b" / "leaderboard.csv").unlink()
    fake_api.boards = {"comp-b": BOARD}
    code, out, _ = run(capsys, "leaderboard", "fetch", *argv, "comp-b")
    assert code == 0, out
    assert "no leaderboard ships with comp-b" in out
    assert "--mle-competitions-dir" in out and "leaderboard.csv" in out


def test_leaderboard_fetch_without_credentials_is_one_clear_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "leaderboard", "fetch", *argv, "comp-a")
    assert code == 1
    assert err.startswith("mlebench: error: no Kaggle credentials")
    assert "kaggle.json" in err and "Traceback" not in err


def test_dry_run_of_split_all_totals_the_whole_benchmark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "prepare", "--data-dir", str(tmp_path / "data"), "--split", "all", "--dry-run"
    )
    assert code == 0
    lines = out.splitlines()
    not_yet = [line for line in lines if "release (no competition folder)" in line]
    # An available competition of unknown size (tensorflow-speech) has no estimate to mark.
    ready = [line for line in lines if line.endswith((".zip [estimate]", ".zip"))]
    assert len(not_yet) + len(ready) == 75, out
    unknown = [line for line in not_yet + ready if " unknown " in line]
    assert len(unknown) == sum(1 for v in plan.APPROXIMATE_BYTES.values() if v is None) == 6
    assert any(line.startswith("AI4Code ") and "~2.2 GB" in line for line in not_yet + ready)
    known = sum(v for v in plan.APPROXIMATE_BYTES.values() if v)
    assert 1.9e12 <= known <= 2.2e12  # 158 GB of Lite + 1.87 TB of the 47 known of 53
    if not_yet:  # a release without every folder totals the whole split apart
        whole = next(line for line in lines if line.startswith("whole split, 75 competitions"))
        assert whole.endswith("(estimated) (+ 6 of unknown size)")
        verdict = next(line for line in lines if line.startswith("whole split: disk needed"))
    else:  # every competition ships: the plan's own totals are the whole split's
        total = next(line for line in lines if line.startswith("data to fetch: "))
        assert total.endswith("(estimated) (+ 6 of unknown size)")
        verdict = next(line for line in lines if line.startswith("disk needed: about"))
    assert ": enough" in verdict or ": NOT enough" in verdict
    assert lines[-1].startswith("~ marks an estimate")


def test_the_size_table_covers_every_id_of_the_splits() -> None:
    from pytest_mlebench.registry import BUILTIN_COMPETITIONS_DIR, read_id_list

    listed = set(read_id_list(BUILTIN_COMPETITIONS_DIR / "splits" / "all.txt"))
    assert set(plan.APPROXIMATE_BYTES) == listed


def test_drop_raw_deletes_raw_files_after_a_verified_prepare(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "comp-a.zip"
    archive.write_bytes(kaggle_archive())
    prepare = ["prepare", *argv, "-c", "comp-a", "--from", str(archive)]
    code, out, _ = run(capsys, *prepare, "--drop-raw")
    assert code == 0, out
    assert "raw files deleted after verification (" in out and "freed)" in out
    folder = tmp_path / "data" / "comp-a"
    assert not (folder / "raw").exists()
    assert (folder / "prepared" / "public" / "sample_submission.csv").is_file()
    code, out, _ = run(capsys, *prepare)  # up to date: nothing is fetched again
    assert code == 0 and "1 of 1 prepared" in out and "preparing" not in out
    assert no_api == []


def test_drop_raw_keeps_raw_files_when_the_prepared_data_does_not_verify(
    argv: list[str], tmp_path: Path, no_api: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_mlebench.prepare_batch import PrepareOutcome, _drop_raw
    from pytest_mlebench.registry import load_registry

    archive = tmp_path / "comp-a.zip"
    archive.write_bytes(kaggle_archive())
    code, out, _ = run(capsys, "prepare", *argv, "-c", "comp-a", "--from", str(archive))
    assert code == 0, out
    data = tmp_path / "data"
    answers = data / "comp-a" / "prepared" / "private" / "answers.csv"
    answers.write_text(answers.read_text() + "tampered\n")
    competition = load_registry([tmp_path / "defs"]).get("comp-a")
    outcome = _drop_raw(competition, data, PrepareOutcome("comp-a", "prepared", 1.0, "done"))
    assert outcome.status == "failed"
    assert "raw files kept: the prepared data does not verify" in outcome.detail
    assert (data / "comp-a" / "raw").is_dir()


def test_lite_without_kaggle_says_both_fixes_once_before_the_disk_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(client, "client_installed", lambda: False)
    monkeypatch.setattr(plan, "free_bytes", lambda _folder: 900)  # would refuse on disk
    code, out, err = run(capsys, "prepare", "--data-dir", str(tmp_path / "data"), "--lite")
    assert code == 1
    assert err.count("no Kaggle credentials") == 1
    assert err.count("pip install 'pytest-mlebench[kaggle]'") == 1
    assert "all 22 competitions chosen need a download from Kaggle" in err
    assert "--from PATH" in err and "mlebench prepare --split embedded" in err
    assert "NOT enough" not in out + err, "the Kaggle set-up is checked before the disk"
    assert "prepare it with" not in out + err and "mlebench prepare -c" not in out + err


def test_a_mixed_batch_without_kaggle_prepares_the_rest_and_names_kaggle_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    defs = tmp_path / "defs"
    write_kaggle_competitions(defs, IDS)
    argv = ["--competitions-dir", str(defs), "--data-dir", str(tmp_path / "data")]
    code, out, err = run(capsys, "prepare", *argv, "-c", "comp-a", "-c", "comp-b", "-c", "digits")
    assert code == 1
    assert err.count("no Kaggle credentials") == 1
    assert "2 of the 3 competitions chosen need a download from Kaggle" in err
    assert "[1/1] digits: prepared" in out
    assert "1 of 3 prepared" in out and "skipped (2):" in out
    assert "no Kaggle credentials" not in out, "the reason is not repeated per competition"
    assert "mlebench prepare -c" not in out + err


def test_a_skipped_competition_does_not_suggest_the_command_that_ran(
    argv: list[str],
    fake_api: FakeKaggleApi,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_api.failures = {"comp-a": [FakeHTTPError(404)]}
    code, out, _ = run(capsys, "prepare", *argv, "-c", "comp-a")
    assert code == 1
    assert "comp-a: Kaggle knows no competition of that id (HTTP 404)" in out
    assert "prepare it with" not in out


def test_the_kaggle_message_of_one_competition_speaks_of_one() -> None:
    from pytest_mlebench.cli.prepare import kaggle_setup_message

    message = kaggle_setup_message("no kaggle.json", 1, 1)
    assert message.startswith("mlebench: the competition chosen needs a download from Kaggle")
    assert "all 1" not in message
