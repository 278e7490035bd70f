"""Write a large input of the same shape as data/sample.csv, to measure memory and time.

Usage: python3 make_big_input.py OUTPUT [SIZE_GB]   (default 1.5)

The sample's lines are repeated, one copy per day after the sample's own days, until OUTPUT
reaches SIZE_GB; its malformed lines are repeated too. Takes a few seconds per GB.
"""

import sys
from datetime import date, timedelta
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent / "data" / "sample.csv"


SLOT = b"\0" * 10  # where each copy's day goes


def has_day(line: bytes) -> bool:
    return len(line) > 10 and line[4:5] == line[7:8] == b"-" and line[10:11] == b","


def main(target: str, size_gb: float) -> int:
    header, *lines = SAMPLE.read_bytes().splitlines(keepends=True)
    template = b"".join(SLOT + line[10:] if has_day(line) else line for line in lines)
    budget, day, written = int(size_gb * 1024**3), date(2030, 1, 1), 0
    with open(target, "wb") as out:
        out.write(header)
        while written < budget:
            block = template.replace(SLOT, day.isoformat().encode())
            out.write(block)
            written += len(block)
            day += timedelta(days=1)
    print(f"wrote {written / 1024**3:.2f} GB to {target}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) == 3 else 1.5))
