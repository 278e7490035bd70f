"""Daily totals per store from an order-lines CSV.

Usage: python3 aggregate.py INPUT OUTPUT

Writes OUTPUT with the columns day,store,units,revenue,lines (sorted by day, then store) and
prints {"accepted": A, "rejected": R} as its last line of output.
"""

import json
import sys

import pandas as pd

DAY = r"\d{4}-\d{2}-\d{2}"
QTY = r"[1-9]\d*"
PRICE = r"\d+\.\d{2}"


def main(source: str, target: str) -> int:
    frame = pd.read_csv(source, dtype=str, keep_default_na=False)
    good = (
        frame["day"].str.fullmatch(DAY)
        & frame["store"].ne("")
        & frame["qty"].str.fullmatch(QTY)
        & frame["unit_price"].str.fullmatch(PRICE)
        & frame["note"].notna()
    )
    lines = frame[good.fillna(False)].copy()
    lines["units"] = lines["qty"].astype(int)
    lines["cents"] = lines["units"] * lines["unit_price"].str.replace(".", "", regex=False).astype(
        int
    )
    totals = lines.groupby(["day", "store"]).agg(
        units=("units", "sum"), cents=("cents", "sum"), lines=("units", "size")
    )
    with open(target, "w") as out:
        out.write("day,store,units,revenue,lines\n")
        for (day, store), row in totals.sort_index().iterrows():
            cents = int(row["cents"])
            out.write(
                f"{day},{store},{row['units']},{cents // 100}.{cents % 100:02d},{row['lines']}\n"
            )
    print(json.dumps({"accepted": len(lines), "rejected": len(frame) - len(lines)}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
