"""``build_image.sh``'s host side: the client sends a folder, the server builds, never scores."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.build_endpoint import (
    CLIENT_SCRIPT,
    BuildReply,
    BuildServer,
    unpack_context,
)


class FakeBuild:
    """A named fake of the harness's builder: builds when the Dockerfile says FROM ok."""

    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []

    def __call__(self, context: Path, dockerfile: str) -> BuildReply:
        files = {
            str(path.relative_to(context)): path.read_text()
            for path in sorted(context.rglob("*"))
            if path.is_file()
        }
        self.seen.append(files)
        ok = files.get(dockerfile, "").startswith("FROM ok")
        return BuildReply(
            ok, "Step 1/1 : FROM ok\n" if ok else "refused: FROM\n", 0.5, "sha256:1", 10
        )


def serve(tmp_path: Path, build: FakeBuild, interval: float = 0.0) -> BuildServer:
    server = BuildServer(tmp_path / "sock" / "build.sock", build, min_interval=interval)
    server.start()
    return server


def ask(server: BuildServer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CLIENT_SCRIPT), *args],
        env={"MLEBENCH_BUILD_SOCKET": str(server.socket_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    (folder / "src").mkdir(parents=True)
    (folder / "Dockerfile").write_text("FROM ok\n")
    (folder / "src" / "app.py").write_text("print(1)\n")
    return folder


def test_a_build_prints_the_log_and_is_logged_without_a_score(
    tmp_path: Path, workspace: Path
) -> None:
    build = FakeBuild()
    server = serve(tmp_path, build)
    try:
        done = ask(server, str(workspace))
        (workspace / "Other.dockerfile").write_text("FROM bad\n")
        failed = ask(server, str(workspace), "-f", "Other.dockerfile")
    finally:
        server.stop()
    assert done.returncode == 0 and "Step 1/1 : FROM ok" in done.stdout
    assert "built sha256:1 (10 bytes" in done.stdout
    assert failed.returncode == 1 and "build failed" in failed.stdout
    assert build.seen[0] == {"Dockerfile": "FROM ok\n", "src/app.py": "print(1)\n"}
    assert [(call.ok, call.dockerfile) for call in server.calls] == [
        (True, "Dockerfile"),
        (False, "Other.dockerfile"),
    ]
    assert all(len(call.sha256) == 64 and call.bytes > 0 for call in server.calls)
    assert server.calls[0].sha256 != server.calls[1].sha256  # the context changed
    assert "score" not in (done.stdout + failed.stdout).lower()
    assert not server.socket_path.exists()


def test_requests_closer_than_the_interval_are_refused_and_counted(
    tmp_path: Path, workspace: Path
) -> None:
    server = serve(tmp_path, FakeBuild(), interval=60.0)
    try:
        first = ask(server, str(workspace))
        second = ask(server, str(workspace))
    finally:
        server.stop()
    assert first.returncode == 0
    assert second.returncode == 2 and "rate limited" in second.stderr
    assert len(server.calls) == 1 and server.refused == 1


def test_the_client_without_a_builder_exits_2(tmp_path: Path, workspace: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(CLIENT_SCRIPT), str(workspace)],
        env={"MLEBENCH_BUILD_SOCKET": str(tmp_path / "none.sock")},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and "could not be reached" in done.stderr


@pytest.mark.parametrize(
    ("name", "kind", "link"),
    [
        ("../escape.txt", tarfile.REGTYPE, ""),
        ("out", tarfile.SYMTYPE, "/etc/passwd"),
        ("dev", tarfile.CHRTYPE, ""),
    ],
)
def test_unpack_refuses_members_that_leave_the_folder(
    tmp_path: Path, name: str, kind: bytes, link: str
) -> None:
    archive = tmp_path / "context.tar"
    with tarfile.open(archive, "w") as tar:
        info = tarfile.TarInfo(name)
        info.type = kind
        info.linkname = link
        data = b"x" if kind == tarfile.REGTYPE else b""
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data) if data else None)
    with pytest.raises(tarfile.TarError):
        unpack_context(archive, tmp_path / "context")
    assert not (tmp_path / "escape.txt").exists()


def test_unpack_puts_an_absolute_member_inside_the_folder(tmp_path: Path) -> None:
    archive = tmp_path / "context.tar"
    with tarfile.open(archive, "w") as tar:
        info = tarfile.TarInfo("/abs.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    unpack_context(archive, tmp_path / "context")
    assert (tmp_path / "context" / "abs.txt").read_text() == "x"
