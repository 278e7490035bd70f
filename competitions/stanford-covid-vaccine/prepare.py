"""Prepare ``stanford-covid-vaccine`` from Kaggle's files.

Kaggle's test degradation rates were never published, so the labelled ``train.json`` (2,400 RNA
sequences of 107 bases, the first 68 measured) is split again as MLE-bench does: 10 % of the
rows (240) are drawn, with pandas' ``sample(n=240, random_state=0)``, from the sequences that
pass the signal-to-noise filter (``SN_filter > 0``, the ones Kaggle scored), so the same
sequences are held out and scores compare with published MLE-bench results. Both parts keep
``train.json``'s order; ``index`` is renumbered from 0 in each, as there.

A submission has one row per test sequence and base (``<id>_<position>``, all 107 positions);
only the first ``seq_scored`` positions are measured: the answers carry ``keep`` (1 there, 0
beyond, where the values are 0). The sample submission predicts 0 everywhere. Kaggle's ``bpps/``
matrices are not part of MLE-bench's task and are left out here too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv

ID = "id_seqpos"
TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
TEST_SHARE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out filtered sequences; expand their measurements into per-base answers."""
    train = pd.read_json(raw_file(raw / "train.json"), lines=True)
    test_columns = list(pd.read_json(raw_file(raw / "test.json"), lines=True, nrows=1).columns)
    missing = [
        c for c in ["id", "SN_filter", "seq_length", "seq_scored", *TARGETS] if c not in train
    ]
    require(not missing, f"train.json lacks the fields {missing}")
    require(len(train) >= 10, f"train.json has {len(train)} sequences; expected 2,400")
    chosen = train[train["SN_filter"] > 0].sample(n=int(len(train) * TEST_SHARE), random_state=SEED)
    held_out = train.index.isin(chosen.index)
    new_train, new_test = train[~held_out].copy(), train[held_out].copy()
    answers = _answers(new_test)
    sample = answers[[ID]].assign(**dict.fromkeys(TARGETS, 0.0))
    check_answers(answers[[ID]], answers, sample, ID)
    new_train["index"] = np.arange(len(new_train))
    public_test = new_test[test_columns].copy()
    public_test["index"] = np.arange(len(public_test))
    require(not set(TARGETS) & set(public_test.columns), "test.json would hold the targets")
    public.mkdir(parents=True, exist_ok=True)
    new_train.to_json(public / "train.json", orient="records", lines=True)
    public_test.to_json(public / "test.json", orient="records", lines=True)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _answers(test: pd.DataFrame) -> pd.DataFrame:
    """One row per test sequence and base: the five rates where measured, 0 beyond; ``keep``."""
    frames = []
    for row in test.itertuples(index=False):
        scored, length = int(row.seq_scored), int(row.seq_length)
        require(scored < length, f"sequence {row.id}: seq_scored {scored} >= seq_length {length}")
        values = {name: np.zeros(length) for name in TARGETS}
        for name in TARGETS:
            measured = np.asarray(getattr(row, name), dtype=float)
            require(
                len(measured) == scored, f"sequence {row.id}: {name} has {len(measured)} values"
            )
            values[name][:scored] = measured
        keep = (np.arange(length) < scored).astype(int)
        ids = [f"{row.id}_{position}" for position in range(length)]
        frames.append(pd.DataFrame({ID: ids, **values, "keep": keep}))
    return pd.concat(frames, ignore_index=True)
