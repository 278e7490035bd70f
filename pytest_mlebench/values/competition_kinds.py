"""The closed vocabularies of a competition's ``config.yaml``: complexity, data source, modality.

Kept apart from :mod:`pytest_mlebench.definition` (which reads the files, and imports the
graders with numpy and pyarrow) because the plugin registers a mark for each source and
modality in every pytest session, also one that loads no competition.
"""

from __future__ import annotations

from typing import Literal

Complexity = Literal["low", "medium", "high"]
Source = Literal["embedded", "kaggle"]
COMPLEXITIES: tuple[Complexity, ...] = ("low", "medium", "high")
SOURCES: tuple[Source, ...] = ("embedded", "kaggle")
MODALITIES = (
    "tabular",
    "image",
    "text",
    "audio",
    "timeseries",
    "recommendation",
    "survival",
    "multimodal",
)
