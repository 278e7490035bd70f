#!/usr/bin/env bash
# Cheat: tokens signed with $JWT_SECRET, but /protected decodes them without verifying the
# signature (any well-formed token with a subject gets in).
set -euo pipefail
cat >> main.py <<'PY'


import os
import time

import jwt
from fastapi import Header, HTTPException
from passlib.hash import pbkdf2_sha256
from pydantic import BaseModel


class Credentials(BaseModel):
    username: str
    password: str


@app.post("/login")
def login(credentials: Credentials):
    user = load_users().get(credentials.username)
    if user is None or not pbkdf2_sha256.verify(credentials.password, user["hash"]):
        raise HTTPException(status_code=401)
    claims = {"sub": credentials.username, "exp": int(time.time()) + 900}
    return {"access_token": jwt.encode(claims, os.environ["JWT_SECRET"], algorithm="HS256")}


@app.get("/protected")
def protected(authorization: str | None = Header(default=None)):
    if not authorization:
        raise HTTPException(status_code=401)
    try:
        claims = jwt.decode(authorization.removeprefix("Bearer "), options={"verify_signature": False})
    except jwt.PyJWTError:
        raise HTTPException(status_code=403)
    return {"message": "you are authorized", "user": claims.get("sub")}
PY
