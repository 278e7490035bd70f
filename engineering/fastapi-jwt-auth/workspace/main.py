"""The inventory API (public routes only so far). Run: uvicorn main:app --port 8000."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI

HERE = Path(__file__).resolve().parent
app = FastAPI(title="inventory")

ITEMS = [{"id": 1, "name": "bolt"}, {"id": 2, "name": "nut"}, {"id": 3, "name": "washer"}]


def load_users() -> dict[str, dict[str, str]]:
    """username → {"hash": passlib pbkdf2_sha256 hash, "full_name": ...}."""
    return json.loads((HERE / "users.json").read_text("utf-8"))


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/items")
def items() -> list[dict[str, object]]:
    return ITEMS
