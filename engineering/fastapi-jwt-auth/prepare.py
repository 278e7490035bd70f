"""Per-seed variant of fastapi-jwt-auth: the users, their password hashes and the JWT secret.

Hashes are passlib's ``pbkdf2_sha256`` format, computed here with hashlib (the host has no
passlib): ``$pbkdf2-sha256$ROUNDS$SALT$CHECKSUM`` with passlib's "adapted base64" (``.`` for
``+``, no padding). The demo user's password is in the workspace; the second user's only in
``private/``, so a login that does not check hashes is caught.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from pathlib import Path

ROUNDS = 2000
NAMES = ["ada", "grace", "linus", "barbara", "ken", "margaret", "dennis", "frances"]


def _ab64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii").rstrip("=").replace("+", ".")


def pbkdf2_sha256(password: str, salt: bytes, rounds: int = ROUNDS) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, rounds, 32)
    return f"$pbkdf2-sha256${rounds}${_ab64(salt)}${_ab64(digest)}"


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(77_000 + seed)
    demo, hidden = rng.sample(NAMES, 2)
    passwords = {demo: _word(rng, 12), hidden: _word(rng, 14)}
    users = {
        name: {"hash": pbkdf2_sha256(pw, rng.randbytes(16)), "full_name": name.title()}
        for name, pw in passwords.items()
    }
    (workspace / "users.json").write_text(json.dumps(users, indent=2) + "\n", "utf-8")
    (workspace / "DEMO_USER.txt").write_text(
        f"username: {demo}\npassword: {passwords[demo]}\n", "utf-8"
    )
    secrets = {"demo": [demo, passwords[demo]], "hidden": [hidden, passwords[hidden]]}
    (private / "users.json").write_text(json.dumps(secrets) + "\n", "utf-8")
    return {"JWT_SECRET": _word(rng, 40)}
