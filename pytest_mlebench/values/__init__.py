"""Value types and parsers of option values, below every module that uses them.

The settings table (:mod:`pytest_mlebench.settings`) parses each option with one of these; the
features that use a value (the gateway, the sandbox, the integrity checks, the report) import its
type from here too, so the settings never import a feature and a feature never imports the
settings. Each module holds one kind of value and imports nothing of the package but
:mod:`pytest_mlebench.errors`; a parser raises ``ValueError`` saying what is allowed.

- :mod:`.cost_limit`: ``--mle-max-cost-increase`` (a share of the baseline's cost, or dollars).
- :mod:`.providers`: LLM providers, their base URLs (``--mle-gateway-upstream``) and model names
  (``--mle-judge``).
- :mod:`.network_policy`: ``--mle-network`` (``none``, ``bridge``, ``allow:HOST,...``).
- :mod:`.severity`: the severity scale of integrity flags.
- :mod:`.integrity_policy`: the integrity policy, read from YAML (``--mle-integrity-policy``).
- :mod:`.require_levels`: what a run must reach to pass (``--mle-require``).
- :mod:`.time_limit`: the seconds one run gets (``--mle-time-limit``, else the competition's).
"""
