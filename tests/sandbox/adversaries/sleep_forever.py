"""Adversary: never finish."""

import time

print("sleeping forever", flush=True)
while True:
    time.sleep(3600)
