"""The typed evidence: saved files read and written back byte for byte, the order a run collects
it in, and one integrity object per run (the nonce made once, carried by the job)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.integrity import monitor
from pytest_mlebench.integrity.checks import CheckContext
from pytest_mlebench.integrity.monitor import IntegrityRun
from pytest_mlebench.integrity.nonce import NONCE_ENV, Watermark
from pytest_mlebench.integrity.run_evidence import Evidence, load_evidence, save_evidence
from pytest_mlebench.integrity.watch import SandboxWatch
from pytest_mlebench.local_executor import LocalExecutor
from pytest_mlebench.registry import load_registry
from pytest_mlebench.sandbox.interface import ResourceGrant, SandboxSpec
from pytest_mlebench.sandbox.sandbox_spec import Limits
from pytest_mlebench.sandbox_phase import Instructions, SandboxJob, SubmissionCheck
from pytest_mlebench.values.integrity_policy import load_policy
from tests.factories import write_competition

SAVED = Path(__file__).with_name("records")
SAVED_FILES = sorted(SAVED.glob("evidence-*.json"))


@pytest.mark.parametrize("path", SAVED_FILES, ids=[p.stem for p in SAVED_FILES])
def test_a_saved_evidence_file_is_written_back_byte_for_byte(path: Path, tmp_path: Path) -> None:
    text = path.read_text("utf-8")
    evidence = Evidence.from_json(text)
    assert evidence.to_json() + "\n" == text
    save_evidence(tmp_path, evidence)
    assert (tmp_path / "integrity" / "evidence.json").read_bytes() == path.read_bytes()
    assert load_evidence(tmp_path) == evidence


def test_the_fields_name_what_the_keys_held() -> None:
    local = Evidence.from_json((SAVED / "evidence-local.json").read_text("utf-8"))
    assert local.nonce == "0123456789abcdef0123456789abcdef" and local.backend == "local"
    assert local.validator_refused == 0 and local.process_audit is not None
    assert local.egress is None and "egress" in local.keys  # asked, none: kept as null
    assert local.outside_contract is None and local.gpu_usage is None
    assert local.agent_sources == [Path("/opt/pytest_mlebench/agents/scripts/dummy.py")]
    assert [call["valid"] for call in local.validation_calls or ()] == [True]
    docker = Evidence.from_json((SAVED / "evidence-docker.json").read_text("utf-8"))
    assert docker.validator_refused == 3 and docker.egress_error is not None
    assert [p["command"] for p in docker.audited_processes][1] == "curl https://example.com"
    assert docker.outside_contract == {"count": 2, "paths": ["/etc/hosts.bak", "/opt/answers.csv"]}
    assert docker.build_refused == 0 and docker.build_calls and docker.build_calls[0]["ok"]


def test_an_older_file_keeps_its_order_its_unknown_keys_and_what_it_lacks() -> None:
    older = {
        "backend": "docker",
        "nonce": "n",
        "sandbox_started": 100,
        "kept_by_a_later_version": [1],
    }
    text = json.dumps(older, indent=1)
    evidence = Evidence.from_json(text)
    assert evidence.to_json() == text  # 100 stays an integer, no egress appears
    assert evidence.sandbox_started == 100 and evidence.egress is None
    more = replace(evidence, copied_in={"sources": [], "hashed": 0, "matches": []})
    assert list(more.to_dict()) == [*older, "copied_in"]  # added last, as the dict did
    with pytest.raises(ValueError, match="no JSON object"):
        Evidence.from_json("[1, 2]")


def test_the_watch_collects_in_the_order_the_saved_runs_have() -> None:
    """Facts added as the phase gathers them come out in the saved file's key order."""
    saved = json.loads((SAVED / "evidence-docker.json").read_text("utf-8"))
    watch = SandboxWatch(Watermark(saved["nonce"]), Path("unused"))
    watch.add(
        sandbox_started=saved["sandbox_started"],
        sandbox_started_at=saved["sandbox_started_at"],
        backend="docker",
    )
    watch.add(copy_out=saved["copy_out"])  # inside the watch, before the agent's time ends
    watch.add(
        agent_finished=saved["agent_finished"],
        process_audit=saved["process_audit"],
        validator_refused=3,
        egress_error=saved["egress_error"],
        inventory=saved["inventory"],
        outside_contract=saved["outside_contract"],
        nulls=frozenset({"egress", "outside_contract"}),
    )
    watch.add(gpu_usage=saved["gpu_usage"])
    watch.add(build_calls=tuple(saved["build_calls"]), build_refused=0)
    done = replace(watch.evidence, copied_in=saved["copied_in"], validation_calls=())
    assert done.to_dict() == saved and list(done.to_dict()) == list(saved)


@pytest.fixture
def local_job(tmp_path: Path) -> SandboxJob:
    write_competition(tmp_path / "competitions", "toy")
    competition = load_registry([tmp_path / "competitions"]).get("toy")
    prepared = prepare_competition(competition, tmp_path / "data")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    spec = SandboxSpec(
        run_id="toy-s0-evidence",
        subject="toy",
        seed=0,
        public_dir=prepared.public,
        limits=Limits(60, ResourceGrant(cpus=1, pids=200)),
        log_dir=run_dir,
    )
    return SandboxJob(
        spec=spec,
        agent=load_agent("dummy"),
        instructions=Instructions(60, IntegrityRun(run_dir, None).watermark),
        run_dir=run_dir,
        check=SubmissionCheck(prepared.answers, competition.submission),
    )


def test_one_integrity_object_per_run_and_its_nonce_made_once(
    local_job: SandboxJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phase makes no integrity object and no nonce of its own: the job's watermark is the
    one in the sandbox's environment, the instructions and the evidence, and the run's checks
    save that evidence, completed, in the order runs always saved it."""
    made: list[object] = []
    monkeypatch.setattr(Watermark, "new", classmethod(lambda cls: made.append(cls)))
    monkeypatch.setattr(monitor.IntegrityRun, "__init__", lambda *a: made.append(a))
    outcome = LocalExecutor("local", "session-1").run(local_job)
    assert made == []
    monkeypatch.undo()
    mark = local_job.watermark
    assert local_job.spec.env == {NONCE_ENV: mark.nonce} == mark.env
    assert mark.nonce in (local_job.run_dir / "instructions.md").read_text("utf-8")
    assert outcome.evidence is not None and outcome.evidence.nonce == mark.nonce
    run = IntegrityRun(local_job.run_dir, local_job.agent, mark)
    report = run.check(outcome.evidence, outcome.calls, CheckContext(load_policy()), None)
    assert report.disclosure["run_nonce"] == mark.nonce
    saved = (local_job.run_dir / "integrity" / "evidence.json").read_text("utf-8")
    before = json.loads((SAVED / "evidence-local.json").read_text("utf-8"))
    assert list(json.loads(saved)) == list(before)  # the same keys in the same order
    assert Evidence.from_json(saved) == run.complete(outcome.evidence, outcome.calls)
