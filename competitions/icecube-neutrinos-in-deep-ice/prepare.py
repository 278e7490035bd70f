"""Prepare ``icecube-neutrinos-in-deep-ice`` from Kaggle's parquet files, streaming.

Kaggle's test directions were never published, so the labelled training data (660 batches of
about 200,000 events each: ``train_meta.parquet`` and ``train/batch_<n>.parquet``) is split
again by batch, as MLE-bench does: the batch ids in ``train_meta.parquet``'s order go through
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, so the same 66 batches are
held out and scores compare with published MLE-bench results.

``train_meta.parquet`` (131 million rows) is read one record batch at a time with pyarrow and
written back the same way, so memory stays bounded: train events go to
``public/train_meta.parquet``; test events go to ``public/test_meta.parquet`` without
``azimuth`` and ``zenith``, and their directions to ``private/answers.csv``. Events keep
Kaggle's ids and file order. Each batch's pulse file is placed under ``public/train/`` or
``public/test/`` unchanged; ``sensor_geometry.csv`` is copied. The sample submission predicts
azimuth 1 and zenith 1, as MLE-bench's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, raw_folder, require
from pytest_mlebench.placing import place_file, place_files

ID, BATCH = "event_id", "batch_id"
TARGETS = ("azimuth", "zenith")
META_COLUMNS = (BATCH, ID, "first_pulse_index", "last_pulse_index", *TARGETS)
TEST_SIZE = 0.1
SEED = 0
SAMPLE_VALUE = 1


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the batches; stream the metadata into train, test and answers; place pulse files."""
    meta = pq.ParquetFile(raw_file(raw / "train_meta.parquet"))
    names = tuple(meta.schema_arrow.names)
    require(names == META_COLUMNS, f"train_meta.parquet columns are {list(names)}")
    batches = _batch_ids(meta)
    require(len(batches) >= 10, f"train_meta.parquet has {len(batches)} batches; expected 660")
    train_batches, test_batches = train_test_split(batches, test_size=TEST_SIZE, random_state=SEED)
    pulses = raw_folder(raw / "train")
    files = {int(path.stem.rsplit("_", 1)[-1]): path for path in pulses.glob("batch_*.parquet")}
    missing = sorted(set(batches) - set(files))
    require(not missing, f"train/ lacks the pulse files of batches {missing[:3]}")
    events = _split_meta(meta, set(int(b) for b in test_batches), public, private)
    require(events > 0, "the test batches hold no events")
    place_file(raw_file(raw / "sensor_geometry.csv"), public / "sensor_geometry.csv")
    place_files(
        (files[int(batch)], public / part / files[int(batch)].name)
        for part, chosen in (("train", train_batches), ("test", test_batches))
        for batch in sorted(chosen)
    )


def _batch_ids(meta: pq.ParquetFile) -> np.ndarray:
    """The distinct batch ids in order of first appearance (pandas' ``unique``)."""
    seen: dict[int, None] = {}
    for chunk in meta.iter_batches(columns=[BATCH]):
        seen.update(dict.fromkeys(pc.unique(chunk.column(0)).to_pylist()))
    return np.asarray(list(seen), dtype=np.int64)


def _split_meta(meta: pq.ParquetFile, test_batches: set[int], public: Path, private: Path) -> int:
    """Stream the metadata to the train/test parquet files and the answers; return test events."""
    schema = meta.schema_arrow
    wanted = pa.array(sorted(test_batches), type=schema.field(BATCH).type)
    test_schema = pa.schema([field for field in schema if field.name not in TARGETS])
    answer_schema = pa.schema([schema.field(ID), *(schema.field(name) for name in TARGETS)])
    sample_schema = pa.schema([schema.field(ID), *(pa.field(name, pa.int64()) for name in TARGETS)])
    public.mkdir(parents=True, exist_ok=True)
    private.mkdir(parents=True, exist_ok=True)
    events = 0
    with (
        pq.ParquetWriter(public / "train_meta.parquet", schema) as train,
        pq.ParquetWriter(public / "test_meta.parquet", test_schema) as test,
        _csv_writer(private / "answers.csv", answer_schema) as answers,
        _csv_writer(public / "sample_submission.csv", sample_schema) as sample,
    ):
        for chunk in meta.iter_batches():
            table = pa.Table.from_batches([chunk])
            is_test = pc.is_in(table.column(BATCH), value_set=wanted)
            train.write_table(table.filter(pc.invert(is_test)))
            held_out = table.filter(is_test)
            if held_out.num_rows == 0:
                continue
            test.write_table(held_out.drop_columns(list(TARGETS)))
            answers.write_table(held_out.select([ID, *TARGETS]))
            constant = pa.array(np.full(held_out.num_rows, SAMPLE_VALUE, dtype=np.int64))
            sample.write_table(
                pa.Table.from_arrays(
                    [held_out.column(ID), constant, constant], schema=sample_schema
                )
            )
            events += held_out.num_rows
    return events


@contextmanager
def _csv_writer(path: Path, schema: pa.Schema) -> Iterator[pa_csv.CSVWriter]:
    """A streaming CSV writer with a plain ``a,b,c`` header line (Arrow would quote the names)."""
    with pa.OSFile(str(path), "wb") as stream:
        stream.write((",".join(schema.names) + "\n").encode("utf-8"))
        options = pa_csv.WriteOptions(include_header=False, quoting_style="none")
        with pa_csv.CSVWriter(stream, schema, write_options=options) as writer:
            yield writer
