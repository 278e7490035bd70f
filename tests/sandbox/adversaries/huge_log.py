"""Adversary: write 1 GB to stdout as fast as possible."""

import sys

chunk = b"x" * ((1 << 20) - 1) + b"\n"
out = sys.stdout.buffer
for _ in range(1024):
    out.write(chunk)
out.flush()
print("wrote 1 GB", flush=True)
