"""What the harness's image builder refuses in a Dockerfile before the engine sees it."""

from __future__ import annotations

import pytest

from pytest_mlebench.eng.builder_spec import parse_builder
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.sandbox.dockerfile_rules import (
    dockerfile_refusals,
    instructions,
    read_dockerfile,
)

ALLOWED = ["pytest-mlebench-agent:latest"]


def test_an_allowed_from_builds_and_is_reported_as_used() -> None:
    refusals, used = read_dockerfile("FROM pytest-mlebench-agent:latest\nRUN true\n", ALLOWED)
    assert refusals == []
    assert used == ["pytest-mlebench-agent:latest"]


def test_a_registry_image_is_refused_with_the_allowed_list() -> None:
    (line,) = dockerfile_refusals("FROM python:3.11-slim\n", ALLOWED)
    assert "line 1: FROM python:3.11-slim is not an allowed local image" in line
    assert "pytest-mlebench-agent:latest" in line and "never pulls" in line


def test_an_untagged_name_means_latest() -> None:
    assert dockerfile_refusals("FROM pytest-mlebench-agent\n", ALLOWED) == []
    assert dockerfile_refusals("FROM pytest-mlebench-agent:other\n", ALLOWED)


def test_multi_stage_every_from_is_checked_and_stages_may_be_named() -> None:
    text = (
        "FROM pytest-mlebench-agent:latest AS deps\n"
        "RUN true\n"
        "FROM deps AS app\n"
        "COPY --from=deps /etc/hostname /x\n"
        "COPY --from=0 /etc/hostname /y\n"
        "FROM scratch\n"
        "COPY --from=app /x /x\n"
    )
    assert dockerfile_refusals(text, ALLOWED) == []
    bad = "FROM pytest-mlebench-agent:latest AS deps\nFROM alpine:3 AS app\n"
    (line,) = dockerfile_refusals(bad, ALLOWED)
    assert line.startswith("line 2: FROM alpine:3")


def test_copy_from_an_image_is_refused() -> None:
    text = "FROM pytest-mlebench-agent:latest\nCOPY --from=busybox:1 /bin/sh /sh\n"
    (line,) = dockerfile_refusals(text, ALLOWED)
    assert "COPY --from busybox:1 is not an allowed local image" in line


def test_arg_defaults_are_substituted_in_from() -> None:
    good = "ARG BASE=pytest-mlebench-agent\nARG TAG=latest\nFROM ${BASE}:${TAG}\n"
    assert dockerfile_refusals(good, ALLOWED) == []
    bad = "ARG PYTHON_IMAGE=python:3.11-slim\nFROM ${PYTHON_IMAGE} AS runtime\n"
    (line,) = dockerfile_refusals(bad, ALLOWED)
    assert "FROM python:3.11-slim" in line
    fallback = "ARG BASE\nFROM ${BASE:-python:3.12}\n"
    assert "FROM python:3.12" in dockerfile_refusals(fallback, ALLOWED)[0]
    empty = "ARG BASE\nFROM $BASE\n"
    assert "empty image" in dockerfile_refusals(empty, ALLOWED)[0]


def test_an_arg_after_the_first_from_does_not_reach_a_later_from() -> None:
    # as in the engine: a FROM sees only the ARGs declared before the first FROM
    text = "ARG BASE=pytest-mlebench-agent:latest\nFROM $BASE\nARG BASE=python:3.11\nFROM $BASE\n"
    assert dockerfile_refusals(text, ALLOWED) == []


def test_add_of_a_url_or_a_repository_is_refused() -> None:
    for source in ("https://example.org/get-pip.py", "git@github.com:o/r.git", "ftp://h/x"):
        text = f"FROM pytest-mlebench-agent:latest\nADD {source} /tmp/x\n"
        (line,) = dockerfile_refusals(text, ALLOWED)
        assert "a URL is fetched from the network" in line
    json_form = 'FROM pytest-mlebench-agent:latest\nADD ["http://h/x", "/x"]\n'
    assert dockerfile_refusals(json_form, ALLOWED)
    assert dockerfile_refusals("FROM pytest-mlebench-agent:latest\nADD a.tar /x\n", ALLOWED) == []


@pytest.mark.parametrize("kind", ["bind", "ssh", "secret"])
def test_run_mounts_that_reach_outside_the_context_are_refused(kind: str) -> None:
    text = f"FROM pytest-mlebench-agent:latest\nRUN --mount=type={kind},target=/x true\n"
    (line,) = dockerfile_refusals(text, ALLOWED)
    assert f"RUN --mount=type={kind} is refused" in line


def test_run_network_and_security_flags_are_refused_cache_mounts_are_not() -> None:
    base = "FROM pytest-mlebench-agent:latest\n"
    assert dockerfile_refusals(base + "RUN --network=host true\n", ALLOWED)
    assert dockerfile_refusals(base + "RUN --security=insecure true\n", ALLOWED)
    assert dockerfile_refusals(base + "RUN --mount=type=cache,target=/c true\n", ALLOWED) == []
    image_mount = base + "RUN --mount=type=cache,from=alpine:3,target=/c true\n"
    assert "RUN --mount from alpine:3" in dockerfile_refusals(image_mount, ALLOWED)[0]


def test_continuations_comments_and_the_escape_directive() -> None:
    text = "# escape=`\nFROM `\n  # a comment inside the instruction\n  python:3.11\n"
    found = instructions(text)
    assert [(item.keyword, item.text, item.line) for item in found] == [("FROM", "python:3.11", 2)]
    assert dockerfile_refusals(text, ALLOWED)
    assert dockerfile_refusals("# only a comment\n", ALLOWED) == [
        "the Dockerfile has no FROM instruction"
    ]


def test_the_builder_block_is_validated() -> None:
    assert parse_builder(None, "config.yaml") is None
    spec = parse_builder({"from": ALLOWED, "verify": {"run": {"args": ["predict"]}}}, "c.yaml")
    assert spec is not None and spec.allowed_from == tuple(ALLOWED)
    assert spec.timeout_s == 180 and spec.endpoint and spec.dockerfile == "Dockerfile"
    assert spec.run is not None and spec.run.output == "/output"
    with pytest.raises(ConfigError, match="builder.from must list"):
        parse_builder({"from": []}, "c.yaml")
    with pytest.raises(ConfigError, match="unknown keys privileged"):
        parse_builder({"from": ALLOWED, "privileged": True}, "c.yaml")
    with pytest.raises(ConfigError, match="timeout_s must be a positive number"):
        parse_builder({"from": ALLOWED, "timeout_s": 0}, "c.yaml")
    with pytest.raises(ConfigError, match="output must be an absolute path"):
        parse_builder({"from": ALLOWED, "verify": {"run": {"output": "out"}}}, "c.yaml")


def test_an_add_url_hidden_behind_arg_or_env_is_refused() -> None:
    via_arg = (
        "ARG URL=https://example.org/x\nFROM pytest-mlebench-agent:latest\nARG URL\nADD $URL /x\n"
    )
    assert "a URL is fetched" in dockerfile_refusals(via_arg, ALLOWED)[0]
    via_env = "FROM pytest-mlebench-agent:latest\nENV SRC=http://h/x\nADD ${SRC} /x\n"
    assert "a URL is fetched" in dockerfile_refusals(via_env, ALLOWED)[0]
    legacy = "FROM pytest-mlebench-agent:latest\nENV SRC http://h/x\nADD $SRC /x\n"
    assert dockerfile_refusals(legacy, ALLOWED)
    onbuild = "FROM pytest-mlebench-agent:latest\nONBUILD ADD https://h/x /x\n"
    assert "ONBUILD is refused" in dockerfile_refusals(onbuild, ALLOWED)[0]
