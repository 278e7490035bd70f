"""When the inventory may check only the files that can be copies, and which those are.

:mod:`pytest_mlebench.integrity.inventory_index` on a folder shaped like an overlay upper
directory (whiteouts are character devices 0:0, which only root can make; a ``.wh.`` name is the
other form the engine reads) and an image index kept in the module's cache. Whatever could hide
a copy from the candidates must send the script back to its walk (``None``).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.integrity import inventory_index
from pytest_mlebench.integrity.inventory_index import (
    ENGINE_FILES,
    Overlay,
    candidates,
    forget_indexes,
    remember_index,
    upper_entries,
)

SUBMISSION = "/home/submission/submission.csv"
EXCLUDE = ["/proc", "/sys", "/dev", "/run", "/home/data", "/home/submission"]
IMAGE_FILES = [["/etc/answers.csv", 5], ["/usr/lib/other.csv", 7], ["/usr/bin/tool", 5]]


@pytest.fixture
def overlay(tmp_path: Path) -> Iterator[Overlay]:
    """An overlay whose image holds :data:`IMAGE_FILES` and whose run wrote a 5-byte submission."""
    upper = tmp_path / "upper"
    write(upper, SUBMISSION, b"a,b\n1")
    made = Overlay("sha256:image", upper)
    assert remember_index(made, {"complete": True, "files": IMAGE_FILES})
    yield made
    forget_indexes(on_disk=True)


def write(upper: Path, path: str, content: bytes) -> Path:
    target = upper / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    return target


def test_the_candidates_are_the_image_and_run_files_of_the_submission_size(
    overlay: Overlay,
) -> None:
    write(overlay.upper, "/home/nonroot/copy.csv", b"x,y\n2")  # the run's own, same size
    write(overlay.upper, "/home/nonroot/big.csv", b"longer content")
    write(overlay.upper, "/home/submission/other.csv", b"12345")  # in an excluded folder
    found = candidates(overlay, SUBMISSION, EXCLUDE)
    assert found is not None and found["size"] == 5
    expected = {"/etc/answers.csv", "/usr/bin/tool", "/home/nonroot/copy.csv", *ENGINE_FILES}
    assert set(found["paths"]) == expected


def test_no_index_for_the_image_means_a_walk(overlay: Overlay) -> None:
    assert candidates(Overlay("sha256:another", overlay.upper), SUBMISSION, EXCLUDE) is None


def test_a_submission_the_run_did_not_write_means_a_walk(overlay: Overlay) -> None:
    (overlay.upper / SUBMISSION.lstrip("/")).unlink()
    assert candidates(overlay, SUBMISSION, EXCLUDE) is None


def test_a_deleted_image_file_keeps_the_shortcut_a_deleted_folder_ends_it(
    overlay: Overlay,
) -> None:
    # A file moved away is copied up to its new path first: its old one is only a whiteout.
    write(overlay.upper, "/usr/lib/.wh.other.csv", b"")
    assert candidates(overlay, SUBMISSION, EXCLUDE) is not None
    # A folder of the image renamed (redirect_dir) leaves its content in the lower layer.
    write(overlay.upper, "/etc/.wh.ssl", b"")
    assert candidates(overlay, SUBMISSION, EXCLUDE) is None


def test_an_overlay_redirect_mark_ends_the_shortcut(overlay: Overlay) -> None:
    moved = overlay.upper / "opt" / "moved"
    moved.mkdir(parents=True)
    try:  # the engine's own is trusted.overlay.redirect; any namespace counts
        os.setxattr(moved, "user.overlay.redirect", b"/opt/x")
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            pytest.skip(f"no user attributes on {moved}'s file system")
        raise
    assert upper_entries(overlay.upper) is None
    assert candidates(overlay, SUBMISSION, EXCLUDE) is None


def test_too_many_candidates_or_entries_mean_a_walk(
    overlay: Overlay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inventory_index, "MAX_CANDIDATES", 4)
    assert candidates(overlay, SUBMISSION, EXCLUDE) is None  # 2 image files + 3 engine files
    monkeypatch.setattr(inventory_index, "MAX_CANDIDATES", 100)
    assert candidates(overlay, SUBMISSION, EXCLUDE) is not None
    assert upper_entries(overlay.upper, limit=2) is None


def test_links_in_the_upper_directory_are_not_followed(overlay: Overlay, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "/secret.csv", b"12345")
    (overlay.upper / "home" / "nonroot").mkdir(parents=True)
    (overlay.upper / "home" / "nonroot" / "out").symlink_to(outside)
    entries = upper_entries(overlay.upper)
    assert entries is not None
    assert not [p for p in entries.files if "secret" in p]


@pytest.mark.parametrize(
    "answer",
    [
        {"complete": False, "files": IMAGE_FILES},  # the walk ran out of time
        {"complete": True},
        {"complete": True, "files": [["/etc/a", "5"]]},
        {"complete": True, "files": [["/etc/a", True]]},
        {"complete": True, "files": [["/etc/a"]]},
        {"error": "the inventory script said nothing"},
    ],
)
def test_an_incomplete_or_malformed_index_is_not_kept(answer: dict[str, object]) -> None:
    image = Overlay("sha256:bad", Path("/nonexistent"))
    assert not remember_index(image, answer)
    assert not inventory_index.has_index(image)


def test_an_index_is_read_back_from_disk_by_a_process_that_did_not_take_it(
    overlay: Overlay,
) -> None:
    forget_indexes()  # memory only: as a later session, or another worker, starts
    assert inventory_index.has_index(overlay)
    found = candidates(overlay, SUBMISSION, EXCLUDE)
    assert found is not None and "/etc/answers.csv" in found["paths"]


def test_an_index_of_another_scope_or_a_damaged_file_is_not_used(overlay: Overlay) -> None:
    forget_indexes()
    other = Overlay(overlay.image, overlay.upper, scope="/elsewhere")
    assert not inventory_index.has_index(other)  # taken leaving other folders out
    [path] = [
        path
        for path in inventory_index.index_dir().glob("*.json")
        if '"image":"sha256:image","scope":""' in path.read_text()
    ]
    path.write_text('{"image": "sha256:image", "scope": "", "complete": true, "files": [["/x"]]}')
    assert not inventory_index.has_index(overlay)
