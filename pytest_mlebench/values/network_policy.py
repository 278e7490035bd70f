"""``--mle-network`` as a value: ``none``, ``bridge`` or ``allow:HOST[,HOST...]``, checked once.

Parsed from ``--mle-network`` (or an agent config's ``network:``). ``allow`` names the only hosts
the sandbox may reach, through the harness's proxy (:mod:`pytest_mlebench.sandbox.docker.egress`);
a host is a DNS name or an IP address, nothing else (no scheme, port, path or wildcard), because
the proxy matches it whole.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

MODES = ("none", "bridge", "allow")
LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
USAGE = "expected none, bridge or allow:HOST[,HOST...] (e.g. allow:api.openai.com,pypi.org)"


@dataclass(frozen=True)
class NetworkPolicy:
    """A parsed network setting."""

    mode: str
    hosts: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"allow:{','.join(self.hosts)}" if self.mode == "allow" else self.mode


def parse_network(text: str) -> NetworkPolicy:
    """The policy ``text`` spells; ``ValueError`` names a malformed host and the expected form."""
    spelled = str(text).strip()
    if spelled in ("none", "bridge"):
        return NetworkPolicy(spelled)
    mode, sep, hosts = spelled.partition(":")
    if mode != "allow" or not sep:
        raise ValueError(USAGE)
    names = tuple(host.strip().lower() for host in hosts.split(","))
    for host in names:
        if not is_host(host):
            raise ValueError(
                f"{host!r} is not a host name or IP address; {USAGE}"
                if host
                else f"empty host; {USAGE}"
            )
    return NetworkPolicy("allow", tuple(dict.fromkeys(names)))


def is_host(text: str) -> bool:
    """Whether ``text`` is a DNS host name or an IP address (and nothing more)."""
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        pass
    labels = text.rstrip(".").split(".")
    return 0 < len(text) <= 253 and all(LABEL.match(label) for label in labels)


def network_text(value: object) -> str:
    """The setting's parser: the policy's canonical spelling."""
    return str(parse_network(str(value)))
