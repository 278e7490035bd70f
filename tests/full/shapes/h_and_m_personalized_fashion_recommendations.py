"""Kaggle's download of h-and-m-personalized-fashion-recommendations: four CSVs and JPEGs.

``h-and-m-personalized-fashion-recommendations.zip`` holds ``transactions_train.csv``
(``t_dat,customer_id,article_id,price,sales_channel_id``: ISO dates, 64-hex customer ids,
10-digit article ids with their leading zero, prices such as ``0.0508474576271186``),
``customers.csv`` and ``articles.csv`` (the first columns of Kaggle's: ``customer_id, FN,
Active, club_member_status, fashion_news_frequency, age, postal_code``; ``article_id,
product_code, prod_name, product_type_no, product_type_name, product_group_name,
colour_group_code, colour_group_name``), ``sample_submission.csv`` (every customer, the same 12
articles) and ``images/<first 3 digits>/<article_id>.jpg``. Purchases span 60 days ending
2020-09-22, Kaggle's last date, over 2,000 articles (so 12 popular ones rarely hit, as on
Kaggle); each customer mostly buys from a favourite product group, so history predicts the
test week.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "h-and-m-personalized-fashion-recommendations"
EMPTY_CELL_IS_TEXT = True  # an empty ranking is a valid prediction of nothing
LAST_DAY = dt.date(2020, 9, 22)
DAYS = 60
CUSTOMERS = 80
ARTICLES = 2000
PICTURES = 40  # Kaggle has no picture for some articles; here only the first few have one
GROUPS = ("Garment Upper body", "Garment Lower body", "Shoes", "Accessories")


def _article_ids(rng: np.random.Generator) -> list[str]:
    codes = np.sort(rng.choice(np.arange(108_775, 959_461), ARTICLES, replace=False))
    return [f"0{code:06d}{int(rng.integers(1, 4)):03d}" for code in codes]


def make_download(folder: Path, rng: np.random.Generator) -> None:
    articles = _article_ids(rng)
    groups = [GROUPS[i % len(GROUPS)] for i in range(ARTICLES)]
    customers = [random_hex(rng, 64) for _ in range(CUSTOMERS)]
    rows = []
    for customer in customers:
        favourite = int(rng.integers(len(GROUPS)))
        mine = [a for a, g in zip(articles, groups, strict=True) if g == GROUPS[favourite]]
        for _ in range(int(rng.integers(2, 12))):
            day = LAST_DAY - dt.timedelta(days=int(rng.integers(0, DAYS)))
            article = str(rng.choice(mine if rng.random() < 0.8 else articles))
            price = round(float(rng.uniform(0.005, 0.2)), 16)
            rows.append((day.isoformat(), customer, article, repr(price), int(rng.integers(1, 3))))
    rows.sort(key=lambda row: row[0])  # Kaggle's file is in date order
    transactions = pd.DataFrame(
        rows, columns=["t_dat", "customer_id", "article_id", "price", "sales_channel_id"]
    )
    customer_table = pd.DataFrame(
        {
            "customer_id": customers,
            "FN": rng.choice(["1.0", ""], CUSTOMERS),
            "Active": rng.choice(["1.0", ""], CUSTOMERS),
            "club_member_status": "ACTIVE",
            "fashion_news_frequency": rng.choice(["NONE", "Regularly"], CUSTOMERS),
            "age": rng.integers(18, 80, CUSTOMERS),
            "postal_code": [random_hex(rng, 64) for _ in range(CUSTOMERS)],
        }
    )
    article_table = pd.DataFrame(
        {
            "article_id": articles,
            "product_code": [a[:7] for a in articles],
            "prod_name": [f"Item {i}" for i in range(ARTICLES)],
            "product_type_no": 250,
            "product_type_name": "Sweater",
            "product_group_name": groups,
            "colour_group_code": 9,
            "colour_group_name": "Black",
        }
    )
    popular = " ".join(articles[:12])
    sample = pd.DataFrame({"customer_id": customers, "prediction": popular})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("transactions_train.csv", transactions.to_csv(index=False))
        bundle.writestr("customers.csv", customer_table.to_csv(index=False))
        bundle.writestr("articles.csv", article_table.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for article in articles[:PICTURES]:
            picture = encoded(tinted_noise(rng, 4, 4, (90, 90, 90)), "JPEG")
            bundle.writestr(f"images/{article[:3]}/{article}.jpg", picture)


def public_train_labels(public: Path) -> pd.DataFrame:
    """Each customer's train purchases, as a ranking in purchase order."""
    train = pd.read_csv(public / "transactions_train.csv", dtype=str)
    lists = train.groupby("customer_id", sort=True)["article_id"].agg(" ".join)
    return lists.rename("prediction").reset_index()


def group_values(public: Path) -> tuple[list[str], list[str]]:
    """Train purchase dates, and the 8 dates of the held-out period (Kaggle's last 8 days)."""
    train = pd.read_csv(public / "transactions_train.csv", dtype=str, usecols=["t_dat"])
    week = [(LAST_DAY - dt.timedelta(days=n)).isoformat() for n in range(8)]
    return list(train["t_dat"]), week
