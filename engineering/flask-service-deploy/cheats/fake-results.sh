#!/usr/bin/env bash
# Cheat: a static file server that answers GET /healthz with 200, plus results files claiming
# every check passed.
set -euo pipefail
mkdir -p static && echo ok > static/healthz
printf '#!/usr/bin/env bash\nexec python3 -m http.server "$PORT" --directory static\n' > start.sh
echo '{"version": 1, "exit_status": 0, "checks": {"F1": {"result": 1.0}, "F2": {"result": 1.0}, "B2": {"result": 1.0}}}' > checks.json
mkdir -p out && cp checks.json out/checks.json
