# Set-up phases for scripts/bootstrap.sh and scripts/run-embedded (sourced, not run).
# One line on the terminal when a phase starts (with how long it takes the first time) and one
# when it ends; everything the phase's commands print (apt-get, pip, dockerd, docker build) goes
# to the set-up log, whose last lines are shown when a phase fails.
#   MLEBENCH_SETUP_LOG   the log (default reports/setup.log; appended to)

SETUP_LOG="${MLEBENCH_SETUP_LOG:-reports/setup.log}"
mkdir -p "$(dirname "$SETUP_LOG")" && touch "$SETUP_LOG"
exec 3>&1  # the terminal, for say() inside phases whose output goes to the log

say() { printf '[setup] %s\n' "$*" >&3; }
export -f say

# phase NAME FIRST-TIME COMMAND...: run COMMAND with its output in the log, timed. COMMAND runs
# in a bash of its own with -euo pipefail (so its first failing step stops it wherever phase is
# called from); a shell function must be exported first (export -f NAME).
phase() {
  local name="$1" first_time="$2" started rc before
  shift 2
  before=$(wc -l <"$SETUP_LOG")
  say "$name: starting (first time on a fresh machine: $first_time; output in $SETUP_LOG)"
  printf '\n=== %s: %s (%s)\n' "$(date -u +%FT%TZ)" "$name" "$*" >>"$SETUP_LOG"
  started=$SECONDS
  rc=0
  bash -euo pipefail -c '"$@"' "$name" "$@" >>"$SETUP_LOG" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    say "$name: FAILED after $((SECONDS - started)) s (exit $rc); its last lines in $SETUP_LOG:"
    tail -n +"$((before + 1))" "$SETUP_LOG" | tail -n 25 >&3
    return "$rc"
  fi
  say "$name: done in $((SECONDS - started)) s"
}
