#!/usr/bin/env bash
# The oracle: restore merge's two conditions PR #42 lost, keep total_length, commit on top.
set -euo pipefail
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'
python3 - <<'PY'
from pathlib import Path
path = Path("intervals.py")
text = path.read_text()
text = text.replace("if result and start <= result[-1][1]:", "if result and start <= result[-1][1] + 1:")
text = text.replace("result[-1] = (result[-1][0], end)", "result[-1] = (result[-1][0], max(result[-1][1], end))")
path.write_text(text)
PY
python3 -m pytest -q -p no:cacheprovider tests
git add intervals.py
git -c user.name="Oracle" -c user.email="oracle@example.invalid" commit -q \
  -m "intervals: join touching intervals and keep nested ones again (regression from PR #42)"
