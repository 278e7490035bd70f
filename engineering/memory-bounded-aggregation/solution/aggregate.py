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


PAD = 16  # zero bytes after a block, so that reading up to 16 bytes past a start stays inside


def gather(padded: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """``width`` (at most :data:`PAD`) bytes from each start, one row per start."""
    return padded[starts[:, None] + np.arange(width)]


def digits_value(chars: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The integer each row's first ``length`` chars spell, and whether they are all digits."""
    width = chars.shape[1]
    exponent = length[:, None] - 1 - np.arange(width)  # of each char's place; < 0: not used
    used = exponent >= 0
    digit = chars.astype(np.int64) - ZERO
    ok = np.all(((digit >= 0) & (digit <= 9)) | ~used, axis=1) & (length > 0) & (length <= width)
    place = np.where(used, 10 ** np.maximum(exponent, 0), 0)
    return np.einsum("ij,ij->i", digit, place), ok


def add_block(block: bytes, totals: Totals) -> tuple[int, int]:
    """Add one block's valid lines to ``totals``; returns (accepted, rejected)."""
    data = np.frombuffer(block, np.uint8)
    padded = np.concatenate([data, np.zeros(PAD, np.uint8)])
    ends = np.flatnonzero(data == NEWLINE)
    starts = np.concatenate(([0], ends[:-1] + 1))
    commas = np.flatnonzero(data == COMMA)
    first = np.searchsorted(commas, starts)
    ok = first + 5 < len(commas)
    at = np.minimum(first, max(len(commas) - 6, 0))
    c = [commas[at + i] if len(commas) >= 6 else starts for i in range(6)]
    ok &= c[5] < ends  # six commas before the line's end: all seven fields are there

    day = gather(padded, starts, 10)
    day_digits = np.delete(day, [4, 7], axis=1)
    ok &= (c[0] - starts == 10) & (day[:, 4] == DASH) & (day[:, 7] == DASH)
    ok &= np.all((day_digits >= ZERO) & (day_digits <= ZERO + 9), axis=1)

    store_len = c[1] - c[0] - 1
    store = gather(padded, c[0] + 1, MAX_STORE)
    store = np.where(np.arange(MAX_STORE) < store_len[:, None], store, 0).astype(np.uint8)
    ok &= (store_len > 0) & (store_len <= MAX_STORE)

    qty, qty_ok = digits_value(gather(padded, c[2] + 1, 9), c[3] - c[2] - 1)
    ok &= qty_ok & (qty > 0)

    price_len = c[4] - c[3] - 1
    price = gather(padded, c[3] + 1, 12)
    dot = price_len - 3
    has_dot = price[np.arange(len(price)), np.clip(dot, 0, 11)] == DOT
    price = np.where(np.arange(12) == dot[:, None], ZERO, price)  # the dot read as a 0 ...
    value, price_ok = digits_value(price, price_len)
    cents = value // 1000 * 100 + value % 100  # ... and dropped: "179016" -> 17916 cents
    ok &= has_dot & (dot > 0) & price_ok & (cents > 0)

    day_number = (day_digits[ok].astype(np.int64) - ZERO) @ 10 ** np.arange(7, -1, -1)
    store_number = np.ascontiguousarray(store[ok]).view(">u8").reshape(-1)  # keeps the order
    units, revenue = qty[ok], qty[ok] * cents[ok]
    if len(units):
        days, day_code = np.unique(day_number, return_inverse=True)
        stores, store_code = np.unique(store_number, return_inverse=True)
        codes = day_code.reshape(-1) * len(stores) + store_code.reshape(-1)
        size = len(days) * len(stores)
        sums = (np.bincount(codes, weights=w, minlength=size) for w in (units, revenue))
        counts = np.bincount(codes, minlength=size)
        for code, (u, r, n) in enumerate(zip(*sums, counts, strict=True)):
            if n:
                d = int(days[code // len(stores)])
                name = int(stores[code % len(stores)]).to_bytes(8, "big").rstrip(b"\0")
                entry = totals[(f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}",
                                name.decode())]  # fmt: skip
                entry[0] += int(u)
                entry[1] += int(r)
                entry[2] += int(n)
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
