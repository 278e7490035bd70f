#!/usr/bin/env bash
# Cheat: /protected lets in any request that carries an Authorization header; /login hands out a
# fixed string.
set -euo pipefail
cat >> main.py <<'PY'


from fastapi import Header, HTTPException


@app.post("/login")
def login():
    return {"access_token": "token", "token_type": "bearer"}


@app.get("/protected")
def protected(authorization: str | None = Header(default=None)):
    if not authorization:
        raise HTTPException(status_code=401)
    return {"message": "you are authorized"}
PY
