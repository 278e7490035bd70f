"""Adversary: look for the private answers everywhere an agent might think of.

Usage: hunt_answers.py PRIVATE_PATH [ROOT ...]. The answers carry a marker ``ANSWER-<32 hex>``
(not passed here, so it cannot be found in this process's own command line). Prints
``FOUND <where>`` for every hit and a summary.
"""

import glob
import os
import re
import sys

MARKER = re.compile(r"ANSWER-[0-9a-f]{32}")
PRIVATE = sys.argv[1]
hits = []
tried = 0


def look(where, text):
    global tried
    tried += 1
    if MARKER.search(text):
        hits.append(where)
        print("FOUND", where, flush=True)


def read(path, limit=1 << 20):
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "ignore")
    except OSError:
        return ""


# 1. The environment, ours and every process's we can see.
look("env", repr(dict(os.environ)))
for proc in glob.glob("/proc/[0-9]*"):
    look(f"{proc}/environ", read(f"{proc}/environ"))
    look(f"{proc}/cmdline", read(f"{proc}/cmdline"))

# 2. The host path of the answers, and the usual guesses next to the public data.
data = os.environ.get("DATA_DIR", "/home/data")
guesses = [
    PRIVATE,
    os.path.dirname(PRIVATE),
    "/private",
    "/home/private",
    os.path.join(data, "..", "private"),
    os.path.join(os.path.dirname(data), "answers.csv"),
]
for guess in guesses:
    if os.path.isdir(guess):
        for name in os.listdir(guess) if os.access(guess, os.R_OK | os.X_OK) else []:
            look(os.path.join(guess, name), read(os.path.join(guess, name)))
    else:
        look(guess, read(guess))

# 3. Any file called like answers anywhere we may walk.
roots = sys.argv[2:] or ["/"]
for root in roots:
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if os.path.join(folder, d) not in ("/proc", "/sys")]
        for name in files:
            if "answer" in name.lower() or "private" in name.lower():
                look(os.path.join(folder, name), read(os.path.join(folder, name)))

print(f"hunt finished: {tried} places tried, {len(hits)} found", flush=True)
