"""Per-seed data of memory-bounded-aggregation: a ~1.5 GB order-lines CSV and its aggregates.

The hidden input ``private/input.csv`` has the header ``day,store,sku,qty,unit_price,channel,note``
and about 17 million lines: one block of lines per day (36 days from a seeded start), each block a
copy of one of four seeded base blocks of 500,000 lines with that day filled in, so the file is
written at disk speed instead of being formatted line by line. About one note in ten is quoted and
holds a comma (a naive ``split(",")`` miscounts the fields). Thirty-six malformed lines are planted
at seeded places (missing fields, an empty quantity, a non-integer or non-positive quantity, a
non-numeric price, a bad day); the instruction says they are skipped and counted.

``private/`` also gets the reference totals of the input (``expected.csv``) and of its first four
days (``expected_prefix.csv``, the verifier's small run, whose peak memory the full run's is
compared with), with the counts and the prefix's byte offset in ``meta.json``. The workspace gets
a small sample of the same shape with its own expected output, from a different draw.

Numbers: revenue is counted in cents (``qty`` × the price in cents), so the sums are exact.
Standard library and numpy only; the same seed gives the same bytes.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

HEADER = b"day,store,sku,qty,unit_price,channel,note\n"
DAY_SLOT = b"@@@@@@@@@@"  # 10 bytes, replaced by YYYY-MM-DD in each day's block
BASE_BLOCKS = 4
BLOCK_LINES = 500_000
DAYS = 36
PREFIX_DAYS = 4  # the verifier's small run: the first 4 days (~165 MB)
STORES = 240
SKUS = 4000
MALFORMED = 36
SAMPLE_LINES = 6000
SAMPLE_DAYS = 3
WORDS = (
    "gift wrap please", "leave at door", "call on arrival", "fragile", "second floor",
    "no substitutions", "deliver after six", "office reception", "ring twice", "side entrance",
    "back order ok", "express", "pick up in store", "loyalty card", "promo weekend",
)  # fmt: skip

Totals = dict[tuple[str, str], list[int]]  # (day, store) -> [units, revenue cents, lines]


def _days(rng: np.random.Generator, count: int) -> list[bytes]:
    start = np.datetime64("2024-01-01") + int(rng.integers(0, 200))
    return [str(start + i).encode() for i in range(count)]


def _base_block(rng: np.random.Generator, lines: int) -> tuple[bytes, dict[str, list[int]]]:
    """``lines`` lines that start with :data:`DAY_SLOT`, and their totals per store."""
    stores = rng.integers(0, STORES, lines)
    skus = rng.integers(0, SKUS, lines)
    qty = rng.geometric(0.35, lines)
    price_cents = np.random.default_rng(7).integers(99, 25_000, SKUS)  # one price per SKU
    channels = rng.choice(
        np.array(["web", "store", "app", "phone"]), lines, p=[0.5, 0.3, 0.15, 0.05]
    )
    notes = rng.integers(0, len(WORDS), lines)
    quoted = rng.random(lines) < 0.1
    store_names = [f"S{i:03d}" for i in range(STORES)]
    sku_names = [f"K{i:05d}" for i in range(SKUS)]
    prices = [f"{c // 100}.{c % 100:02d}" for c in price_cents.tolist()]
    slot = DAY_SLOT.decode()
    rows = []
    for store, sku, q, channel, note, quote in zip(
        stores.tolist(), skus.tolist(), qty.tolist(), channels.tolist(), notes.tolist(),
        quoted.tolist(), strict=True,
    ):  # fmt: skip
        ref = f"order ref {store:03d}-{sku:05d}-{q:02d} batch {note:02d}"
        text = f'"{WORDS[note]}, {ref}"' if quote else f"{WORDS[note]} {ref}"
        rows.append(
            f"{slot},{store_names[store]},{sku_names[sku]},{q},{prices[sku]},{channel},{text}\n"
        )
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    revenue = qty * price_cents[skus]
    for store in range(STORES):
        mask = stores == store
        if mask.any():
            totals[store_names[store]] = [
                int(qty[mask].sum()),
                int(revenue[mask].sum()),
                int(mask.sum()),
            ]
    return "".join(rows).encode(), dict(totals)


MALFORMED_KINDS = (
    lambda day: f"{day},S001,K00001,2\n",  # a missing field
    lambda day: f"{day},S001,K00001,,3.50,web,empty quantity\n",  # an empty field
    lambda day: f"{day},S002,K00002,two,3.50,web,spelled out\n",  # not an integer
    lambda day: f"{day},S002,K00002,0,3.50,web,zero\n",  # not positive
    lambda day: f"{day},S003,K00003,-4,3.50,web,negative\n",  # not positive
    lambda day: f"{day},S003,K00003,1,n/a,web,no price\n",  # not a number
    lambda day: f"{day[:7]},S004,K00004,1,3.50,web,month only\n",  # a bad day
    lambda day: f"{day},S004,K00004,1.5,3.50,web,fractional\n",  # not an integer
)  # fmt: skip


def _write(path: Path, blocks: list[tuple[bytes, int]], bases: list[bytes],
           rng: np.random.Generator, malformed: int) -> tuple[list[int], list[int]]:  # fmt: skip
    """Write the header and each (day, base) block, planting ``malformed`` lines at the starts
    of seeded block halves. Returns the byte offset after each block and the planted halves
    (block index × 2 + half)."""
    plants = sorted(rng.choice(len(blocks) * 2, malformed, replace=False).tolist())
    offsets: list[int] = []
    with path.open("wb") as out:
        out.write(HEADER)
        for index, (day, base) in enumerate(blocks):
            text = bases[base].replace(DAY_SLOT, day)
            middle = text.index(b"\n", len(text) // 2) + 1
            view = memoryview(text)  # halves written without copying them
            for half, (start, end) in enumerate(((0, middle), (middle, len(text)))):
                if index * 2 + half in plants:
                    kind = MALFORMED_KINDS[(index * 2 + half) % len(MALFORMED_KINDS)]
                    out.write(kind(day.decode()).encode())
                out.write(view[start:end])
            offsets.append(out.tell())
    return offsets, plants


def _expected(blocks: list[tuple[bytes, int]], totals: list[dict[str, list[int]]]) -> Totals:
    result: Totals = defaultdict(lambda: [0, 0, 0])
    for day, base in blocks:
        for store, (units, cents, lines) in totals[base].items():
            entry = result[(day.decode(), store)]
            entry[0] += units
            entry[1] += cents
            entry[2] += lines
    return result


def _write_expected(path: Path, result: Totals) -> None:
    with path.open("w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["day", "store", "units", "revenue", "lines"])
        for (day, store), (units, cents, lines) in sorted(result.items()):
            writer.writerow([day, store, units, f"{cents // 100}.{cents % 100:02d}", lines])


def _sample(rng: np.random.Generator, folder: Path) -> None:
    """The workspace's small input (with malformed lines) and its expected output."""
    folder.mkdir(exist_ok=True)  # an empty folder is not in the repository
    base, totals = _base_block(rng, SAMPLE_LINES // SAMPLE_DAYS)
    blocks = [(day, 0) for day in _days(rng, SAMPLE_DAYS)]
    _write(folder / "sample.csv", blocks, [base], rng, 4)
    _write_expected(folder / "sample_expected.csv", _expected(blocks, [totals]))


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(20_000 + seed)
    bases, totals = zip(*(_base_block(rng, BLOCK_LINES) for _ in range(BASE_BLOCKS)), strict=True)
    blocks = [(day, int(rng.integers(0, BASE_BLOCKS))) for day in _days(rng, DAYS)]
    offsets, plants = _write(private / "input.csv", blocks, list(bases), rng, MALFORMED)
    full = _expected(blocks, list(totals))
    prefix = _expected(blocks[:PREFIX_DAYS], list(totals))
    _write_expected(private / "expected.csv", full)
    _write_expected(private / "expected_prefix.csv", prefix)
    meta = {
        "accepted": sum(v[2] for v in full.values()),
        "rejected": MALFORMED,
        "prefix_offset": offsets[PREFIX_DAYS - 1],  # the first PREFIX_DAYS blocks end here
        "prefix_accepted": sum(v[2] for v in prefix.values()),
        "prefix_rejected": sum(1 for plant in plants if plant < PREFIX_DAYS * 2),
        "bytes": offsets[-1],
    }
    (private / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    _sample(np.random.default_rng(90_000 + seed), workspace / "data")
    return {}
