#!/usr/bin/env bash
# Cheat: change the app to fit the broken manifests instead of fixing them: listen on 8080 (the
# Service's targetPort) and report ready at once; only the YAML errors are patched.
set -euo pipefail
sed -i 's/int(os.environ\["HTTP_PORT"\])/8080/; s/LOADED = threading.Event()/LOADED = threading.Event()\nLOADED.set()/' app/server.py
sed -i 's/replicas: "2"/replicas: 2/' k8s/deployment.yaml
python3 - <<'PY'
from pathlib import Path
path = Path("k8s/deployment.yaml")
text = path.read_text()
first = text.index("          ports:\n")
second = text.index("          ports:\n", first + 1)
path.write_text(text[:second] + text[second + len("          ports:\n"):])
PY
