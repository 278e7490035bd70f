#!/usr/bin/env bash
# Install a Docker engine (docker.io) and debootstrap, start dockerd, wait for its socket.
#
# Idempotent: packages already installed are not reinstalled and a running engine is reused.
# Used by .ci/run on fresh Debian/Ubuntu machines where only the docker client is present.
# Environment:
#   DOCKER_SOCKET   socket to wait for (default /var/run/docker.sock)
#   DOCKERD_LOG     where dockerd writes its log (default /tmp/dockerd.log)
#   DOCKERD_WAIT    seconds to wait for the socket (default 60)
#   APT_LOCK_WAIT   seconds to wait for an apt lock held by another process (default 300;
#                   scripts/apt-lock.sh)
# When it cannot give an engine it exits non-zero with the cause as its last line on stderr.
set -euo pipefail
source "$(dirname "$0")/../scripts/apt-lock.sh"

socket="${DOCKER_SOCKET:-/var/run/docker.sock}"
log="${DOCKERD_LOG:-/tmp/dockerd.log}"
wait_secs="${DOCKERD_WAIT:-60}"

sudo_if_needed() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

engine_answers() {
    docker version --format '{{.Server.Version}}' >/dev/null 2>&1
}

install_packages() {
    local missing=()
    command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
    command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
    if [ "${#missing[@]}" -eq 0 ]; then
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-docker: cannot install ${missing[*]}: no apt-get on this machine; install them yourself" >&2
        return 1
    fi
    echo "install-docker: installing ${missing[*]}" >&2
    if ! apt_waiting sudo_if_needed apt-get update -qq \
        || ! apt_waiting sudo_if_needed env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends "${missing[@]}" iptables ca-certificates; then
        echo "install-docker: apt-get could not install ${missing[*]}" >&2
        return 1
    fi
}

start_engine() {
    if engine_answers; then
        echo "install-docker: engine already running" >&2
        return 0
    fi
    if [ -S "$socket" ]; then
        # A stale socket from a dead daemon would make the wait below succeed too early.
        sudo_if_needed rm -f "$socket"
    fi
    echo "install-docker: starting dockerd (log: $log)" >&2
    # 3>&-: the daemon outlives this script and must not hold the caller's terminal descriptor.
    sudo_if_needed sh -c "nohup dockerd >'$log' 2>&1 3>&- &"
}

wait_for_engine() {
    local waited=0
    until [ -S "$socket" ] && engine_answers; do
        if [ "$waited" -ge "$wait_secs" ]; then
            echo "install-docker: dockerd did not answer within ${wait_secs}s; see $log" >&2
            tail -n 20 "$log" >&2 || true
            return 1
        fi
        sleep 1
        waited=$((waited + 1))
    done
    echo "install-docker: engine $(docker version --format '{{.Server.Version}}') ready" >&2
}

install_packages
start_engine
wait_for_engine
