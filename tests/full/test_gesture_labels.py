"""multi-modal-gesture-recognition: test samples' ``.mat`` files lose their labels, nothing else.

Each sample's ``SampleNNNNN_data.mat`` carries ``Video.Labels`` (the gestures with their frames):
for a test sample, the answer. The prepared ``test.tar.gz`` must hold the same samples with the
same members, every video and audio file byte for byte, and ``.mat`` files that keep every field
but ``Labels``; train archives keep their labels.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import scipy.io

from pytest_mlebench.definition import load_competition
from tests.full.shapes import load_shapes
from tests.lite.harness import PreparedLite, prepare_from_shape

ID = "multi-modal-gesture-recognition"
ROOT = Path(__file__).resolve().parents[2]


def _samples(archive: Path) -> dict[str, dict[str, bytes]]:
    """Every sample zip of a tar.gz archive: member name to bytes, by sample file name."""
    samples = {}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar.getmembers():
            data = tar.extractfile(member)
            assert data is not None
            with zipfile.ZipFile(io.BytesIO(data.read())) as sample:
                samples[member.name] = {name: sample.read(name) for name in sample.namelist()}
    return samples


def _video_fields(mat: bytes) -> set[str]:
    names = scipy.io.loadmat(io.BytesIO(mat))["Video"].dtype.names
    return set(names or ())


def _prepared(tmp_path: Path) -> PreparedLite:
    competition = load_competition(ROOT / "competitions" / ID)
    return prepare_from_shape(competition, load_shapes()[ID], tmp_path)


def test_test_samples_lose_labels_and_keep_everything_else(tmp_path: Path) -> None:
    prepared = _prepared(tmp_path)
    before = _samples(tmp_path / "raw" / "training4.tar.gz")
    after = _samples(prepared.public / "test.tar.gz")
    assert sorted(after) == sorted(before) and after
    for sample, members in after.items():
        assert sorted(members) == sorted(before[sample])
        for name, data in members.items():
            if name.endswith("_data.mat"):
                assert "Labels" in _video_fields(before[sample][name])
                assert _video_fields(data) == _video_fields(before[sample][name]) - {"Labels"}
                kept = scipy.io.loadmat(io.BytesIO(data))["Video"]
                original = scipy.io.loadmat(io.BytesIO(before[sample][name]))["Video"]
                assert (kept["Frames"][0, 0] == original["Frames"][0, 0]).all()
            else:
                assert data == before[sample][name], name


def test_train_samples_keep_their_labels(tmp_path: Path) -> None:
    prepared = _prepared(tmp_path)
    for members in _samples(prepared.public / "training1.tar.gz").values():
        mats = [data for name, data in members.items() if name.endswith("_data.mat")]
        assert mats and all("Labels" in _video_fields(mat) for mat in mats)
    assert not (prepared.public / "training4.tar.gz").exists()
