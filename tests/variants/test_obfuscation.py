"""The obfuscated descriptions: the procedure, case by case, and every committed variant."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.setting_table import DESCRIPTION_VARIANTS
from pytest_mlebench.variants.obfuscation import (
    Identity,
    identity_of,
    load_identity_table,
    obfuscate,
    prose_dates_left,
    surviving_identity,
)
from pytest_mlebench.variants.public_view import OBFUSCATED_FILE, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = sorted(p.parent for p in (ROOT / "competitions").glob("*/config.yaml"))
TOY = Identity("ames-house-prices", "Ames House Prices", {"Ames": "the town", "Iowa": "the state"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Ames House Prices\n\nBody.\n", "# Task\n\nBody.\n"),
        ("Homes in Ames, Iowa.\n", "Homes in the town, the state.\n"),
        ("Column names stay.\n", "Column names stay.\n"),  # "ames" inside a word is not the town
        ("As in the ames house prices set.\n", "As in the this competition set.\n"),
        ("See [the page](https://example.org/x) or www.example.org.\n",
         "See the page or a public source.\n"),
        ("Kaggle's split. On KAGGLE.\n", "The original split. On the original platform.\n"),
        ("Sold from December 2010 to 15 April 2012, in 2013.\n",
         "Sold from [date] to [date], in [year].\n"),
        ("Days from 2001-01-22 on.\n", "Days from [date] on.\n"),
        ("    2015-01-27 13:08:24,11.35\n", "    2015-01-27 13:08:24,11.35\n"),  # an example line
        ("```\n2020-05-15,1\n```\n", "```\n2020-05-15,1\n```\n"),
        ("Stored as JPEG 2000 at 2048 pixels.\n", "Stored as JPEG 2000 at 2048 pixels.\n"),
    ],
)  # fmt: skip
def test_obfuscate_cases(text: str, expected: str) -> None:
    assert obfuscate(text, TOY) == expected


def test_replacements_read_as_sentences() -> None:
    identity = Identity("x", "X Challenge", {"Observatory X": "the observatory", "Acme": "a firm"})
    text = "The Observatory X observatory.\n\nAcme runs it. The Acme data.\n"
    assert obfuscate(text, identity) == "The observatory.\n\nA firm runs it. A firm data.\n"


def test_the_longest_identifying_string_is_replaced_first() -> None:
    identity = Identity("x", "X", {"New York": "the city", "a New York City": "a city"})
    assert obfuscate("A ride in a New York City cab.\n", identity) == "A ride in a city cab.\n"


def test_survivors_are_found_in_any_case_and_with_spaces_for_dashes() -> None:
    assert surviving_identity("AMES HOUSE PRICES data", TOY) == [
        "Ames House Prices",
        "ames house prices",
        "Ames",
    ]
    assert "ames house prices" in surviving_identity("the ames house prices set", TOY)
    assert surviving_identity("on kaggle.com", TOY) == ["kaggle"]
    assert surviving_identity("column names", TOY) == []


def test_the_variant_names_agree() -> None:
    assert DESCRIPTION_VARIANTS == VARIANTS


def test_every_competition_has_a_variant_in_the_table() -> None:
    assert {folder.name for folder in FOLDERS} == set(load_identity_table())
    assert len(FOLDERS) == 89  # 75 Kaggle competitions and 14 embedded ones


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.name)
def test_no_identifying_string_survives(folder: Path) -> None:
    """The committed variant exists, is what the procedure makes, and names nothing."""
    identity = identity_of(folder)
    committed = (folder / OBFUSCATED_FILE).read_text("utf-8")
    assert surviving_identity(committed, identity) == []
    assert identity.competition_id.replace("-", " ").lower() not in committed.lower()
    assert prose_dates_left(committed) == []
    made = obfuscate((folder / "description.md").read_text("utf-8"), identity)
    assert committed == made, "regenerate: python tools/obfuscate_descriptions.py"
