"""Prepare ``random-acts-of-pizza`` from Kaggle's files, without the fields that leak the outcome.

Kaggle's test labels were never published, so the labelled ``train.json`` (4,040 requests) is
split again with scikit-learn's ``train_test_split`` at ``random_state=0`` and Kaggle's test share
(test requests / all requests, 1,631 / 5,671), the split MLE-bench uses, so the test requests are
MLE-bench's and scores compare with published MLE-bench results.

Unlike MLE-bench, fields known only after the request's outcome are removed from both public
files (:data:`REMOVED_FIELDS`): who gave the pizza, the requester's flair (which says whether
they received one), whether the post was edited, the text including later edits, and every count
taken at retrieval time. What remains is what was known when the request was posted: the fields
of Kaggle's own test file, less ``giver_username_if_known``. Reddit's ``request_id`` values are
kept. The sample submission predicts 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, require, write_csv

ID = "request_id"
TARGET = "requester_received_pizza"
REMOVED_FIELDS = (
    "giver_username_if_known",
    "requester_user_flair",
    "post_was_edited",
    "request_text",
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
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's requests, drop the leaking fields, write JSON and the answers."""
    requests = _read_requests(_locate(raw, "train.json"))
    kaggle_test = _read_requests(_locate(raw, "test.json"))
    kept = _request_time_fields(requests, kaggle_test)
    share = len(kaggle_test) / (len(requests) + len(kaggle_test))
    train, test = train_test_split(requests, test_size=share, random_state=SEED)
    answers = pd.DataFrame({ID: [r[ID] for r in test], TARGET: [int(r[TARGET]) for r in test]})
    sample = answers.assign(**{TARGET: 0})
    public_test = [{field: r[field] for field in kept} for r in test]
    check_answers(pd.DataFrame({ID: [r[ID] for r in public_test]}), answers, sample, ID)
    train_ids = {r[ID] for r in train}
    require(not train_ids & set(answers[ID]), "train and test share request ids")
    _write_json(
        [{field: r[field] for field in (*kept, TARGET)} for r in train], public / "train.json"
    )
    _write_json(public_test, public / "test.json")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _locate(raw: Path, name: str) -> Path:
    """``raw/name``, or the one file of that name below ``raw`` (Kaggle's zips nest it)."""
    if (raw / name).is_file():
        return raw / name
    found = [path for path in sorted(raw.rglob(name)) if path.is_file()]
    require(len(found) == 1, f"expected one {name} under {raw}, found {len(found)}")
    return found[0]


def _read_requests(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as stream:
        requests = json.load(stream)
    require(
        isinstance(requests, list) and all(isinstance(r, dict) for r in requests) and requests,
        f"{path.name} should be a JSON list of request objects",
    )
    fields = set(requests[0])
    require(all(set(r) == fields for r in requests), f"{path.name}: requests differ in fields")
    return requests


def _request_time_fields(
    requests: list[dict[str, Any]], kaggle_test: list[dict[str, Any]]
) -> tuple[str, ...]:
    """Train fields less the label and the removed ones, in Kaggle's order; checked against the
    fields of Kaggle's test file (its request-time fields, plus the giver's name)."""
    fields = list(requests[0])
    require(ID in fields and TARGET in fields, f"train.json lacks {ID!r} or {TARGET!r}")
    kept = tuple(f for f in fields if f != TARGET and f not in REMOVED_FIELDS)
    expected = set(kaggle_test[0]) - set(REMOVED_FIELDS)
    require(
        set(kept) == expected,
        f"train.json fields after removing the leaks {sorted(set(kept) ^ expected)} differ "
        "from test.json's request-time fields",
    )
    return kept


def _write_json(records: list[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as stream:
        json.dump(records, stream, indent=4, ensure_ascii=False)
        stream.write("\n")
