"""Prepare ``h-and-m-personalized-fashion-recommendations`` from Kaggle's files.

Kaggle's test week was never published, so, as MLE-bench does, the last days of
``transactions_train.csv`` (31.8 million purchases) become the test period: every purchase on a
date at or after the last date minus 7 days (8 calendar days, as MLE-bench's ``>=`` gives) is
held out, every earlier one stays in ``transactions_train.csv`` unchanged and in file order.

The file is streamed twice with pyarrow (once for the last date, once to split), as text, so
ids keep their leading zeros and prices their digits; only the held-out week is kept in memory.
Every customer of Kaggle's ``sample_submission.csv`` is a submission row, as on Kaggle (which
customers bought something must not be given away); ``private/answers.csv`` lists, for each,
the articles bought in the test period (each article once, in order of first purchase), empty
for customers who bought nothing, who are not scored (``relevant_rows_only``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from pytest_mlebench.embedded import raw_file, raw_folder, require, write_csv
from pytest_mlebench.placing import place_file, place_files

TRANSACTIONS = "transactions_train.csv"
COLUMNS = ["t_dat", "customer_id", "article_id", "price", "sales_channel_id"]
ID, TARGET = "customer_id", "prediction"
TEST_DAYS = 7


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out the last week of purchases; every customer of the sample is a test row."""
    source = raw_file(raw / TRANSACTIONS)
    last = max(pc.max(batch.column("t_dat")).as_py() or "" for batch in _batches(source, ["t_dat"]))
    require(bool(last), f"{TRANSACTIONS} has no purchases")
    start = (dt.date.fromisoformat(last) - dt.timedelta(days=TEST_DAYS)).isoformat()
    held_out = []
    header = _batches(source, []).schema.names
    require(header == COLUMNS, f"{TRANSACTIONS} columns are {header}, expected {COLUMNS}")
    unquoted = pa_csv.WriteOptions(quoting_style="none")
    with pa_csv.CSVWriter(public / TRANSACTIONS, _schema(), write_options=unquoted) as train:
        for batch in _batches(source, COLUMNS):
            in_test = pc.greater_equal(batch.column("t_dat"), start)
            train.write_batch(batch.filter(pc.invert(in_test)))
            held_out.append(batch.filter(in_test).select([ID, "article_id"]))
    bought = pa.Table.from_batches(held_out).to_pandas().drop_duplicates()
    relevant = bought.groupby(ID, sort=False)["article_id"].agg(" ".join)
    sample = pd.read_csv(raw_file(raw / "sample_submission.csv"), dtype=str, keep_default_na=False)
    require(list(sample.columns) == [ID, TARGET], f"sample_submission.csv columns: {list(sample)}")
    require(sample[ID].is_unique, "sample_submission.csv repeats a customer")
    unknown = set(relevant.index) - set(sample[ID])
    require(not unknown, f"{len(unknown)} buyers of the test week are not in the sample")
    require(len(relevant) > 0, f"no purchase on or after {start}")
    answers = pd.DataFrame({ID: sample[ID], TARGET: sample[ID].map(relevant).fillna("")})
    write_csv(answers, private / "answers.csv")
    place_file(raw / "sample_submission.csv", public / "sample_submission.csv")
    for name in ("articles.csv", "customers.csv"):
        place_file(raw_file(raw / name), public / name)
    images = raw_folder(raw / "images")
    pictures = sorted(images.rglob("*.jpg"))
    place_files((path, public / "images" / path.relative_to(images)) for path in pictures)


def _schema() -> pa.Schema:
    return pa.schema([(name, pa.string()) for name in COLUMNS])


def _batches(source: Path, columns: list[str]) -> pa_csv.CSVStreamingReader:
    """``source`` read in batches, as text: the given columns (all of them for ``[]``)."""
    return pa_csv.open_csv(
        source,
        read_options=pa_csv.ReadOptions(block_size=64 << 20),
        convert_options=pa_csv.ConvertOptions(
            column_types={name: pa.string() for name in COLUMNS}, include_columns=columns
        ),
    )
