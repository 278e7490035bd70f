"""Read and write the COCO-style metadata JSON of Kaggle's image sets (herbarium, iWildCam).

Reading tolerates the one encoding fault known in these files (the 2020 herbarium metadata is
not valid UTF-8 throughout, so it falls back to Latin-1, as MLE-bench reads it); a file that is
not JSON is a :class:`~pytest_mlebench.errors.PrepareError` that says to download it again.
Writing is compact, with sorted keys, so preparing twice gives identical bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import PrepareError


def read_metadata(path: Path) -> Any:
    """The parsed JSON of ``path``: UTF-8, or Latin-1 where a byte is not UTF-8."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PrepareError(f"{path} is not JSON ({exc}); download it again") from None


def write_metadata(path: Path, content: object) -> None:
    """Write ``content`` as compact JSON with sorted keys (the same bytes every time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, sort_keys=True), encoding="utf-8")
