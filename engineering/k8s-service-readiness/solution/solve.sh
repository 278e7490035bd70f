#!/usr/bin/env bash
# The oracle: valid manifests, one ports list with named ports, a Service selector that matches
# the pods, named targetPorts, a readiness probe on /ready of the API port, no host network or
# privilege. The numbers and labels are read from the given files (they change per seed).
set -euo pipefail
python3 - <<'PY'
import re
from pathlib import Path

given = Path("k8s/deployment.yaml").read_text()
http = re.search(r"name: HTTP_PORT\s+value: \"(\d+)\"", given).group(1)
metrics = re.search(r"name: METRICS_PORT\s+value: \"(\d+)\"", given).group(1)
tier = re.search(r"tier: (\S+)", given).group(1)

Path("k8s/deployment.yaml").write_text(f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: scorer
  labels:
    app: scorer
spec:
  replicas: 2
  selector:
    matchLabels:
      app: scorer
      tier: {tier}
  template:
    metadata:
      labels:
        app: scorer
        tier: {tier}
    spec:
      containers:
        - name: scorer
          image: registry.local/scorer:1.4.2
          command: ["python3", "app/server.py"]
          env:
            - name: HTTP_PORT
              value: "{http}"
            - name: METRICS_PORT
              value: "{metrics}"
          ports:
            - name: http
              containerPort: {http}
            - name: metrics
              containerPort: {metrics}
          readinessProbe:
            httpGet:
              path: /ready
              port: http
            periodSeconds: 5
            failureThreshold: 3
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
          securityContext:
            privileged: false
            allowPrivilegeEscalation: false
""")
Path("k8s/service.yaml").write_text(f"""\
apiVersion: v1
kind: Service
metadata:
  name: scorer
spec:
  selector:
    app: scorer
    tier: {tier}
  ports:
    - name: http
      port: 80
      targetPort: http
    - name: metrics
      port: 9100
      targetPort: metrics
""")
PY
