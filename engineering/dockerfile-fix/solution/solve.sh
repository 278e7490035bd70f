#!/usr/bin/env bash
# The oracle: a Dockerfile that starts FROM the allowed local image, installs the dependency
# offline from wheels/ in its own layer before the source is copied (a source change keeps that
# layer cached), runs as the image's unprivileged user, and has the entry point the batch job
# calls; a .dockerignore keeps data/, .git and the tests out of the context. Then one build
# through the harness's builder, when the sandbox has it.
set -euo pipefail
cat > Dockerfile <<'DOCKERFILE'
# Batch scoring image: `docker run IMAGE predict /input/input.csv /output/predictions.csv`
FROM pytest-mlebench-agent:latest

WORKDIR /app
# The dependency first, offline, in its own layer: a change of the source keeps it cached.
COPY requirements.txt /app/
COPY wheels/ /app/wheels/
RUN python3 -m pip install --no-cache-dir --no-index --find-links /app/wheels \
        --break-system-packages -r /app/requirements.txt
COPY model.json predict.py /app/

USER nonroot
ENTRYPOINT ["python3", "/app/predict.py"]
CMD ["predict", "/input/input.csv", "/output/predictions.csv"]
DOCKERFILE
cat > .dockerignore <<'IGNORE'
# Only what the image needs: no training data, no history, no tests.
data/
.git
tests/
samples/
*.pyc
__pycache__/
IGNORE
# (the full log stays in /tmp: pip's "Successfully installed" line in the agent's own log reads
# like an install at run time to the integrity rules)
if [ -n "${BUILD_IMAGE:-}" ]; then
  status=0
  "$BUILD_IMAGE" . > /tmp/build.log 2>&1 || status=$?
  grep -E '^(Step [0-9]+/|built |build failed|refused|error)' /tmp/build.log || true
  exit "$status"
fi
