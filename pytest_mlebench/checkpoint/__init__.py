"""Snapshots of live runs and the resume of runs whose session died (``docs/usage.md``).

:mod:`.snapshot` takes one snapshot of a live sandbox into the run folder, :mod:`.snapshotter`
takes them every ``--mle-checkpoint-every`` beside the agent, :mod:`.marker` leaves the
"started" marker a dead run is found by, :mod:`.resume` says where a run resumes from and what
the resumed agent is told, :mod:`.resume_plan` picks the runs ``--mle-resume`` resumes, and
:mod:`.resume_hooks` selects them in the session.
"""

from __future__ import annotations

from pytest_mlebench.checkpoint.resume import ResumePoint, resume_point
from pytest_mlebench.checkpoint.snapshot import latest_snapshot

__all__ = ["ResumePoint", "latest_snapshot", "resume_point"]
