"""Prepare ``tensorflow2-question-answering`` from Kaggle's files.

Kaggle's test annotations were never published, so the annotated
``simplified-nq-train.jsonl`` (307,373 Natural Questions examples, about 17 GB) is split again
the way the original MLE-bench splits it: in consecutive blocks of 1,000 lines, each block split
by scikit-learn's ``train_test_split(test_size=0.1, random_state=0)`` — so the same examples are
held out and scores compare with published MLE-bench results. The file is streamed line by line;
train lines are published unchanged, test lines keep only ``example_id``, ``question_text``,
``document_text`` and ``long_answer_candidates`` (as Kaggle's test file). The answers are a CSV
(the original keeps JSON lines, which its own validator cannot read): one row per answer slot,
``<example_id>_long`` and ``<example_id>_short``, listing every acceptable answer — the long
answer's token span, or the short answers' spans and ``YES``/``NO`` — space-separated, blank where
the question has none. The sample submission leaves every slot blank, as the original's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv

ID = "example_id"
TARGET = "PredictionString"
TEST_KEYS = ("example_id", "question_text", "document_text", "long_answer_candidates")
BLOCK_LINES = 1_000
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's annotated examples block by block; the answers are their annotations."""
    source = raw_file(raw / "simplified-nq-train.jsonl")
    slots: list[dict[str, str]] = []
    train_ids: list[str] = []
    with (
        (public / "simplified-nq-train.jsonl").open("w", encoding="utf-8") as train_out,
        (public / "simplified-nq-test.jsonl").open("w", encoding="utf-8") as test_out,
    ):
        for block in _blocks(source):
            records = [json.loads(line) for line in block]
            train_rows, test_rows = _split(len(block))
            for row in train_rows:
                train_out.write(block[row].rstrip("\n") + "\n")
                train_ids.append(str(records[row][ID]))
            for row in test_rows:
                record = records[row]
                test_out.write(json.dumps({key: record[key] for key in TEST_KEYS}) + "\n")
                slots.extend(_answer_slots(record))
    answers = pd.DataFrame(slots, columns=[ID, TARGET])
    require(len(answers) > 0, f"{source} holds no examples")
    test_ids = {slot.rsplit("_", 1)[0] for slot in answers[ID]}
    require(not test_ids & set(train_ids), "train and test share example ids")
    sample = answers.assign(**{TARGET: ""})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _blocks(path: Path) -> Iterator[list[str]]:
    with path.open(encoding="utf-8") as lines:
        while block := list(islice(lines, BLOCK_LINES)):
            yield block


def _split(size: int) -> tuple[list[int], list[int]]:
    if size == 1:  # train_test_split cannot split one line; the original's would fail here
        return [0], []
    train, test = train_test_split(np.arange(size), test_size=TEST_FRACTION, random_state=SEED)
    return [int(row) for row in train], [int(row) for row in test]


def _answer_slots(record: dict[str, Any]) -> list[dict[str, str]]:
    """The example's long and short slots with every acceptable answer, from its annotation."""
    annotations = record.get("annotations") or []
    require(len(annotations) == 1, f"example {record[ID]} has {len(annotations)} annotations")
    annotation = annotations[0]
    long = annotation["long_answer"]
    long_answer = f"{long['start_token']}:{long['end_token']}" if long["start_token"] != -1 else ""
    short = [f"{s['start_token']}:{s['end_token']}" for s in annotation["short_answers"]]
    if annotation["yes_no_answer"] != "NONE":
        short.append(str(annotation["yes_no_answer"]))
    example = str(record[ID])
    return [
        {ID: f"{example}_long", TARGET: long_answer},
        {ID: f"{example}_short", TARGET: " ".join(short)},
    ]
