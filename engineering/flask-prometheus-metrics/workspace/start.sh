#!/usr/bin/env bash
# Entry point: serves app:app with gunicorn on $PORT with $WORKERS sync workers.
set -euo pipefail
cd "$(dirname "$0")"
exec gunicorn --workers "${WORKERS:-2}" --bind "0.0.0.0:${PORT:?set PORT}" app:app
