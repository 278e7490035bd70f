"""What the harness says about the sandbox's network (its policy is a value:
:mod:`pytest_mlebench.values.network_policy`)."""

from __future__ import annotations

BRIDGE_WARNING = (
    "network bridge: the sandbox is NOT isolated, the agent can reach any address "
    "(name the hosts it needs with --mle-network allow:HOST,...)"
)
