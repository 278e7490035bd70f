"""``--mle-network``: none, bridge (with its warning) and allow:HOST,... (checked, Docker only)."""

from __future__ import annotations

import json

import pytest

from pytest_mlebench.values.network_policy import NetworkPolicy, parse_network
from tests.plugin.conftest import ExampleProject


@pytest.mark.parametrize(
    ("text", "policy"),
    [
        ("none", NetworkPolicy("none")),
        ("bridge", NetworkPolicy("bridge")),
        ("allow:api.openai.com", NetworkPolicy("allow", ("api.openai.com",))),
        (
            "allow:PyPI.org, files.pythonhosted.org",
            NetworkPolicy("allow", ("pypi.org", "files.pythonhosted.org")),
        ),
        ("allow:10.0.0.7,::1,10.0.0.7", NetworkPolicy("allow", ("10.0.0.7", "::1"))),
    ],
)
def test_policies_parse(text: str, policy: NetworkPolicy) -> None:
    assert parse_network(text) == policy


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("allow:https://api.openai.com", "'https://api.openai.com'"),
        ("allow:api.openai.com:443", "'api.openai.com:443'"),
        ("allow:*.openai.com", "'*.openai.com'"),
        ("allow:good.org,bad host", "'bad host'"),
        ("allow:-x.org", "'-x.org'"),
        ("allow:a..b", "'a..b'"),
        ("allow:", "empty host"),
        ("host", "expected none, bridge or allow:HOST"),
    ],
)
def test_a_malformed_policy_names_the_bad_host(text: str, named: str) -> None:
    with pytest.raises(ValueError, match="expected none, bridge or allow:HOST") as caught:
        parse_network(text)
    assert named in str(caught.value)


def test_a_malformed_host_is_a_usage_error(project: ExampleProject) -> None:
    result = project.run("--mle-network", "allow:pypi.org,bad_host!")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*invalid network 'allow:pypi.org,bad_host!' from option --mle-network: 'bad_host!' is "
            "not a host name or IP address*"
        ]
    )


def test_a_malformed_host_in_an_agent_config_is_a_usage_error(project: ExampleProject) -> None:
    agent = project.root / "netagent"
    agent.mkdir()
    (agent / "config.yaml").write_text("a:\n  start: start.sh\n  network: allow:x.org:80\n")
    (agent / "start.sh").write_text("true\n")
    result = project.run("--mle-agent", str(agent))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid network 'allow:x.org:80': 'x.org:80' is not a host*"])


def test_bridge_warns_and_the_record_says_not_isolated(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-network", "bridge")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["mlebench WARNING: network bridge: the sandbox is NOT isolated*"])
    [record] = [json.loads(line) for line in (project.root / "reports" / "results.jsonl").open()]
    assert record["network"] == "bridge"
    assert record["isolated"] is False
    assert record["egress"]["isolated"] is False and "NOT isolated" in record["egress"]["warning"]


def test_allow_on_the_local_backend_is_an_error_naming_docker(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-network", "allow:pypi.org")
    result.assert_outcomes(failed=1)
    [record] = [json.loads(line) for line in (project.root / "reports" / "results.jsonl").open()]
    assert record["outcome"] == "error"
    assert "use --mle-sandbox docker" in record["reason"]
    assert record["network"] == "allow:pypi.org"


def test_the_agent_config_names_the_network_and_the_option_wins(project: ExampleProject) -> None:
    agent = project.root / "netagent"
    agent.mkdir()
    (agent / "config.yaml").write_text("a:\n  start: start.sh\n  network: bridge\n")
    (agent / "start.sh").write_text(
        'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'
    )
    project.run("-k", "toy-a", "--mle-agent", str(agent)).assert_outcomes(passed=1)
    project.run("-k", "toy-a", "--mle-agent", str(agent), "--mle-network", "none")
    lines = (project.root / "reports" / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["network"] for line in lines] == ["bridge", "none"]
