"""The socket endpoints under hostile requests: every malformed one answered, the server kept.

A header whose ``size`` is a list, a number, ``null`` or a string once raised in the serving thread
and ended it, so every later call hung; these tests send such headers (a table, then a fuzz of
arbitrary JSON and bytes) and check that each gets an error answer and a well-formed call after
it still gets its real answer. The clients' timeout is checked against a fake peer that accepts
and never answers.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.build_endpoint import BuildReply, BuildServer
from pytest_mlebench.sandbox.socket_endpoint import SocketEndpoint
from pytest_mlebench.sandbox.validator import CLIENT_SCRIPT, ValidatorServer


def fake_validate(path: Path) -> ScoreResult:
    """A named fake of the grading check: valid when the file starts with ``id,label``."""
    with path.open("rb") as handle:
        head = handle.read(9)
    return ScoreResult(valid=True) if head == b"id,label\n" else ScoreResult.invalid("bad")


def broken_validate(path: Path) -> ScoreResult:
    """A named fake whose check breaks (the answers are broken, say)."""
    raise RuntimeError("the answers cannot be read")


def fake_build(context: Path, dockerfile: str) -> BuildReply:
    """A named fake of the image builder: built, when the context has the Dockerfile."""
    return BuildReply(ok=(context / dockerfile).is_file(), log="step 1\n", wall_s=0.01)


@pytest.fixture(scope="module")
def validator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ValidatorServer]:
    folder = tmp_path_factory.mktemp("v")
    server = ValidatorServer(folder / "v.sock", fake_validate, min_interval=0.0)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuildServer]:
    folder = tmp_path_factory.mktemp("b")
    server = BuildServer(folder / "b.sock", fake_build, min_interval=0.0)
    server.start()
    yield server
    server.stop()


def send(server: SocketEndpoint, raw: bytes, body: bytes = b"") -> dict[str, object]:
    """One raw request; the server's last JSON line (its answer)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(10)
        conn.connect(str(server.socket_path))
        conn.sendall(raw)
        reader = conn.makefile("rb")
        answer = json.loads(reader.readline(1 << 16))
        if answer.get("ready"):
            conn.sendall(body)
            conn.shutdown(socket.SHUT_WR)
            answer = json.loads(reader.readline(1 << 16))
    assert isinstance(answer, dict)
    return answer


def still_serves(server: ValidatorServer) -> None:
    body = b"id,label\n1,0\n"
    header = json.dumps({"name": "s.csv", "size": len(body)}).encode() + b"\n"
    assert send(server, header, body) == {"valid": True, "reason": None}


BAD_HEADERS = [
    b'{"size": [1, 2]}\n',
    b'{"size": null}\n',
    b'{"size": 1.5}\n',
    b'{"size": "12"}\n',
    b'{"size": true}\n',
    b'{"size": -4}\n',
    b'{"size": {"a": 1}}\n',
    b"{}\n",
    b"[1, 2]\n",
    b'"size"\n',
    b"17\n",
    b"null\n",
    b"\xff\xfe not utf-8\n",
    b"[" * 100_000 + b"\n",  # deeper than the parser's recursion limit
    b"x" * 200_000,  # one line longer than the header read, no line break
    b'{"size": 1e999}\n',
]


@pytest.mark.parametrize("raw", BAD_HEADERS, ids=range(len(BAD_HEADERS)))
def test_a_malformed_header_gets_an_error_and_the_server_goes_on(
    validator: ValidatorServer, raw: bytes
) -> None:
    answer = send(validator, raw)
    assert "error" in answer
    still_serves(validator)


def test_a_body_that_stops_short_is_an_error(validator: ValidatorServer) -> None:
    answer = send(validator, b'{"size": 100}\n', b"id,label\n")
    assert "connection closed" in str(answer["error"])
    still_serves(validator)


def test_a_broken_check_is_an_answer_not_a_dead_server(tmp_path: Path) -> None:
    server = ValidatorServer(tmp_path / "v.sock", broken_validate, min_interval=0.0)
    server.start()
    try:
        first = send(server, b'{"size": 3}\n', b"a,b")
        second = send(server, b'{"size": 3}\n', b"a,b")
    finally:
        server.stop()
    assert first == second == {"error": "the request failed (RuntimeError)"}


@pytest.mark.parametrize(
    "header",
    [{"size": 3, "dockerfile": ["x"]}, {"size": 3, "dockerfile": "D" * 5000}, {"size": None}],
)
def test_the_build_endpoint_refuses_bad_fields_and_goes_on(
    builder: BuildServer, header: dict[str, object]
) -> None:
    assert "error" in send(builder, json.dumps(header).encode() + b"\n")
    assert "error" in send(builder, b'{"size": 3}\n', b"abc")  # not a tar: still an answer
    assert send(builder, b"[]\n").get("error")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(header=st.dictionaries(st.sampled_from(["size", "name", "x"]), json_values) | json_values)
def test_fuzzed_headers_never_stop_the_server(validator: ValidatorServer, header: object) -> None:
    raw = json.dumps(header).encode() + b"\n"
    answer = send(validator, raw, b"")
    assert answer.get("error") or "valid" in answer
    still_serves(validator)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=300))
def test_fuzzed_bytes_never_stop_the_server(validator: ValidatorServer, raw: bytes) -> None:
    send(validator, raw + b"\n")
    still_serves(validator)


def test_the_client_gives_up_on_a_server_that_never_answers(tmp_path: Path) -> None:
    path = tmp_path / "silent.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)
    held: list[socket.socket] = []
    accepting = threading.Thread(target=lambda: held.append(listener.accept()[0]), daemon=True)
    accepting.start()
    file = tmp_path / "s.csv"
    file.write_text("id,label\n")
    try:
        done = subprocess.run(
            [sys.executable, str(CLIENT_SCRIPT), str(file)],
            env={"MLEBENCH_VALIDATOR_SOCKET": str(path), "MLEBENCH_CLIENT_TIMEOUT": "0.5"},
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        listener.close()
        for conn in held:
            conn.close()
    assert done.returncode == 2
    assert "did not answer within 0.5 s" in done.stderr


def test_a_context_is_unpacked_within_its_bounds(tmp_path: Path) -> None:
    import tarfile

    from pytest_mlebench.sandbox.build_endpoint import ContextTooLarge, unpack_context

    folder = tmp_path / "ctx"
    folder.mkdir()
    for n in range(5):
        (folder / f"f{n}").write_bytes(b"x" * 100)
    archive = tmp_path / "ctx.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(folder, arcname=".")
    unpack_context(archive, tmp_path / "ok")
    with pytest.raises(ContextTooLarge):
        unpack_context(archive, tmp_path / "many", max_members=3)
    with pytest.raises(ContextTooLarge):
        unpack_context(archive, tmp_path / "big", max_bytes=250)


def test_stop_ends_the_serving_thread_without_waiting_out_its_accept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stop knocks once on its own socket, so the thread's ``accept`` returns at once and
    the stop's join sees it end; with an accept timeout longer than that join (5 s), a stop
    without the knock returns with the thread still waiting."""
    real_settimeout = socket.socket.settimeout

    def slow_accept(self: socket.socket, value: float | None) -> None:
        real_settimeout(self, 30.0 if value == 0.2 else value)

    monkeypatch.setattr(socket.socket, "settimeout", slow_accept)
    endpoint = SocketEndpoint(tmp_path / "endpoint.sock", min_interval=0.0)
    endpoint.start()
    thread = endpoint._thread
    assert thread is not None
    endpoint.stop()
    assert not thread.is_alive()
    assert not (tmp_path / "endpoint.sock").exists()
