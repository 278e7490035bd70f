#!/usr/bin/env bash
# Start mini-swe-agent: run_mini_swe.py reads the task from INSTRUCTIONS_FILE (and a competition's
# description.md), runs its bash commands in WORK_DIR (an engineering task) or CODE_DIR (a
# competition), and keeps its trajectory in LOGS_DIR/mini-swe/.
set -euo pipefail
cd "$AGENT_DIR"
export MSWEA_SILENT_STARTUP=1 MSWEA_GLOBAL_CONFIG_DIR="$LOGS_DIR/mini-swe/config"
if ! python3 -c "import importlib.util as u, sys; sys.exit(u.find_spec('minisweagent') is None)"; then
    echo "mini-swe: the mini-swe-agent package is not installed for $(command -v python3):" \
         "build this folder's Dockerfile (the Docker backend does it from config.yaml) or," \
         "with --mle-sandbox local, install it on the host:" \
         "pip install --no-deps --require-hashes -r $AGENT_DIR/requirements.lock" >&2
    exit 3
fi
exec python3 "$AGENT_DIR/run_mini_swe.py" "$@"
