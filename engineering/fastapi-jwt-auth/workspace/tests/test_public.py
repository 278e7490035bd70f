"""Visible tests of the public routes: ``python3 -m pytest tests``."""

import sys
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from main import app

client = TestClient(app)


def test_health() -> None:
    assert client.get("/health").json() == {"status": "ok"}


def test_items_are_public() -> None:
    assert client.get("/items").status_code == 200
