# apt_waiting COMMAND...: run an apt-get command line (COMMAND may start with sudo or env), and
# when another process holds the package manager's lock (unattended-upgrades on a fresh machine,
# a second install) wait for it instead of failing at once. Sourced by scripts/bootstrap.sh and
# .ci/install-docker.sh.
#   APT_LOCK_WAIT   seconds to wait for the lock in all (default 300)
#   APT_LOCK_POLL   seconds between tries (default 5)
# The line saying that it waits goes to the terminal descriptor of phases.sh (fd 3) when open, and
# to stderr (the set-up log); when the wait runs out, the last answer of apt-get is on stderr and
# the exit status is apt-get's.

apt_note() {
  if { true >&3; } 2>/dev/null; then printf '[setup] %s\n' "$*" >&3; fi
  printf 'apt: %s\n' "$*" >&2
}

apt_lock_holder() {
  # "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 812 (apt-get)"
  grep -o 'held by process [0-9]* ([^)]*)' "$1" | head -n 1 | sed 's/^held by //'
}

apt_waiting() {
  local limit="${APT_LOCK_WAIT:-300}" poll="${APT_LOCK_POLL:-5}" waited=0 rc out holder
  out="$(mktemp)"
  while true; do
    rc=0
    "$@" >"$out" 2>&1 || rc=$?
    cat "$out" >&2
    if [ "$rc" -eq 0 ] || ! grep -q 'Could not get lock\|Unable to acquire the dpkg frontend lock\|Unable to lock' "$out"; then
      break
    fi
    holder="$(apt_lock_holder "$out")"
    if [ "$waited" -ge "$limit" ]; then
      apt_note "the apt lock is still held by ${holder:-another process} after ${limit} s (APT_LOCK_WAIT); giving up"
      break
    fi
    if [ "$waited" -eq 0 ]; then
      apt_note "another apt process holds the package lock (${holder:-unknown process}); waiting up to ${limit} s for it (APT_LOCK_WAIT)"
    fi
    sleep "$poll"
    waited=$((waited + poll))
  done
  rm -f "$out"
  return "$rc"
}
