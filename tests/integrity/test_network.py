"""Network attempts from the egress proxy's log: flags for refused hosts, disclosure for the rest.

The log lines are tinyproxy's own format (captured from ``tinyproxy -d`` with the harness's
config). The checks read the record's ``egress`` entry; ``mlebench integrity`` takes it from a
saved record when the run's evidence lacks it (runs saved before the evidence kept it). The real
proxy in Docker is in ``tests/sandbox/test_egress.py`` and ``test_integrity_docker.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.egress_attempts import network_disclosure, network_flags
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.sandbox.docker.egress import denied_attempts, egress_summary
from pytest_mlebench.values.integrity_policy import load_policy
from tests.integrity.conftest import ExampleProject, records_of

pytestmark = pytest.mark.timeout(300)

POLICY = load_policy()
TINYPROXY_LOG = """\
NOTICE    Nov 30 17:26:45.098 [19927]: Initializing tinyproxy ...
CONNECT   Nov 30 17:26:46.110 [19927]: Connect (file descriptor 4): 172.18.0.2
CONNECT   Nov 30 17:26:46.110 [19927]: Request (file descriptor 4): GET http://denied.example/ HTTP/1.1
NOTICE    Nov 30 17:26:46.114 [19927]: Proxying refused on filtered domain "denied.example"
CONNECT   Nov 30 17:26:47.001 [19927]: Request (file descriptor 5): CONNECT pypi.org:443 HTTP/1.1
INFO      Nov 30 17:26:47.020 [19927]: Established connection to host "pypi.org" using file descriptor 6.
CONNECT   Nov 30 17:26:50.142 [19927]: Request (file descriptor 4): CONNECT denied.example:443 HTTP/1.1
NOTICE    Nov 30 17:26:50.146 [19927]: Proxying refused on filtered domain "denied.example"
CONNECT   Nov 30 17:27:02.500 [19927]: Request (file descriptor 4): GET http://other.example/x HTTP/1.1
NOTICE    Nov 30 17:27:02.503 [19927]: Proxying refused on filtered domain "other.example"
"""  # noqa: E501


def egress_of(tmp_path: Path) -> dict[str, Any]:
    log = tmp_path / "egress.log"
    log.write_text(TINYPROXY_LOG)
    return egress_summary(("pypi.org",), log)


def test_each_refused_host_has_its_count_and_first_and_last_time() -> None:
    assert denied_attempts(TINYPROXY_LOG) == [
        {"host": "denied.example", "count": 2, "first": "Nov 30 17:26:46.114",
         "last": "Nov 30 17:26:50.146"},
        {"host": "other.example", "count": 1, "first": "Nov 30 17:27:02.503",
         "last": "Nov 30 17:27:02.503"},
    ]  # fmt: skip


def test_refused_hosts_are_flags_and_allowed_hosts_are_not(tmp_path: Path) -> None:
    flags = network_flags(egress_of(tmp_path), POLICY)
    assert [(f.kind, f.rule, f.severity) for f in flags] == [
        ("rules", "network-attempt", "medium")
    ] * 2
    assert flags[0].evidence == {
        "host": "denied.example",
        "count": 2,
        "first": "Nov 30 17:26:46.114",
        "last": "Nov 30 17:26:50.146",
    }
    assert "host denied.example" in flags[0].summary()
    assert not [f for f in flags if f.evidence["host"] == "pypi.org"]


def test_the_disclosure_names_the_allow_list_and_the_refusals(tmp_path: Path) -> None:
    assert network_disclosure(egress_of(tmp_path)) == (
        "allow-list of pypi.org; 3 denied attempts (denied.example, other.example)"
    )
    clean = {"mode": "allow", "allowed_hosts": ["a.org", "b.org"], "denied": {}}
    assert network_disclosure(clean) == "allow-list of a.org,b.org; 0 denied attempts"


def test_an_older_record_with_counts_only_still_flags() -> None:
    egress = {"mode": "allow", "allowed_hosts": [], "denied": {"x.example": 4}}
    [flag] = network_flags(egress, POLICY)
    assert flag.evidence == {"host": "x.example", "count": 4, "first": None, "last": None}


def test_the_checks_read_the_egress_evidence(tmp_path: Path) -> None:
    evidence = Evidence(egress=egress_of(tmp_path))
    report = check_run(evidence, tmp_path, [], CheckContext(policy=POLICY), None)
    assert report.checks["network-attempts"] == "ran"
    assert [f.evidence["host"] for f in report.flags if f.rule == "network-attempt"] == [
        "denied.example",
        "other.example",
    ]
    assert report.disclosure["network"].startswith("allow-list of pypi.org; 3 denied attempts")
    none = check_run(Evidence(), tmp_path, [], CheckContext(policy=POLICY), None)
    assert none.checks["network-attempts"].startswith("skipped: no egress proxy")
    assert none.disclosure["network"] == "none: the sandbox had no network"


def test_a_saved_record_with_an_egress_field_is_flagged_offline(
    project: ExampleProject, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project.run("-k", "toy-a").assert_outcomes(passed=1)
    [record] = records_of(project.root)
    run_dir = Path(record["run_dir"])
    record["egress"] = egress_of(tmp_path)
    (run_dir / "record.json").write_text(json.dumps(record))
    evidence = json.loads((run_dir / "integrity" / "evidence.json").read_text())
    assert evidence["egress"] is None  # the local backend has no proxy
    del evidence["egress"]  # as a run saved before the evidence kept it
    (run_dir / "integrity" / "evidence.json").write_text(json.dumps(evidence))
    report = tmp_path / "report.json"
    defs = ["--competitions-dir", str(project.root / "defs")]
    assert main(["integrity", str(run_dir), *defs, "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "medium rules/network-attempt" in out and "host denied.example" in out
    saved = json.loads(report.read_text())["runs"][record["run_id"]]
    assert saved["disclosure"]["network"].startswith("allow-list of pypi.org; 3 denied")
