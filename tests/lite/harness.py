"""Run a Lite competition's prepare on Kaggle-shaped files and grade what comes out.

The steps are the real ones: the shape module writes the download, the package's Kaggle
extraction unpacks it into ``raw/``, the competition's own ``prepare.py`` splits it, and the
graders library scores submissions against ``private/answers.csv``.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

from pytest_mlebench import graders
from pytest_mlebench.definition import Competition, load_prepare
from pytest_mlebench.kaggle import extract_archives

SAMPLE = "sample_submission.csv"
ANSWERS = "answers.csv"
LABEL_KINDS = ("label", "integer-label", "text", "ranking")  # a ranking is predicted as a whole
NEIGHBOURS = 5


@dataclass(frozen=True)
class PreparedLite:
    """One Lite competition prepared from its Kaggle-shaped download."""

    competition: Competition
    shape: ModuleType
    public: Path
    private: Path

    @property
    def answers(self) -> Path:
        return self.private / ANSWERS

    @property
    def spec(self) -> graders.SubmissionSpec:
        return self.competition.submission

    def read_answers(self) -> pd.DataFrame:
        return read_text_csv(self.answers)

    def read_sample(self) -> pd.DataFrame:
        return read_text_csv(self.public / SAMPLE)


def read_text_csv(path: Path) -> pd.DataFrame:
    """A CSV with every value as text, so ids and tokens such as ``NA`` stay what they are."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def prepare_from_shape(
    competition: Competition, shape: ModuleType, root: Path, seed: int = 0
) -> PreparedLite:
    """Download (shaped), extract and prepare ``competition`` under ``root``."""
    download, raw, public, private = (
        root / name for name in ("download", "raw", "public", "private")
    )
    for folder in (download, public, private):
        folder.mkdir(parents=True)
    shape.make_download(download, np.random.default_rng(seed))
    extract_archives(download, raw)
    load_prepare(competition)(raw, public, private)
    return PreparedLite(competition, shape, public, private)


def checksums(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root``, by relative path."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def score(prepared: PreparedLite, submission: pd.DataFrame, path: Path) -> graders.ScoreResult:
    submission.to_csv(path, index=False)
    return graders.score_submission(path, prepared.answers, prepared.spec)


def perfect(prepared: PreparedLite) -> pd.DataFrame:
    """The answers in submission form.

    Where the answers name their columns otherwise (jigsaw-unintended's ``toxicity`` for the
    submission's ``prediction``), answer column *i* becomes target column *i*; a shape whose
    answers list several acceptable values gives its own as ``perfect_submission(prepared)``.
    """
    own = getattr(prepared.shape, "perfect_submission", None)
    if own is not None:  # answers that list alternatives (tf2-QA's acceptable spans)
        frame: pd.DataFrame = own(prepared)
        return frame
    spec = prepared.spec
    answers = prepared.read_answers()
    targets = list(spec.target_columns)
    if set(targets) <= set(answers.columns):
        return answers[[*spec.id_columns, *targets]]
    truth = list(spec.resolved_answer_columns[: len(targets)])
    renamed = answers[[*spec.id_columns, *truth]]
    return renamed.rename(columns=dict(zip(truth, targets, strict=True)))


def is_better(score_a: float, score_b: float, lower_is_better: bool) -> bool:
    return score_a < score_b if lower_is_better else score_a > score_b


def public_csv_headers(public: Path) -> dict[str, list[str]]:
    """The header of every CSV in ``public`` (read as text, first row only)."""
    return {
        path.relative_to(public).as_posix(): list(pd.read_csv(path, nrows=0).columns)
        for path in sorted(public.rglob("*.csv"))
    }


def public_json_records(public: Path) -> dict[str, list[dict[str, object]]]:
    """Every JSON file in ``public`` that is a list of records (Kaggle's JSON tables)."""
    tables = {}
    for path in sorted(public.rglob("*.json")):
        records = json.loads(path.read_text("utf-8"))
        if isinstance(records, list) and all(isinstance(r, dict) for r in records):
            tables[path.relative_to(public).as_posix()] = records
    return tables


# -- the leak probe ------------------------------------------------------------------------------


def _id_number(value: str) -> float:
    digits = "".join(re.findall(r"\d", value))[:15]
    return float(digits) if digits else 0.0


# Words, and lone digits: a label written into a name as ``_1`` / ``_0`` is a lone digit.
TOKEN = re.compile(r"[A-Za-z]+|(?<![0-9])[0-9](?![0-9])")


def _tokens(identifier: str, path: Path | None) -> set[str]:
    """Words and lone digits in the id and in the name of the row's file."""
    text = identifier if path is None else f"{identifier} {path.stem}"
    return {token.lower() for token in TOKEN.findall(text)}


def _files_by_id(public: Path, ids: list[str], shape: ModuleType, test: bool) -> list[Path | None]:
    finder = getattr(shape, "test_files" if test else "train_files", None)
    if finder is None:
        return [None] * len(ids)
    files: dict[str, Path] = finder(public)
    return [files.get(identifier) for identifier in ids]


def metadata_features(
    ids: list[str], files: list[Path | None], vocabulary: list[str], id_is_content: bool = False
) -> np.ndarray:
    """What a model could learn without looking at the data: ids, order, file names and sizes.

    With ``id_is_content`` (the id column is the row's data itself, such as a comment's text)
    the id is not a feature: learning from it is learning from the data, not a leak.
    """
    rows = []
    for position, (identifier, file) in enumerate(zip(ids, files, strict=True)):
        size = float(file.stat().st_size) if file is not None else 0.0
        shown = "" if id_is_content else identifier
        tokens = _tokens(shown, file)
        rows.append(
            [_id_number(shown), float(len(shown)), float(position), size]
            + [1.0 if token in tokens else 0.0 for token in vocabulary]
        )
    features = np.asarray(rows, dtype=float)
    spread = features.std(axis=0)
    # A constant column (ids sharing a long numeric prefix, say) tells nothing, and its
    # rounding-noise spread would blow it up and drown every other feature: zero it.
    constant = spread <= 1e-9 * np.abs(features).max(axis=0, initial=0.0)
    features[:, constant] = 0.0
    spread[constant] = 1.0
    return features / spread


def leak_probe(prepared: PreparedLite) -> pd.DataFrame:
    """A nearest-neighbour model on metadata only, fitted on public train, predicting test.

    A shape whose answers are not values to learn (AI4Code's cell orders) gives its own
    metadata-only submission as ``leak_probe(prepared)``.
    """
    own = getattr(prepared.shape, "leak_probe", None)
    if own is not None:
        frame: pd.DataFrame = own(prepared)
        return frame
    spec = prepared.spec
    train = prepared.shape.public_train_labels(prepared.public).astype(str)
    test_ids = prepared.read_sample()[spec.id_column].tolist()
    train_ids = train[spec.id_column].tolist()
    train_files = _files_by_id(prepared.public, train_ids, prepared.shape, test=False)
    test_files = _files_by_id(prepared.public, test_ids, prepared.shape, test=True)
    id_is_content = bool(getattr(prepared.shape, "ID_IS_CONTENT", False))
    shown_ids = [""] * len(train_ids) if id_is_content else train_ids
    vocabulary = sorted(set().union(*map(_tokens, shown_ids, train_files)))
    x_train = metadata_features(train_ids, train_files, vocabulary, id_is_content)
    x_test = metadata_features(test_ids, test_files, vocabulary, id_is_content)
    columns = list(spec.target_columns)
    k = min(NEIGHBOURS, len(train))
    metric = graders.get_metric(spec.metric)
    if metric.value_kind in LABEL_KINDS:
        labels = train[columns].to_numpy()
        target = labels.ravel() if len(columns) == 1 else labels  # one label: a 1-d target
        with warnings.catch_warnings():
            # text answers (spans, tag sets) are nearly all distinct: sklearn says so, rightly
            warnings.filterwarnings("ignore", "The number of unique classes", UserWarning)
            classifier = KNeighborsClassifier(n_neighbors=k).fit(x_train, target)
        predicted = np.asarray(classifier.predict(x_test)).reshape(len(test_ids), len(columns))
    else:
        regressor = KNeighborsRegressor(n_neighbors=k)
        regressor.fit(x_train, train[columns].astype(float).to_numpy())
        predicted = np.asarray(regressor.predict(x_test)).reshape(len(test_ids), len(columns))
        if metric.value_kind == "probability":
            predicted = np.clip(predicted, 0.0, 1.0)
            if len(columns) > 1:
                totals = predicted.sum(axis=1, keepdims=True)
                predicted = np.where(
                    totals > 0, predicted / np.where(totals > 0, totals, 1), 1 / len(columns)
                )
    frame = pd.DataFrame(predicted, columns=columns)
    frame.insert(0, spec.id_column, test_ids)
    return frame
