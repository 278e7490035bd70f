"""freesound-audio-tagging-2019's test labels from FSDKaggle2019 through the real prepare path.

Kaggle's files come from ``--from`` (a folder or the zip) or from a fake Kaggle API; the second
source, ``FSDKaggle2019.meta.zip``, from beside them or from a fake peer standing in for Zenodo
(:class:`FakeZenodo`: the record's metadata with the file's MD5 and size, and the file).
Preparing offline without it, or with a damaged copy, stops with a message naming the fix.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import urllib.error
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import label_ranking_average_precision_score

from pytest_mlebench.data import prepare_competition
from pytest_mlebench.definition import load_competition
from pytest_mlebench.errors import DataNotPrepared, PrepareError
from pytest_mlebench.graders import get_metric
from pytest_mlebench.graders.metrics.base import Columns
from pytest_mlebench.kaggle import KaggleDownloader, LocalSource, extract_archives
from pytest_mlebench.kaggle.plan import plan_batch
from pytest_mlebench.public_sources import fetch
from tests.full.shapes import freesound_audio_tagging_2019 as shape
from tests.kaggle.fakes import FakeKaggleApi, api_factory

ROOT = Path(__file__).resolve().parents[2]
COMPETITION = load_competition(ROOT / "competitions" / shape.COMPETITION)
(SOURCE,) = COMPETITION.public_sources


@pytest.fixture(scope="module")
def download(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Kaggle's zip and ``FSDKaggle2019.meta.zip`` side by side, as a ``--from`` folder."""
    folder = tmp_path_factory.mktemp("freesound-download")
    shape.make_download(folder, np.random.default_rng(0))
    return folder


class FakeZenodo:
    """A fake peer for Zenodo: its record metadata (MD5 and size of the file) and the file."""

    def __init__(self, served: bytes, published: bytes) -> None:
        self.served = served
        entry = {"key": SOURCE.file, "size": len(published)}
        self.record = {
            "files": [{**entry, "checksum": f"md5:{hashlib.md5(published).hexdigest()}"}]
        }
        self.requests: list[str] = []

    @contextmanager
    def __call__(self, url: str) -> Iterator[IO[bytes]]:
        self.requests.append(url)
        if url == SOURCE.record:
            yield io.BytesIO(json.dumps(self.record).encode())
        elif url == SOURCE.url:
            yield io.BytesIO(self.served)
        else:
            raise urllib.error.URLError(f"unknown address {url}")


def _answers(data: Path) -> pd.DataFrame:
    return pd.read_csv(data / shape.COMPETITION / "prepared" / "private" / "answers.csv")


def _public_names(data: Path) -> set[str]:
    public = data / shape.COMPETITION / "prepared" / "public"
    return {path.name for path in public.rglob("*")}


def test_from_a_folder_holding_both_files(download: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    prepare_competition(COMPETITION, data, allow_download=True, fetch_raw=LocalSource(download))
    answers = _answers(data)
    assert len(answers) == shape.PRIVATE_CLIPS
    assert list(answers.columns) == ["fname", *shape.CLASSES]
    assert set(answers[shape.CLASSES].to_numpy().ravel()) <= {0, 1}
    names = _public_names(data)
    assert not any("FSDKaggle2019" in name or "post_competition" in name for name in names)
    assert {"train_curated", "train_noisy", "test", "sample_submission.csv"} <= names
    # Offline afterwards (no --from, no network): the labels are in raw/ already.
    prepare_competition(COMPETITION, data, force=True)
    assert len(_answers(data)) == shape.PRIVATE_CLIPS


def test_from_kaggles_zip_finds_the_labels_beside_it(download: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    local = LocalSource(download / f"{shape.COMPETITION}.zip")
    prepare_competition(COMPETITION, data, allow_download=True, fetch_raw=local)
    assert len(_answers(data)) == shape.PRIVATE_CLIPS


def test_from_without_the_labels_names_zenodo_and_from(download: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "kaggle-only"
    mirror.mkdir()
    shutil.copy(download / f"{shape.COMPETITION}.zip", mirror)
    with pytest.raises(DataNotPrepared) as caught:
        prepare_competition(
            COMPETITION, tmp_path / "data", allow_download=True, fetch_raw=LocalSource(mirror)
        )
    message = str(caught.value)
    assert f"FSDKaggle2019.meta.zip ({SOURCE.about}) is not in {mirror}" in message
    assert SOURCE.url in message
    assert f"--from {mirror}" in message


def test_a_damaged_offline_copy_is_refused(download: Path, tmp_path: Path) -> None:
    mirror = tmp_path / "damaged"
    mirror.mkdir()
    shutil.copy(download / f"{shape.COMPETITION}.zip", mirror)
    whole = (download / SOURCE.file).read_bytes()
    (mirror / SOURCE.file).write_bytes(whole[:-64])  # the zip's directory cut off
    with pytest.raises(DataNotPrepared, match="replace it with a fresh download from"):
        prepare_competition(
            COMPETITION, tmp_path / "data", allow_download=True, fetch_raw=LocalSource(mirror)
        )


def test_labels_that_are_not_the_kaggle_test_clips_are_a_clear_error(
    download: Path, tmp_path: Path
) -> None:
    mirror = tmp_path / "other-labels"
    mirror.mkdir()
    shutil.copy(download / f"{shape.COMPETITION}.zip", mirror)
    rng = np.random.default_rng(1)
    test = pd.DataFrame(
        {"fname": [f"{i:08x}.wav" for i in range(4481)], "labels": "Bark", "usage": "Private"}
    )
    (mirror / SOURCE.file).write_bytes(shape.meta_zip(test, rng))
    with pytest.raises(PrepareError, match="Private clips are not the 40 clips"):
        prepare_competition(
            COMPETITION, tmp_path / "data", allow_download=True, fetch_raw=LocalSource(mirror)
        )


def _kaggle(download: Path) -> KaggleDownloader:
    archive = (download / f"{shape.COMPETITION}.zip").read_bytes()
    api = FakeKaggleApi({shape.COMPETITION: [archive]})
    return KaggleDownloader(api_factory=api_factory(api), say=lambda _line: None)


def test_online_the_labels_are_downloaded_against_zenodos_md5(
    download: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meta = (download / SOURCE.file).read_bytes()
    peer = FakeZenodo(meta, meta)
    monkeypatch.setattr(fetch, "open_url", peer)
    data = tmp_path / "data"
    prepare_competition(COMPETITION, data, allow_download=True, fetch_raw=_kaggle(download))
    assert peer.requests == [SOURCE.record, SOURCE.url]
    assert len(_answers(data)) == shape.PRIVATE_CLIPS
    kept = data / shape.COMPETITION / "sources" / SOURCE.file
    assert kept.read_bytes() == meta


def test_online_a_download_that_differs_from_zenodos_md5_is_refused(
    download: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meta = (download / SOURCE.file).read_bytes()
    middle = len(meta) // 2
    damaged = meta[:middle] + bytes([meta[middle] ^ 0xFF]) + meta[middle + 1 :]
    monkeypatch.setattr(fetch, "open_url", FakeZenodo(damaged, meta))
    with pytest.raises(DataNotPrepared, match="is not the published file"):
        prepare_competition(
            COMPETITION, tmp_path / "data", allow_download=True, fetch_raw=_kaggle(download)
        )
    assert not (tmp_path / "data" / shape.COMPETITION / "prepared").exists()


def test_a_raw_folder_that_holds_the_labels_prepares_offline(
    download: Path, tmp_path: Path
) -> None:
    # As a --from mirror folder of both extracted leaves raw/ (and as the fixture tests lay it out).
    data = tmp_path / "data"
    extract_archives(download, data / shape.COMPETITION / "raw")
    prepare_competition(COMPETITION, data)
    assert len(_answers(data)) == shape.PRIVATE_CLIPS


def test_the_readmes_worked_example_scores_the_same_as_the_original() -> None:
    # Clip A: true {Bark, Meow}, ranked Bark 1st, Gong 2nd, Meow 3rd; clip B: true {Gong}, 2nd.
    # Labels: Bark 1/1, Meow 2/3, Gong 1/2: (1 + 2/3 + 1/2) / 3.
    names = ("Bark", "Meow", "Gong", "Slam")
    truth = np.array([[1, 1, 0, 0], [0, 0, 1, 0]], dtype=float)
    scores = np.array([[0.9, 0.5, 0.7, 0.1], [0.1, 0.2, 0.3, 0.5]])
    ours = get_metric("lwlrap").compute(
        Columns.of_matrix(names, truth), Columns.of_matrix(names, scores)
    )
    # The original: scikit-learn's LRAP weighted by each clip's label count (the host's Colab).
    original = label_ranking_average_precision_score(
        truth > 0, scores, sample_weight=truth.sum(axis=1)
    )
    assert ours == pytest.approx((1 + 2 / 3 + 1 / 2) / 3, abs=1e-12)
    assert original == pytest.approx(ours, abs=1e-12)


def test_the_dry_run_names_the_second_source(download: Path, tmp_path: Path) -> None:
    online = plan_batch([COMPETITION], tmp_path / "data").rows[0]
    assert online.action.startswith("fetch FSDKaggle2019.meta.zip (MD5 from its record); ")
    offline = plan_batch([COMPETITION], tmp_path / "data", local=LocalSource(download)).rows[0]
    assert offline.action.startswith("take FSDKaggle2019.meta.zip from the --from folder; ")
