"""Hidden checks of fastapi-jwt-auth (check ids of config.yaml)."""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import jwt
import pytest
from conftest import Api


def _sign(secret: str, sub: str, exp_in: float) -> str:
    now = int(time.time())
    return jwt.encode({"sub": sub, "iat": now, "exp": now + int(exp_in)}, secret, algorithm="HS256")


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


@pytest.mark.check("F1")
def test_no_token_is_401(up: Api, evidence: Callable[[str], None]) -> None:
    status, _ = up.call("GET", "/protected")
    evidence(f"no Authorization header → {status}")
    assert status == 401


@pytest.mark.check("F2")
def test_login_token_opens_protected(
    up: Api, demo_token: str, evidence: Callable[[str], None]
) -> None:
    status, body = up.call("GET", "/protected", token=demo_token)
    evidence(f"login token → {status} {str(body)[:80]}")
    assert status == 200
    assert isinstance(body, dict) and "authorized" in str(body.get("message", "")).lower()


@pytest.mark.check("F3")
@pytest.mark.parametrize("kind", ["garbage", "other-secret"])
def test_bad_token_is_403(up: Api, users: dict, kind: str, evidence: Callable[[str], None]) -> None:
    token = (
        "not-a-jwt"
        if kind == "garbage"
        else _sign("some-other-secret-value-0123456789", users["demo"][0], 600)
    )
    status, _ = up.call("GET", "/protected", token=token)
    evidence(f"{kind} token → {status}")
    assert status == 403


@pytest.mark.check("B1")
@pytest.mark.parametrize("kind", ["expired", "tampered", "alg-none"])
def test_forged_or_stale_token_is_403(
    up: Api, demo_token: str, users: dict, kind: str, evidence: Callable[[str], None]
) -> None:
    if kind == "expired":
        token = _sign(up.secret, users["demo"][0], -120)
    elif kind == "tampered":
        header, _, signature = demo_token.split(".")
        claims = {"sub": users["hidden"][0], "exp": int(time.time()) + 600}
        token = f"{header}.{_b64(claims)}.{signature}"
    else:
        claims = {"sub": users["demo"][0], "exp": int(time.time()) + 600}
        token = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."
    status, _ = up.call("GET", "/protected", token=token)
    evidence(f"{kind} token → {status}")
    assert status == 403


@pytest.mark.check("B2")
def test_token_signed_with_env_secret_is_accepted(up: Api, users: dict, evidence: Callable) -> None:
    status, _ = up.call("GET", "/protected", token=_sign(up.secret, users["demo"][0], 600))
    evidence(f"a token signed with the verifier's JWT_SECRET → {status}")
    assert status == 200


@pytest.mark.check("B2")
def test_login_token_is_hs256_with_env_secret(demo_token: str, up: Api, users: dict) -> None:
    claims = jwt.decode(demo_token, up.secret, algorithms=["HS256"])
    assert claims.get("sub") == users["demo"][0] and "exp" in claims


@pytest.mark.check("B3")
@pytest.mark.parametrize("case", ["wrong-password", "unknown-user", "second-user"])
def test_login_checks_the_hash(
    up: Api, users: dict, case: str, evidence: Callable[[str], None]
) -> None:
    name, password = users["hidden"]
    if case == "wrong-password":
        name, password = users["demo"][0], users["demo"][1] + "x"
    elif case == "unknown-user":
        name = "nobody-" + name
    status, _ = up.login(name, password)
    evidence(f"{case} → {status}")
    assert status == (200 if case == "second-user" else 401)


@pytest.mark.check("S1")
def test_secret_not_in_code_or_logs(
    up: Api, work_dir: Path, users: dict, evidence: Callable
) -> None:
    agent_secret = os.environ["JWT_SECRET"].encode()  # the value the agent was given
    leaks = []
    for path in work_dir.rglob("*"):
        if path.is_file() and path.stat().st_size < 5_000_000 and agent_secret in path.read_bytes():
            leaks.append(str(path.relative_to(work_dir)))
    status, body = up.login(*users["demo"])  # exercise signing and verifying, then read the logs
    if status == 200 and isinstance(body, dict):
        up.call("GET", "/protected", token=str(body.get("access_token")))
    time.sleep(0.3)
    if up.secret in up.log_text():
        leaks.append("the server's output")
    evidence(f"secret found in: {', '.join(leaks) if leaks else 'nothing'}")
    assert not leaks
