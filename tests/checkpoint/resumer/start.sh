#!/usr/bin/env bash
# A test agent that survives a resume. A first attempt appends a line to CODE_DIR/steps.txt
# every 0.2 s (the harness snapshots it) and never submits; a resumed attempt (MLEBENCH_RESUMED
# set: 1 from a snapshot, 0 from scratch) writes what it found and what it was told to
# LOGS_DIR/resumed.txt, then submits the sample submission.
set -eu
if [ -n "${MLEBENCH_RESUMED:-}" ]; then
    told=no
    if grep -q "resumes an interrupted attempt" "$INSTRUCTIONS_FILE"; then told=yes; fi
    {
        echo "resumed=$MLEBENCH_RESUMED"
        echo "steps=$(cat "$CODE_DIR/steps.txt" 2>/dev/null | wc -l)"
        echo "time_limit=$TIME_LIMIT_SECS"
        echo "used=$MLEBENCH_TIME_USED_SECONDS"
        echo "age=$MLEBENCH_SNAPSHOT_AGE_SECONDS"
        echo "told=$told"
    } > "$LOGS_DIR/resumed.txt"
    cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"
    exit 0
fi
mkdir -p "$CODE_DIR"
for i in $(seq 1 3000); do
    echo "step $i" >> "$CODE_DIR/steps.txt"
    sleep 0.2
done
