"""``manifest.json`` beside ``summary.json``, and the session's manifest made whole at its end.

The manifest also travels inside ``summary.json`` (its ``manifest`` key), so one file carries
its numbers and their conditions; ``manifest.json`` is the same object on its own, for a reader
that wants only the conditions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.manifest.render import manifest_lines
from pytest_mlebench.manifest.session_facts import with_session_facts
from pytest_mlebench.report.session_report import SessionReport, Summary
from pytest_mlebench.session import MLEBenchSession

MANIFEST_FILE = "manifest.json"


def with_session_manifest(report: SessionReport, mle_session: MLEBenchSession) -> SessionReport:
    """``report`` whose summary's manifest holds the session's facts (harness, agent digest,
    providers, GPU type, known issues) besides what its records say.

    The GPU type is this machine's driver's word on the granted devices; a run on a Ray node
    (its record's ``node``) had another machine's GPUs, so then the type stays unknown.
    """
    layout = report.summary.to_dict()
    manifest = layout.get("manifest")
    if not isinstance(manifest, dict):
        return report
    granted = [
        str(gpu)
        for record in report.records
        for gpu in (record.resources.get("gpus") or ())
        if record.ran
    ]
    if any(record.node is not None for record in report.records):
        granted = []
    whole = with_session_facts(manifest, mle_session, granted)
    return replace(report, summary=Summary.from_layout({**layout, "manifest": whole}))


@dataclass(frozen=True)
class ManifestWriter:
    """Writes ``manifest.json`` of a built report and shows the manifest in three lines."""

    def write(self, report: SessionReport) -> list[str]:
        manifest: Any = report.summary.get("manifest")
        if not report.built or not isinstance(manifest, dict):
            return []
        path = report.out_dir / MANIFEST_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(manifest, indent=2, allow_nan=False) + "\n")
        return [f"manifest: {path}", *(f"  {line}" for line in manifest_lines(manifest))]
