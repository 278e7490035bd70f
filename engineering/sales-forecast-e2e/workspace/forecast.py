"""Seven-day sales forecast per store x item: last week's sales again (seasonal naive).

Usage: python3 forecast.py HISTORY CALENDAR OUT
"""

import sys

import pandas as pd


def main(history_path: str, calendar_path: str, out_path: str) -> None:
    history = pd.read_csv(history_path)
    calendar = pd.read_csv(calendar_path)
    rows = []
    for (store, item), past in history.groupby(["store", "item"]):
        last_week = past.sort_values("date").tail(7)["sales"].to_list()
        days = calendar[(calendar["store"] == store) & (calendar["item"] == item)]
        for n, date in enumerate(days["date"]):
            rows.append({"date": date, "store": store, "item": item, "forecast": last_week[n]})
    pd.DataFrame(rows).to_csv(out_path, index=False)


if __name__ == "__main__":
    main(*sys.argv[1:4])
