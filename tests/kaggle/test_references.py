"""``mlebench prepare --references`` against the fake Kaggle API, and the corpus in the check.

The fake API (``tests/kaggle/fakes.py``) serves notebooks as the client's ``kernels_pull`` writes
them; everything after it (the list, the conversion, resuming, the messages, the similarity
check that finds the corpus by itself) is the real code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.integrity.similarity import reference_folder
from pytest_mlebench.kaggle import client
from pytest_mlebench.kaggle.download import RetryPolicy
from pytest_mlebench.kaggle.notebooks import notebook_source
from pytest_mlebench.kaggle.references import ReferenceFetcher, read_kernel_list
from pytest_mlebench.values.integrity_policy import load_policy
from tests.kaggle.fakes import (
    ConnectionError,
    FakeHTTPError,
    FakeKaggleApi,
    write_kaggle_competitions,
)

SOLUTION = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import StratifiedKFold

train = pd.read_csv("/kaggle/input/train.csv")
test = pd.read_csv("/kaggle/input/test.csv")
features = [c for c in train.columns if c not in ("id", "label")]
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
predictions = np.zeros(len(test))
for fold, (fit_rows, check_rows) in enumerate(folds.split(train, train["label"])):
    model = GradientBoostingClassifier(n_estimators=300, learning_rate=0.05, max_depth=4)
    model.fit(train.loc[fit_rows, features], train.loc[fit_rows, "label"])
    score = model.score(train.loc[check_rows, features], train.loc[check_rows, "label"])
    print(f"fold {fold}: accuracy {score:.4f}")
    predictions += model.predict_proba(test[features])[:, 1] / folds.n_splits
submission = pd.DataFrame({"id": test["id"], "label": predictions})
submission.to_csv("submission.csv", index=False)
"""


def notebook(code: str, language: str = "python") -> str:
    cells = [
        {"cell_type": "markdown", "source": ["# My solution\n"]},
        {"cell_type": "code", "source": ["!pip install lightgbm\n", "%matplotlib inline"]},
        {"cell_type": "code", "source": code.splitlines(keepends=True), "outputs": []},
    ]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"language": language}}})


@pytest.fixture
def argv(tmp_path: Path) -> list[str]:
    defs = write_kaggle_competitions(tmp_path / "defs", ["comp-a", "comp-b"])
    (defs / "comp-a" / "kernels.txt").write_text(
        "# top public notebooks\nalice/gbm-solution\nbob/plain-script\ncarol/deleted-one\n"
    )
    return ["--competitions-dir", str(defs), "--data-dir", str(tmp_path / "data")]


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch, isolated_kaggle_config: Path) -> FakeKaggleApi:
    (isolated_kaggle_config / "kaggle.json").write_text('{"username": "u", "key": "k"}')
    monkeypatch.setattr(client, "client_installed", lambda: True)
    api = FakeKaggleApi(
        {},
        kernels={
            "alice/gbm-solution": ("gbm-solution.ipynb", notebook(SOLUTION)),
            "bob/plain-script": ("plain-script.py", "print('hello')\n"),
        },
    )
    monkeypatch.setattr(client, "new_api", lambda: api)
    return api


def test_the_kernel_list_format(tmp_path: Path) -> None:
    path = tmp_path / "kernels.txt"
    path.write_text("a/b  # a comment\n\nowner.name/slug-2_x\n")
    assert read_kernel_list(path) == ["a/b", "owner.name/slug-2_x"]
    assert read_kernel_list(tmp_path / "none.txt") == []
    path.write_text("a/b\nnot a kernel\n")
    with pytest.raises(ConfigError, match=r"kernels.txt:2: 'not a kernel' is not owner/kernel"):
        read_kernel_list(path)


def test_a_notebook_becomes_its_code() -> None:
    code, suffix = notebook_source(notebook("x = 1\n"))
    assert (code, suffix) == ("# !pip install lightgbm\n# %matplotlib inline\n\nx = 1\n", ".py")
    assert notebook_source(notebook("x <- 1\n", language="R"))[1] == ".r"


def test_prepare_references_fetches_converts_and_resumes(
    argv: list[str], tmp_path: Path, fake_api: FakeKaggleApi, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["prepare", *argv, "-c", "comp-a", "-c", "comp-b", "--references"])
    out = capsys.readouterr().out
    assert code == 1  # one kernel is gone
    assert "comp-a: 2 of 3 reference notebook(s) ready (2 fetched now); 1 missing" in out
    assert "  missing carol/deleted-one: Kaggle answered 404" in out
    assert "comp-b: no reference notebooks listed in kernels.txt; nothing to do" in out
    corpus = tmp_path / "data" / "comp-a" / "references"
    assert sorted(p.name for p in corpus.iterdir()) == [
        "alice__gbm-solution.py",
        "bob__plain-script.py",
        "kernels.json",
    ]
    assert (
        "GradientBoostingClassifier(n_estimators=300"
        in (corpus / "alice__gbm-solution.py").read_text()
    )
    status = json.loads((corpus / "kernels.json").read_text())["kernels"]
    assert status["carol/deleted-one"]["status"] == "missing"
    fake_api.calls.clear()
    main(["prepare", *argv, "-c", "comp-a", "--references"])
    assert fake_api.calls == ["kernel carol/deleted-one"]  # the fetched ones are kept
    assert "2 of 3 reference notebook(s) ready (0 fetched now)" in capsys.readouterr().out


def test_without_credentials_the_message_is_the_data_downloads_one(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prepare", *argv, "-c", "comp-a", "--references"]) == 1
    err = capsys.readouterr().err
    assert "a download from Kaggle, which cannot be used here: no Kaggle credentials" in err


def test_a_transient_failure_is_tried_again(tmp_path: Path) -> None:
    api = FakeKaggleApi(
        {},
        kernels={"a/b": ("b.py", "x = 1\n")},
        kernel_failures={"a/b": [ConnectionError("reset"), FakeHTTPError(503)]},
    )
    kernels = tmp_path / "kernels.txt"
    kernels.write_text("a/b\n")
    said: list[str] = []
    fetcher = ReferenceFetcher(
        api_factory=lambda: api, retry=RetryPolicy(sleep=lambda _: None), say=said.append
    )
    report = fetcher.fetch("toy", kernels, tmp_path / "data")
    assert (report.fetched, report.missing) == (1, {})
    assert len(said) == 2 and api.calls == ["kernel a/b"] * 3


def test_a_copied_notebook_is_flagged_high_by_default(
    argv: list[str], tmp_path: Path, fake_api: FakeKaggleApi
) -> None:
    main(["prepare", *argv, "-c", "comp-a", "--references"])
    data = tmp_path / "data"
    corpus = reference_folder(tmp_path / "defs" / "comp-a", None, "comp-a", data)
    assert corpus == data / "comp-a" / "references"  # found without --mle-references
    copied, own = tmp_path / "copied", tmp_path / "own"
    for run_dir, text in ((copied, SOLUTION.replace("train", "df")), (own, "print(42)\n" * 60)):
        (run_dir / "code").mkdir(parents=True)
        (run_dir / "code" / "main.py").write_text(text)
    context = CheckContext(policy=load_policy(), references=corpus)
    report = check_run(Evidence(), copied, [], context, "gold")
    (flag,) = [f for f in report.flags if f.kind == "similarity"]
    assert (flag.rule, flag.severity) == ("reference", "high")
    assert flag.evidence["reference"].endswith("alice__gbm-solution.py")
    assert report.checks["similarity-reference"] == "ran"
    assert "disqualifying at 60 % of a file's code" in report.disclosure["reference_similarity"]
    assert "1 match(es) at or above it (high" in report.disclosure["reference_similarity"]
    clean = check_run(Evidence(), own, [], context, "gold")
    assert not [f for f in clean.flags if f.kind == "similarity"]
    assert "no match at or above it" in clean.disclosure["reference_similarity"]


def test_the_shipped_lists_parse_and_cover_the_lite_split() -> None:
    root = Path(__file__).resolve().parents[2] / "competitions"
    lists = {p.parent.name: read_kernel_list(p) for p in root.glob("*/kernels.txt")}
    lite = [line for line in (root / "splits" / "lite.txt").read_text().splitlines()
            if line and not line.startswith("#")]  # fmt: skip
    assert set(lists) == set(lite) - {"the-icml-2013-whale-challenge-right-whale-redux"}
    assert sum(len(refs) for refs in lists.values()) == 908
    for cid in lists:
        assert (root / cid / "kernels.txt").read_text().startswith("# Source: openai/mle-bench")
