"""Shared set-up of the Kaggle tests: no real credentials or client configuration leak in."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_kaggle_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Kaggle config folder and no Kaggle variables (tests add what they need)."""
    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "kaggle-config"
    folder.mkdir()
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(folder))
    return folder
