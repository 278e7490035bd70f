"""The price table: US dollars per million input and output tokens, per model.

The shipped table (``prices.yaml`` beside this module) holds the providers' list prices; a user's
file given with ``--mle-price-table`` (same layout) is laid over it, its entries winning. A model is
found by its exact name, else by the longest listed name it starts with, so dated snapshots
(``gpt-4o-2024-08-06``) take their family's price. An unlisted model has no price: its calls cost
``None`` and the run's record names it, nothing fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.yaml_text import load_yaml

SHIPPED_TABLE = Path(__file__).with_name("prices.yaml")
PER_TOKENS = 1_000_000


@dataclass(frozen=True)
class Price:
    """Dollars per million input and output tokens of one model."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / PER_TOKENS


@dataclass(frozen=True)
class PriceTable:
    """Model name → :class:`Price`, with prefix lookup for dated model names."""

    prices: Mapping[str, Price]

    def price_of(self, model: str | None) -> Price | None:
        if not model:
            return None
        if model in self.prices:
            return self.prices[model]
        # "openai/gpt-4o" (a proxy's spelling) is priced like "gpt-4o".
        bare = model.rsplit("/", 1)[-1]
        matches = [name for name in self.prices if bare.startswith(name)]
        return self.prices[max(matches, key=len)] if matches else None

    def cost(self, model: str | None, input_tokens: int, output_tokens: int) -> float | None:
        price = self.price_of(model)
        return None if price is None else price.cost(input_tokens, output_tokens)


def load_price_table(override: Path | None = None) -> PriceTable:
    """The shipped table with ``override``'s entries laid over it.

    Raises:
        ConfigError: When a table cannot be read or an entry is malformed (the message names it).
    """
    prices = dict(_read_table(SHIPPED_TABLE))
    if override is not None:
        prices.update(_read_table(override))
    return PriceTable(prices)


def _read_table(path: Path) -> dict[str, Price]:
    try:
        data = load_yaml(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"price table {path}: cannot be read ({exc})") from None
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        raise ConfigError(
            f"price table {path}: expected a 'models:' mapping of model names to "
            "{input: DOLLARS, output: DOLLARS} per million tokens"
        )
    return {str(name): _price(path, str(name), entry) for name, entry in models.items()}


def _price(path: Path, name: str, entry: Any) -> Price:
    try:
        price = Price(input=float(entry["input"]), output=float(entry["output"]))
    except (TypeError, KeyError, ValueError):
        raise ConfigError(
            f"price table {path}: model {name!r} needs numbers 'input' and 'output' "
            f"(dollars per million tokens), got {entry!r}"
        ) from None
    if price.input < 0 or price.output < 0:
        raise ConfigError(f"price table {path}: model {name!r} has a negative price")
    return price
