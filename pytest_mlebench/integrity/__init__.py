"""Integrity of a run: evidence collected while the agent works, checks after, a policy.

The package is organised by job: :mod:`.model` (flags and the report in the record),
:mod:`.processes` (the process audit,
sampled from outside the agent's reach), :mod:`.inventory` (file times and pre-existing copies of
the submission), :mod:`.monitor` (the collectors wrapped around one run), :mod:`.rules`,
:mod:`.probing`, :mod:`.similarity`, :mod:`.network` (refused egress attempts) and
:mod:`.checks` (the checks after the run), :mod:`.disclosure`, :mod:`.crossrun` (cross-run checks
at the end of a session), :mod:`.judge` and :mod:`.judge_prompt` (the optional LLM judge) and
:mod:`.offline` (the checks again on saved runs; the ``mlebench integrity`` command that drives it
is :mod:`pytest_mlebench.integrity_command`). The policy (patterns, severities, thresholds) is an
option value: :mod:`pytest_mlebench.values.integrity_policy`. ``docs/integrity.md`` describes
every check and the default policy.

Nothing here imports the settings: the runner and the command hand the checks plain values
(:class:`~pytest_mlebench.integrity.monitor.IntegrityOptions`). Nothing is imported here
eagerly. The validator's per-call row sketch is the sandbox's
(:mod:`pytest_mlebench.sandbox.fingerprint`); :mod:`.probing` reads it.
"""
