#!/usr/bin/env bash
# The oracle: a streaming aggregate.py (16 MB blocks of whole lines, parsed as numpy arrays) and
# NOTES.md with its peak as measured on the hidden input (README.md: about 135 MB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/aggregate.py" aggregate.py
cat > NOTES.md <<'NOTES'
# How aggregate.py keeps memory bounded

The input is read once, in 16 MB blocks cut at the last newline (the rest is carried into the
next block). Each block is parsed as numpy arrays: newline and comma positions give every line's
first six fields (only the note may be quoted, and it is the last field), so no Python object is
made per line. Only the running totals per (day, store) are kept: memory depends on the block
size and the number of store-days, not on the size of the input.

peak_mb: 140
NOTES
