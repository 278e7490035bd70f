"""Kaggle's download of random-acts-of-pizza: zipped JSON lists of Reddit requests.

``random-acts-of-pizza.zip`` holds ``train.json.zip`` (``train.json``: a list of 32-field request
objects, the label ``requester_received_pizza`` among them), ``test.json.zip`` (``test.json``:
the 16 request-time fields plus ``giver_username_if_known``) and ``sampleSubmission.csv``
(``request_id,requester_received_pizza``). Ids are Reddit's ``t3_`` plus base-36 digits. The
synthetic outcome follows words of the request text; the fields in :data:`LEAK_COLUMNS` give it
away (a giver's name, a flair, counts taken later) and must not reach the public files. Train
requests are grouped by outcome, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

COMPETITION = "random-acts-of-pizza"
RETRIEVAL_COUNTS = (
    "number_of_downvotes_of_request_at_retrieval",
    "number_of_upvotes_of_request_at_retrieval",
    "request_number_of_comments_at_retrieval",
    "requester_account_age_in_days_at_retrieval",
    "requester_days_since_first_post_on_raop_at_retrieval",
    "requester_number_of_comments_at_retrieval",
    "requester_number_of_comments_in_raop_at_retrieval",
    "requester_number_of_posts_at_retrieval",
    "requester_number_of_posts_on_raop_at_retrieval",
    "requester_upvotes_minus_downvotes_at_retrieval",
    "requester_upvotes_plus_downvotes_at_retrieval",
)
LEAK_COLUMNS = (
    "giver_username_if_known",
    "requester_user_flair",
    "post_was_edited",
    "request_text",
    *RETRIEVAL_COUNTS,
)
REQUEST_COUNTS = (
    "requester_account_age_in_days_at_request",
    "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request",
    "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request",
    "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request",
    "requester_upvotes_plus_downvotes_at_request",
)
HOPEFUL = ("promise", "forward", "repay", "kids")
PLAIN = ("hungry", "pizza", "broke", "week", "tonight", "please", "student", "rent")
TRAIN_ROWS = 120
TEST_ROWS = 30
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _request(rng: np.random.Generator, received: bool, number: int) -> dict[str, Any]:
    words = list(rng.choice(PLAIN, size=6)) + ([str(rng.choice(HOPEFUL))] if received else [])
    text = " ".join(rng.permutation(words))
    stamp = float(rng.integers(1_291_766_400, 1_380_499_200))
    request: dict[str, Any] = {
        "giver_username_if_known": f"giver{number}" if received else "N/A",
        "request_id": "t3_" + "".join(rng.choice(list(BASE36), size=5)),
        "request_text": text + (" EDIT: thank you!" if received else ""),
        "request_text_edit_aware": text,
        "request_title": f"[Request] {rng.choice(PLAIN)} {number}",
        "requester_subreddits_at_request": list(rng.choice(["AskReddit", "pics", "funny"], 2)),
        "requester_username": f"user{number}",
        "unix_timestamp_of_request": stamp,
        "unix_timestamp_of_request_utc": stamp + 3600,
        "post_was_edited": bool(received and rng.random() < 0.5),
        "requester_user_flair": "shroom" if received else None,
        "requester_received_pizza": bool(received),
    }
    for field in REQUEST_COUNTS:
        request[field] = int(rng.integers(0, 500))
    for field in RETRIEVAL_COUNTS:
        request[field] = int(rng.integers(0, 500)) + (1000 if received else 0)
    return dict(sorted(request.items()))


def _zip_of(name: str, records: list[dict[str, Any]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr(name, json.dumps(records, indent=4))
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    outcomes = sorted(rng.random(TRAIN_ROWS) < 0.35, reverse=True)  # grouped by outcome
    train = [_request(rng, received, n) for n, received in enumerate(outcomes)]
    request_time = {*REQUEST_COUNTS, "giver_username_if_known", "request_id",
                    "request_text_edit_aware", "request_title", "requester_subreddits_at_request",
                    "requester_username", "unix_timestamp_of_request",
                    "unix_timestamp_of_request_utc"}  # fmt: skip
    test = [
        {k: v for k, v in _request(rng, False, 1000 + n).items() if k in request_time}
        for n in range(TEST_ROWS)
    ]
    sample = pd.DataFrame({"request_id": [r["request_id"] for r in test]}).assign(
        requester_received_pizza=0
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.json.zip", _zip_of("train.json", train))
        bundle.writestr("test.json.zip", _zip_of("test.json", test))
        bundle.writestr("sampleSubmission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    records = json.loads((public / "train.json").read_text("utf-8"))
    return pd.DataFrame(
        {
            "request_id": [r["request_id"] for r in records],
            "requester_received_pizza": [int(r["requester_received_pizza"]) for r in records],
        }
    )
