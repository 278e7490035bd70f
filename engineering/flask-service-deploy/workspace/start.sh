#!/usr/bin/env bash
# The service's entry point: builds the model if needed, then starts the app.
python3 model/build.py
python3 app.py
