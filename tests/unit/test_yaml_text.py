"""The registry's YAML reader: libyaml's safe loader where present, meaning the same as PyYAML's."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pytest_mlebench.yaml_text import SafeLoader, load_yaml

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    [
        *ROOT.glob("competitions/*/config.yaml"),
        *ROOT.glob("pytest_mlebench/engineering/*/task.yaml"),
        *ROOT.glob("pytest_mlebench/agents/folders/*/config.yaml"),
    ]
)


def test_the_c_parser_is_used_where_pyyaml_has_it() -> None:
    expected = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
    assert SafeLoader is expected


def test_every_shipped_file_means_what_the_python_parser_reads() -> None:
    assert len(SHIPPED) > 50, "the glob no longer finds the shipped folders"
    for path in SHIPPED:
        text = path.read_text("utf-8")
        assert load_yaml(text) == yaml.safe_load(text), path


@pytest.mark.parametrize(
    "text", ["!!python/object/apply:os.system ['true']", "a: !!python/name:os.system"]
)
def test_python_objects_are_refused(text: str) -> None:
    with pytest.raises(yaml.YAMLError):
        load_yaml(text)


def test_an_empty_document_is_none() -> None:
    assert load_yaml("") is None
