#!/usr/bin/env bash
# The oracle: POST /login issues an HS256 JWT signed with $JWT_SECRET; GET /protected needs it
# (no token 401, a bad, expired or forged one 403).
set -euo pipefail
cat > auth.py <<'PY'
"""Login and the bearer-token guard: HS256 JWTs signed with the JWT_SECRET environment variable.

The secret is read from the environment at each use, never stored in a file or logged. A missing
Authorization header is 401 (not authenticated); a token that does not verify — malformed,
signed with another key, expired, ``alg: none`` — is 403.
"""

from __future__ import annotations

import os
import time

import jwt
from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from passlib.hash import pbkdf2_sha256

ALGORITHM = "HS256"
TOKEN_LIFETIME_S = 15 * 60
bearer = HTTPBearer(auto_error=False)  # auto_error would answer 403 for a missing header


def _secret() -> str:
    secret = os.environ.get("JWT_SECRET")
    if not secret:
        raise HTTPException(status_code=500, detail="JWT_SECRET is not set")
    return secret


def check_password(users: dict, username: str, password: str) -> bool:
    user = users.get(username)
    return user is not None and pbkdf2_sha256.verify(password, user["hash"])


def issue_token(username: str) -> str:
    now = int(time.time())
    claims = {"sub": username, "iat": now, "exp": now + TOKEN_LIFETIME_S}
    return jwt.encode(claims, _secret(), algorithm=ALGORITHM)


def current_user(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
    if credentials is None:
        raise HTTPException(status_code=401, detail="not authenticated", headers={"WWW-Authenticate": "Bearer"})
    try:
        claims = jwt.decode(credentials.credentials, _secret(), algorithms=[ALGORITHM], options={"require": ["exp", "sub"]})
    except jwt.PyJWTError:
        raise HTTPException(status_code=403, detail="invalid or expired token") from None
    return str(claims["sub"])
PY
python3 - <<'PY'
from pathlib import Path

main = Path("main.py")
text = main.read_text()
text = text.replace("from fastapi import FastAPI\n", "from fastapi import Depends, FastAPI, HTTPException\nfrom pydantic import BaseModel\n\nfrom auth import check_password, current_user, issue_token\n")
text += '''

class Credentials(BaseModel):
    username: str
    password: str


@app.post("/login")
def login(credentials: Credentials) -> dict[str, str]:
    if not check_password(load_users(), credentials.username, credentials.password):
        raise HTTPException(status_code=401, detail="wrong username or password")
    return {"access_token": issue_token(credentials.username), "token_type": "bearer"}


@app.get("/protected")
def protected(user: str = Depends(current_user)) -> dict[str, str]:
    return {"message": f"Hello {user}, you are authorized", "user": user}
'''
main.write_text(text)
PY
