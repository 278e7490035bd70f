"""Integrity of a run: evidence collected while the agent works, checks after, a policy.

The package is organised by job: :mod:`.model` (flags and the report in the record),
:mod:`.policy` (the YAML policy: patterns, severities, thresholds), :mod:`.processes` (the
process audit, sampled from outside the agent's reach), :mod:`.inventory` (file times and
pre-existing copies of the submission),
:mod:`.monitor` (the collectors wrapped around one run), :mod:`.rules`, :mod:`.probing`,
:mod:`.similarity`, :mod:`.network` (refused egress attempts) and :mod:`.checks` (the checks
after the run), :mod:`.disclosure`, :mod:`.crossrun` (cross-run checks at the end of a session),
:mod:`.judge` and :mod:`.judge_prompt` (the optional LLM judge) and :mod:`.offline`
(``mlebench integrity``). ``docs/integrity.md`` describes
every check and the default policy.

The validator's per-call row sketch is the sandbox's
(:mod:`pytest_mlebench.sandbox.fingerprint`); :mod:`.probing` reads it. Nothing is imported here
eagerly.
"""
