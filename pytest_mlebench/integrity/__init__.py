"""Integrity of a run: a watermark, evidence collected while the agent works, checks, a policy.

The package is organised by job: :mod:`.nonce` (the run's watermark, a frozen value the sandbox
job carries), :mod:`.watch` (the collectors wrapped around the agent in the sandbox phase) and
:mod:`.run_evidence` (what they hand back, typed, and its file ``integrity/evidence.json``),
:mod:`.processes` (the process audit, sampled from outside the agent's reach), :mod:`.inventory`
(file times and pre-existing copies of the submission), :mod:`.monitor` (the run's one
:class:`~.monitor.IntegrityRun`), :mod:`.checks` (the table of checks after the run) over
:mod:`.watermark`, :mod:`.rules`, :mod:`.probing`, :mod:`.similarity` and
:mod:`.egress_attempts`, :mod:`.disclosure`, :mod:`.crossrun` (cross-run checks at the end of a
session), :mod:`.judge` and :mod:`.judge_prompt` (the optional LLM judge) and :mod:`.offline`
(the checks again on saved runs; the ``mlebench integrity`` command that drives it is
:mod:`pytest_mlebench.integrity_command`). The policy (patterns, severities, thresholds) is an
option value: :mod:`pytest_mlebench.values.integrity_policy`. ``docs/integrity.md`` describes
every check and the default policy.

Nothing here imports the settings: the runner and the command hand the checks plain values
(:class:`~pytest_mlebench.integrity.monitor.IntegrityOptions`). Nothing is imported here
eagerly. The validator's per-call row sketch is the sandbox's
(:mod:`pytest_mlebench.sandbox.fingerprint`); :mod:`.probing` reads it.
"""
