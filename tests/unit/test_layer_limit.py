"""The writable layer's size limit is asked for only where the engine can enforce it."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.sandbox.docker import storage


class FakeEngine:
    """A named fake of the engine's ``info``: a storage driver and its backing file system."""

    def __init__(self, driver: str, backing: str) -> None:
        self.answer = {"Driver": driver, "DriverStatus": [["Backing Filesystem", backing]]}

    def info(self) -> dict[str, Any]:
        return self.answer


@pytest.mark.parametrize(
    ("driver", "backing", "limited"),
    [("overlay2", "xfs", True), ("overlay2", "extfs", False), ("vfs", "xfs", False)],
)
def test_only_overlay2_on_xfs_gets_the_limit(driver: str, backing: str, limited: bool) -> None:
    options = storage.layer_limit_options(FakeEngine(driver, backing), size="5G")
    assert options == ({"storage_opt": {"size": "5G"}} if limited else {})


def test_an_engine_without_pquota_is_not_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "_unsupported", set())
    refusal = Exception(
        "--storage-opt is supported only for overlay over xfs with 'pquota' mount option"
    )
    assert not storage.refused_layer_limit(Exception("no such image"))
    assert storage.refused_layer_limit(refusal)
    assert storage.layer_limit_options(FakeEngine("overlay2", "xfs")) == {}
