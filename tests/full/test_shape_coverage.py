"""Every Kaggle competition outside Lite has a shaped download in ``tests/full/shapes/``.

``tests/full/test_full_competitions.py`` (and the baseline, board and original-score tests) run
on the competitions that *have* a shape module; one without would be skipped by all of them in
silence. This test makes the shape part of shipping a Medium or High competition, or any Kaggle
competition beyond MLE-bench's 75 (``docs/adding-a-competition.md``). Lite competitions have
theirs in ``tests/lite/shapes/`` (``tests/lite/test_lite.py`` fails without one).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from pytest_mlebench.registry import Registry, load_registry
from tests.factories import toy_config, write_competition
from tests.full.shapes import load_shapes


def without_shape(registry: Registry, shaped: Collection[str]) -> list[str]:
    """Kaggle competitions of ``registry`` outside the Lite split that no shape module names."""
    lite = (
        {competition.id for competition in registry.split("lite")}
        if "lite" in registry.splits
        else set()
    )
    return sorted(
        competition.id
        for competition in registry
        if competition.source == "kaggle"
        and competition.id not in lite
        and competition.id not in shaped
    )


def test_every_medium_high_and_other_kaggle_competition_has_a_shape() -> None:
    registry = load_registry()
    shaped = set(load_shapes())
    missing = without_shape(registry, shaped)
    assert not missing, (
        f"no Kaggle-shaped download for {', '.join(missing)}: add a module to tests/full/shapes/ "
        "whose COMPETITION is the id (usually <id_with_underscores>.py; the contract is in the "
        "package's docstring, the steps in docs/adding-a-competition.md, section 4)"
    )
    medium_high = {c.id for split in ("medium", "high") for c in registry.split(split)}
    assert medium_high and medium_high <= shaped


def test_a_medium_competition_without_a_shape_is_named(tmp_path: Path) -> None:
    config = toy_config("toy-medium", complexity="medium", source="kaggle")
    write_competition(tmp_path, "toy-medium", config=config, splits={"medium": ["toy-medium"]})
    write_competition(tmp_path, "toy-embedded", config=toy_config("toy-embedded"))
    registry = load_registry([tmp_path])
    shaped = set(load_shapes())
    assert without_shape(registry, shaped) == ["toy-medium"]
    assert without_shape(registry, {*shaped, "toy-medium"}) == []
