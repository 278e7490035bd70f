"""The marks every pytest session of an environment with the plugin knows, split marks aside.

Registered by the entry point (:mod:`pytest_mlebench.plugin`) in every session, awake or not, so
``--strict-markers`` accepts them wherever they are written; the marks of the registry's splits
(``lite``, …) are registered when the plugin wakes and loads the registry.
"""

from __future__ import annotations

import pytest

from pytest_mlebench.known_issues import MARKS as ISSUE_MARKS
from pytest_mlebench.values.competition_kinds import MODALITIES, SOURCES

FIXED_MARKERS = {
    "complexity(level)": "competition complexity: 'low' (< 2 h for an expert), 'medium' "
    "(2-10 h) or 'high' (> 10 h); select with -m \"complexity(level='low')\"",
    "mlebench": "a benchmark run of one competition (every parametrisation of the benchmark test)",
    **{source: f"competition whose data source is {source}" for source in SOURCES},
    **{modality: f"competition of modality {modality}" for modality in MODALITIES},
    **ISSUE_MARKS,
    "engineering": "an engineering task (docs/engineering.md): a job checked by hidden tests",
    "category(name)": "engineering task category: serving, packaging, infra, training, data, "
    "pipeline, code or observability; select with -m \"category(name='serving')\"",
}


def register_fixed_markers(config: pytest.Config) -> None:
    for marker, text in FIXED_MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {text}")
