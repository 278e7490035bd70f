"""Per-seed manifests of k8s-service-readiness: the same planted faults, other numbers and labels.

The app listens on HTTP_PORT and METRICS_PORT, which the Deployment sets; those numbers, the
pods' ``tier`` label and the Service's wrong selector value change with the seed. Planted in
``k8s/``: a schema error (``replicas: "2"``), a duplicated ``ports`` key that drops the API port,
a Service selector that matches no pod, a numeric ``targetPort`` (8080) that is no container port,
a metrics ``targetPort`` naming a port that does not exist, a readiness probe on the liveness path
and the wrong port, ``hostNetwork`` and a privileged container. Private: ``facts.json`` (the
ports and labels). Standard library only.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: scorer
  labels:
    app: scorer
spec:
  replicas: "2"
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
      hostNetwork: true
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
          ports:
            - name: metrics
              containerPort: {metrics}
          readinessProbe:
            httpGet:
              path: /healthz
              port: 8080
            periodSeconds: 5
          securityContext:
            privileged: true
"""

SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: scorer
spec:
  selector:
    app: scorer
    tier: {wrong_tier}
  ports:
    - name: http
      port: 80
      targetPort: 8080
    - name: metrics
      port: 9100
      targetPort: prometheus
"""

TIERS = ["api", "web", "backend", "frontend", "inference"]


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(4400 + seed)
    tier, wrong_tier = rng.sample(TIERS, 2)
    http, metrics = rng.randrange(20000, 30000), rng.randrange(30000, 40000)
    values = {"tier": tier, "wrong_tier": wrong_tier, "http": http, "metrics": metrics}
    folder = workspace / "k8s"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deployment.yaml").write_text(DEPLOYMENT.format(**values), "utf-8")
    (folder / "service.yaml").write_text(SERVICE.format(**values), "utf-8")
    (private / "facts.json").write_text(json.dumps(values, indent=2), "utf-8")
    return {}
