"""The public folder of a description variant: the prepared files, another description."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.variants.public_view import (
    VariantMissing,
    variant_description,
    variant_public,
)


@pytest.fixture
def prepared(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``<data>/toy/prepared/{public,manifest.json}`` and the competition folder."""
    public = tmp_path / "data" / "toy" / "prepared" / "public"
    (public / "images").mkdir(parents=True)
    (public / "train.csv").write_text("id,label\n1,0\n")
    (public / "images" / "a.png").write_bytes(b"png")
    (public / "description.md").write_text("# Toy Challenge\n")
    manifest = public.parent / "manifest.json"
    manifest.write_text(json.dumps({"files": {}}))
    folder = tmp_path / "defs" / "toy"
    folder.mkdir(parents=True)
    (folder / "description.md").write_text("# Toy Challenge\n")
    (folder / "description_obfuscated.md").write_text("# Task\n")
    return public, manifest, folder


def test_standard_mounts_the_prepared_folder(prepared: tuple[Path, Path, Path]) -> None:
    public, manifest, folder = prepared
    description = variant_description(folder, "standard")
    assert variant_public(public, manifest, description, "standard") == public


def test_the_view_has_the_same_files_and_the_variants_description(
    prepared: tuple[Path, Path, Path],
) -> None:
    public, manifest, folder = prepared
    view = variant_public(public, manifest, variant_description(folder, "obfuscated"), "obfuscated")
    assert view == public.parent.parent / "variants" / "obfuscated" / "public"
    assert (view / "description.md").read_text() == "# Task\n"
    assert (public / "description.md").read_text() == "# Toy Challenge\n"  # untouched
    assert (view / "images" / "a.png").read_bytes() == b"png"
    assert (view / "train.csv").stat().st_ino == (public / "train.csv").stat().st_ino  # a link


def test_the_view_is_made_again_when_the_data_or_the_text_change(
    prepared: tuple[Path, Path, Path],
) -> None:
    public, manifest, folder = prepared
    description = variant_description(folder, "obfuscated")
    view = variant_public(public, manifest, description, "obfuscated")
    (view / "stale").write_text("x")
    assert variant_public(public, manifest, description, "obfuscated") == view
    assert (view / "stale").exists()  # nothing changed: built once
    (public / "test.csv").write_text("id\n2\n")
    manifest.write_text(json.dumps({"files": {"test.csv": "…"}}))  # prepared again
    variant_public(public, manifest, description, "obfuscated")
    assert not (view / "stale").exists() and (view / "test.csv").exists()
    description.write_text("# Task\n\nReworded.\n")
    variant_public(public, manifest, description, "obfuscated")
    assert (view / "description.md").read_text() == "# Task\n\nReworded.\n"


def test_a_missing_variant_names_the_command_that_makes_it(tmp_path: Path) -> None:
    with pytest.raises(VariantMissing, match=r"tools/obfuscate_descriptions\.py"):
        variant_description(tmp_path, "obfuscated")
