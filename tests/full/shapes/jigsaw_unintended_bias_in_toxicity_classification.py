"""Kaggle's download of jigsaw-unintended-bias-in-toxicity-classification: one zip of 8 CSVs.

``jigsaw-unintended-bias-in-toxicity-classification.zip`` holds ``train.csv`` (45 columns:
``id,target,comment_text``, subtype and 24 identity shares, metadata, annotator counts; identity
shares blank where nobody rated them), ``test.csv`` (``id,comment_text``, Kaggle's stage-1 test),
``test_public_expanded.csv`` and ``test_private_expanded.csv`` (the released test labels, with
``toxicity`` for train's ``target``), ``sample_submission.csv`` (``id,prediction``),
``all_data.csv`` (every comment with its labels) and the per-rater
``identity_individual_annotations.csv`` / ``toxicity_individual_annotations.csv``. Ids are
integers. The synthetic comment says "awful" when toxic and names the identities it mentions, so
the text predicts the answers; every scored identity has toxic and non-toxic members and
non-members among the private test rows, so every bias AUC is defined.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "jigsaw-unintended-bias-in-toxicity-classification"
SCORED = [
    "male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim", "black",
    "white", "psychiatric_or_mental_illness",
]  # fmt: skip
IDENTITIES = [
    *SCORED, "transgender", "other_gender", "heterosexual", "bisexual", "other_sexual_orientation",
    "hindu", "buddhist", "atheist", "other_religion", "asian", "latino",
    "other_race_or_ethnicity", "physical_disability", "intellectual_or_learning_disability",
    "other_disability",
]  # fmt: skip
SUBTYPES = ["severe_toxicity", "obscene", "identity_attack", "insult", "threat", "sexual_explicit"]
METADATA = [
    "created_date", "publication_id", "parent_id", "article_id", "rating", "funny", "wow", "sad",
    "likes", "disagree",
]  # fmt: skip
COUNTS = ["identity_annotator_count", "toxicity_annotator_count"]
SHARES = (0.0, 0.1, 0.2, 0.3, 0.6, 0.8, 1.0)
TRAIN_ROWS = 150
COMBINATIONS = ((True, True), (True, False), (False, True), (False, False))


def _comments(rng: np.random.Generator, toxic: np.ndarray, members: np.ndarray) -> list[str]:
    texts = []
    for is_toxic, row in zip(toxic, members, strict=True):
        named = [IDENTITIES[j].replace("_", " ") for j in np.flatnonzero(row)]
        words = ["this is", "awful, you fool" if is_toxic else "a fair point"]
        texts.append(f'"{words[0]} {words[1]}" about {", ".join(named) or "nobody"}')
    return texts


def _table(
    rng: np.random.Generator, toxic: np.ndarray, members: np.ndarray, first_id: int
) -> pd.DataFrame:
    rows = len(toxic)
    high = [s for s in SHARES if s >= 0.5]
    low = [s for s in SHARES if s < 0.5]
    toxicity = np.where(toxic, rng.choice(high, rows), rng.choice(low, rows))
    shares = np.where(members, rng.choice(high, members.shape), rng.choice(low, members.shape))
    rated = rng.random(rows) < 0.8  # identity shares blank where nobody rated identities
    frame = pd.DataFrame({"id": np.arange(first_id, first_id + rows) * 7 + 59848})
    frame["comment_text"] = _comments(rng, toxic, members)
    frame["toxicity"] = toxicity
    for name in SUBTYPES:
        frame[name] = rng.choice(SHARES, rows)
    for j, name in enumerate(IDENTITIES):
        frame[name] = np.where(rated | members[:, j], shares[:, j], np.nan)
    frame["created_date"] = "2016-09-29 10:50:41.987077+00"
    for name in METADATA[1:]:
        frame[name] = rng.integers(0, 50, rows)
    frame["rating"] = rng.choice(["approved", "rejected"], rows)
    for name in COUNTS:
        frame[name] = rng.integers(4, 10, rows)
    return frame


def _private_test(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Rows that give every scored identity all four (member, toxic) combinations."""
    toxic, members = [], []
    for j in range(len(SCORED)):
        for is_member, is_toxic in COMBINATIONS:
            row = rng.random(len(IDENTITIES)) < 0.1
            row[j] = is_member
            toxic.append(is_toxic)
            members.append(row)
    return np.asarray(toxic), np.asarray(members)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train_toxic = rng.random(TRAIN_ROWS) < 0.4
    train_members = rng.random((TRAIN_ROWS, len(IDENTITIES))) < 0.25
    train = _table(rng, train_toxic, train_members, 0).rename(columns={"toxicity": "target"})
    order = ["id", "target", "comment_text", *SUBTYPES[:5], *IDENTITIES, *METADATA]
    train = train[[*order, "sexual_explicit", *COUNTS]]
    private = _table(rng, *_private_test(rng), 1_000_000)
    public = _table(rng, *_private_test(rng), 2_000_000)
    expanded = ["id", "comment_text", *METADATA, "toxicity", *SUBTYPES, *IDENTITIES, *COUNTS]
    everything = pd.concat([train.rename(columns={"target": "toxicity"}), public, private])
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", public[["id", "comment_text"]].to_csv(index=False))
        bundle.writestr("test_public_expanded.csv", public[expanded].to_csv(index=False))
        bundle.writestr("test_private_expanded.csv", private[expanded].to_csv(index=False))
        sample = pd.DataFrame({"id": public["id"], "prediction": 0.0})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        bundle.writestr("all_data.csv", everything.to_csv(index=False))
        annotations = pd.DataFrame({"id": private["id"], "worker": 1, "toxic": private["toxicity"]})
        bundle.writestr("toxicity_individual_annotations.csv", annotations.to_csv(index=False))
        identities = pd.DataFrame({"id": private["id"], "worker": 2, "male": private["male"]})
        bundle.writestr("identity_individual_annotations.csv", identities.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", usecols=["id", "target"], dtype={"id": str})
    return train.rename(columns={"target": "prediction"})
