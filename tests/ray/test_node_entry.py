"""The record's ``node`` entry through results, summary, HTML page and Allure (no cluster needed).

What a run on a Ray cluster records is tested end to end in ``test_ray_cluster.py``; these tables
pin how the entry is read back and shown, including records written before it existed.
"""

from __future__ import annotations

import json

import pytest

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.html import render_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary, node_text, run_node
from pytest_mlebench.setting_spec import ray_address
from tests.report.builders import record

ATTEMPT_A = {"node_id": "aaaa1111bbbb", "ip": "10.0.0.8", "hostname": "gpu-4", "error": "lost"}
ATTEMPT_B = {"node_id": "cccc2222dddd", "ip": "10.0.0.7", "hostname": "gpu-3"}
NODE = {**ATTEMPT_B, "attempts": [ATTEMPT_A, ATTEMPT_B], "gpus": [], "data": "object-store"}


def test_a_record_keeps_its_node_and_an_older_record_reads_back_without_one() -> None:
    written = record("toy", 0, node=NODE)
    assert RunRecord.from_dict(json.loads(written.to_json())).node == NODE
    older = json.loads(record("toy", 0).to_json())
    del older["node"]
    assert RunRecord.from_dict(older).node is None


def test_summary_and_page_say_where_each_run_ran() -> None:
    summary = build_summary(merge_records([record("toy", 0, node=NODE), record("toy", 1)]))
    found = json.dumps(summary)
    assert '"attempts": 2' in found and '"hostname": "gpu-3"' in found
    page = render_html(summary)
    assert "on gpu-3 (10.0.0.7, node cccc2222), 2 attempts" in page


@pytest.mark.parametrize(
    ("node", "text"),
    [
        ({**ATTEMPT_B, "attempts": [ATTEMPT_B]}, "gpu-3 (10.0.0.7, node cccc2222)"),
        (NODE, "gpu-3 (10.0.0.7, node cccc2222), 2 attempts"),
    ],
)
def test_node_text(node: dict[str, object], text: str) -> None:
    entry = run_node(record("toy", 0, node=node))
    assert entry is not None and node_text(entry) == text


def test_a_local_run_has_no_node() -> None:
    assert run_node(record("toy", 0)) is None


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("auto", None),
        ("10.0.0.5:6379", None),
        ("head.example:6379", None),
        ("nowhere", "expected auto or HOST:PORT"),
        ("10.0.0.5:port", "expected auto or HOST:PORT"),
        ("ray://10.0.0.5:10001", "Ray Client addresses (ray://) are not supported"),
    ],
)
def test_ray_address(raw: str, problem: str | None) -> None:
    if problem is None:
        assert ray_address(raw) == raw
    else:
        with pytest.raises(ValueError, match=problem.replace("(", r"\(").replace(")", r"\)")):
            ray_address(raw)
