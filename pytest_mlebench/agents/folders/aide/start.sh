#!/usr/bin/env bash
# Start AIDE: its task is the harness's instructions plus the competition's description; its
# journal and best program go to LOGS_DIR, its best submission to SUBMISSION_DIR and its code to
# CODE_DIR (run_aide.py does that after every step, so a cut-off run keeps what it had).
set -euo pipefail
cd "$AGENT_DIR"
if ! python3 -c "import aide" 2>/dev/null; then
    echo "aide: the aideml package is not installed for $(command -v python3):" \
         "build this folder's Dockerfile (the Docker backend does it from config.yaml) or," \
         "with --mle-sandbox local, install it on the host:" \
         "pip install --no-deps --require-hashes -r $AGENT_DIR/requirements.lock" >&2
    exit 3
fi
{
    cat "$INSTRUCTIONS_FILE"
    printf '\n\n# Competition description\n\n'
    cat "$DATA_DIR/description.md"
} > "$AGENT_DIR/full_instructions.txt"
exec python3 "$AGENT_DIR/run_aide.py" \
    data_dir="$DATA_DIR" \
    desc_file="$AGENT_DIR/full_instructions.txt" \
    exp_name=run \
    log_dir="$LOGS_DIR/aide" \
    workspace_dir="$AGENT_DIR/workspaces" \
    generate_report=false \
    "$@"
