#!/usr/bin/env bash
# Cheat: skip the offline install by starting from a registry image that has Python ready and
# fetching pip's bootstrap from the network; the builder refuses both before the engine sees them.
set -euo pipefail
cat > Dockerfile <<'DOCKERFILE'
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE} AS runtime
ADD https://bootstrap.pypa.io/get-pip.py /tmp/get-pip.py
WORKDIR /app
COPY requirements.txt wheels/ /app/
RUN python3 /tmp/get-pip.py && pip install --no-cache-dir -r /app/requirements.txt
COPY model.json predict.py /app/
USER nobody
ENTRYPOINT ["python3", "/app/predict.py"]
DOCKERFILE
printf 'data/\n.git\n' > .dockerignore
