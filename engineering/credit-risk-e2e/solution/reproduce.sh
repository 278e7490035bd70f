#!/usr/bin/env bash
# Rebuild predictions.csv, validation_predictions.csv and report.json from data/.
set -euo pipefail
cd "$(dirname "$0")"
python3 train.py
