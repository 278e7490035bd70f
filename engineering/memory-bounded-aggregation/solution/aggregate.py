"""Aggregate order lines per day and store in bounded memory (the oracle).

``python3 aggregate.py INPUT OUTPUT``. INPUT is read once, front to back, in 16 MB blocks of
whole lines (it may be a pipe). Each block is parsed with numpy, not line by line: the positions
of its newlines and commas give every line's first six fields (only ``note``, the last one, may
be quoted and hold commas, so a line's first six commas end its first six fields), and the day,
store, quantity and price bytes are checked and decoded as arrays. Valid lines are totalled per
(day, store) into a dictionary of a few thousand entries. Memory is one block and its arrays
(a few hundred MB at most), whatever the size of INPUT; revenue is summed in integer cents, so
the totals are exact.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from typing import BinaryIO

import numpy as np

HEADER = b"day,store,sku,qty,unit_price,channel,note"
BLOCK_BYTES = 16 * 1024**2
MAX_STORE = 8  # store ids are packed into 8 bytes
NEWLINE, COMMA, DASH, DOT, ZERO = 10, 44, 45, 46, 48

Totals = dict[tuple[str, str], list[int]]  # (day, store) -> [units, revenue cents, lines]


def blocks(stream: BinaryIO) -> Iterator[bytes]:
    """Blocks of whole lines, each ending with a newline."""
    rest = b""
    while chunk := stream.read(BLOCK_BYTES):
        chunk = rest + chunk
        cut = chunk.rfind(b"\n") + 1
        rest, chunk = chunk[cut:], chunk[:cut]
        if chunk:
            yield chunk
    if rest:
        yield rest + b"\n"


PAD = 16  # zero bytes after a block: reading a few bytes past a field's start stays inside
MAX_QTY_DIGITS = 6  # quantities are small counts; a longer one is rejected as malformed
MAX_PRICE_CHARS = 10  # up to 9999999.99


def number(padded: np.ndarray, starts: np.ndarray, length: np.ndarray, width: int,
           skip: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The integer spelt by the ``length`` bytes at each start (``skip``: a position per row
    left out, e.g. a decimal point), and whether they are all digits (and 1..width long).

    One column at a time: each step is a few operations on one array per line, never a
    lines × width array."""
    value = np.zeros(len(starts), np.int64)
    ok = (length > 0) & (length <= width)
    for j in range(width):
        inside = j < length
        if skip is not None:
            inside &= j != skip
        digit = padded[starts + j] - np.uint8(ZERO)  # wraps: a non-digit becomes > 9
        ok &= ~inside | (digit <= 9)
        value = np.where(inside, value * 10 + digit, value)
    return value, ok


def add_block(block: bytes, totals: Totals) -> tuple[int, int]:
    """Add one block's valid lines to ``totals``; returns (accepted, rejected)."""
    data = np.frombuffer(block, np.uint8)
    padded = np.concatenate([data, np.zeros(PAD, np.uint8)])
    ends = np.flatnonzero(data == NEWLINE)
    starts = np.concatenate(([0], ends[:-1] + 1))
    commas = np.flatnonzero(data == COMMA)
    if len(commas) < 6:
        return 0, len(ends)
    first = np.searchsorted(commas, starts)
    ok = first + 5 < len(commas)
    at = np.minimum(first, len(commas) - 6)
    c = [commas[at + i] for i in range(6)]
    ok &= c[5] < ends  # six commas before the line's end: all seven fields are there

    ok &= c[0] - starts == 10
    ok &= (padded[starts + 4] == DASH) & (padded[starts + 7] == DASH)
    # the day's digits: positions 0-3, 5-6, 8-9 (the dashes were checked above)
    day = np.zeros(len(starts), np.int64)
    for j in (0, 1, 2, 3, 5, 6, 8, 9):
        digit = padded[starts + j] - np.uint8(ZERO)
        ok &= digit <= 9
        day = day * 10 + digit

    store_len = c[1] - c[0] - 1
    ok &= (store_len > 0) & (store_len <= MAX_STORE)
    store = np.zeros(len(starts), np.uint64)
    for j in range(MAX_STORE):  # packed big-endian, so the order of the ids is kept
        byte = np.where(j < store_len, padded[c[0] + 1 + j], 0).astype(np.uint64)
        store = (store << np.uint64(8)) | byte

    qty, qty_ok = number(padded, c[2] + 1, c[3] - c[2] - 1, MAX_QTY_DIGITS)
    ok &= qty_ok & (qty > 0)

    price_len = c[4] - c[3] - 1
    dot = price_len - 3  # "179.16": digits, a dot, two decimals
    ok &= (dot > 0) & (padded[np.maximum(c[3] + 1 + dot, 0)] == DOT)
    cents, price_ok = number(padded, c[3] + 1, price_len, MAX_PRICE_CHARS, skip=dot)
    ok &= price_ok & (cents > 0)

    units = qty[ok]
    if len(units):
        days, day_code = np.unique(day[ok], return_inverse=True)
        stores, store_code = np.unique(store[ok], return_inverse=True)
        codes = day_code.reshape(-1) * len(stores) + store_code.reshape(-1)
        size = len(days) * len(stores)
        sum_units = np.bincount(codes, weights=units, minlength=size)
        sum_cents = np.bincount(codes, weights=units * cents[ok], minlength=size)
        counts = np.bincount(codes, minlength=size)
        for code in np.flatnonzero(counts).tolist():
            d = int(days[code // len(stores)])
            name = int(stores[code % len(stores)]).to_bytes(8, "big").rstrip(b"\0").decode()
            entry = totals[(f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}", name)]
            entry[0] += int(sum_units[code])
            entry[1] += int(sum_cents[code])
            entry[2] += int(counts[code])
    accepted = int(ok.sum())
    return accepted, len(ends) - accepted


def main(source: str, target: str) -> int:
    totals: Totals = defaultdict(lambda: [0, 0, 0])
    accepted = rejected = 0
    with open(source, "rb") as stream:
        header = stream.readline().rstrip(b"\r\n")
        if header and header != HEADER:
            print(f"unexpected header: {header[:80]!r}", file=sys.stderr)
            return 2
        for block in blocks(stream):
            good, bad = add_block(block, totals)
            accepted, rejected = accepted + good, rejected + bad
    with open(target, "w") as out:
        out.write("day,store,units,revenue,lines\n")
        for (day, store), (units, cents, lines) in sorted(totals.items()):
            out.write(f"{day},{store},{units},{cents // 100}.{cents % 100:02d},{lines}\n")
    print(json.dumps({"accepted": accepted, "rejected": rejected}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python3 aggregate.py INPUT OUTPUT", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
