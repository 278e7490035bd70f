"""Code similarity with winnowing fingerprints (``copydetect``, as in MOSS and Dolos).

A run's code (``code/`` of its run folder) is compared with (a) the competition's reference
corpus — ``competitions/<id>/references/`` or ``--mle-references DIR`` (``DIR/<id>/``), e.g. public
notebooks downloaded once — and (b) the code of the other runs of the session
(:mod:`.session`). A match is a pair of files where at least ``threshold`` of one file's
fingerprinted tokens appear in the other; it names both files, the score and the matching line
spans. ``copydetect`` comes with the ``integrity`` extra; without it the check is reported as
skipped with the command that installs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.integrity.filekinds import SIMILARITY_SUFFIXES

NOISE_TOKENS = 25  # k-gram length (copydetect's noise threshold)
WINDOW = 4  # winnowing window: a match of NOISE_TOKENS + WINDOW - 1 tokens is always seen
MAX_FILE_BYTES = 2 * 1024**2
TOP_MATCHES = 5
INSTALL_HINT = "pip install 'pytest-mlebench[integrity]' (copydetect)"


class SimilarityUnavailable(MLEBenchError):
    """``copydetect`` is not installed."""


@dataclass(frozen=True)
class Match:
    """Two files whose code overlaps: scores are shares of each file's fingerprinted tokens."""

    file: str
    other: str
    similarity: float
    other_similarity: float
    lines: str
    other_lines: str

    def to_evidence(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "other": self.other,
            "similarity": round(self.similarity, 3),
            "other_similarity": round(self.other_similarity, 3),
            "lines": self.lines,
            "other_lines": self.other_lines,
        }


def code_files(folder: Path) -> list[Path]:
    """Source files under ``folder`` that copydetect can tokenize."""
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and not p.is_symlink()
        and p.suffix.lower() in SIMILARITY_SUFFIXES
        and p.stat().st_size <= MAX_FILE_BYTES
    )


def _copydetect() -> Any:
    try:
        import copydetect
    except ImportError:
        raise SimilarityUnavailable(
            f"the similarity check needs copydetect: {INSTALL_HINT}"
        ) from None
    return copydetect


class Fingerprints:
    """Fingerprints of files, computed once each (a file may be compared many times)."""

    def __init__(self, min_tokens: int) -> None:
        self.min_tokens = min_tokens
        self._cache: dict[Path, Any] = {}
        self._copydetect = _copydetect()

    def of(self, path: Path) -> Any | None:
        if path not in self._cache:
            try:
                print_ = self._copydetect.CodeFingerprint(str(path), NOISE_TOKENS, WINDOW)
            except (OSError, UnicodeDecodeError, ValueError):
                print_ = None
            if print_ is not None and print_.token_coverage < self.min_tokens:
                print_ = None
            self._cache[path] = print_
        return self._cache[path]

    def compare(self, first: Path, second: Path) -> tuple[float, float, str, str] | None:
        a, b = self.of(first), self.of(second)
        if a is None or b is None:
            return None
        _, (sim_a, sim_b), (slices_a, slices_b) = self._copydetect.compare_files(a, b)
        if not sim_a and not sim_b:
            return None
        return (
            float(sim_a),
            float(sim_b),
            _line_spans(a.raw_code, slices_a),
            _line_spans(b.raw_code, slices_b),
        )


def _line_spans(code: str, slices: Any) -> str:
    """``12-40, 55-60``: the lines of ``code`` covered by copydetect's character slices."""
    if len(slices) == 0 or len(slices[0]) == 0:
        return ""
    spans: list[tuple[int, int]] = []
    for start, end in zip(slices[0], slices[1], strict=False):
        first = code.count("\n", 0, int(start)) + 1
        last = code.count("\n", 0, max(int(start), int(end) - 1)) + 1
        if spans and first <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], max(spans[-1][1], last))
        else:
            spans.append((first, last))
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def top_matches(
    mine: list[Path],
    theirs: list[Path],
    threshold: float,
    fingerprints: Fingerprints,
    *,
    mine_root: Path,
    theirs_root: Path,
) -> list[Match]:
    """Pairs over ``threshold`` (either file's share), best first, at most :data:`TOP_MATCHES`."""
    found = []
    for first in mine:
        for second in theirs:
            compared = fingerprints.compare(first, second)
            if compared is None or max(compared[0], compared[1]) < threshold:
                continue
            found.append(
                Match(
                    _relative(first, mine_root),
                    _relative(second, theirs_root),
                    compared[0],
                    compared[1],
                    compared[2],
                    compared[3],
                )
            )
    found.sort(key=lambda m: -max(m.similarity, m.other_similarity))
    return found[:TOP_MATCHES]


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def reference_folder(
    competition_dir: Path | None,
    references: Path | None,
    competition_id: str,
    data_dir: Path | None = None,
) -> Path | None:
    """The competition's reference corpus.

    With ``--mle-references DIR``: ``DIR/<competition id>/``, or ``DIR`` itself when it holds
    source files directly; else the competition folder's ``references/``; else the notebooks
    that ``mlebench prepare --references`` fetched into ``<data dir>/<id>/references/``, when it
    holds any; else none.
    """
    if references is not None:
        own = references / competition_id
        if own.is_dir():
            return own
        return references if code_files_here(references) else None
    if competition_dir is not None and (competition_dir / "references").is_dir():
        return competition_dir / "references"
    fetched = data_dir / competition_id / "references" if data_dir is not None else None
    if fetched is not None and code_files_here(fetched):
        return fetched
    return None


def code_files_here(folder: Path) -> bool:
    """Whether ``folder`` holds source files directly (a one-competition corpus)."""
    return folder.is_dir() and any(
        p.suffix.lower() in SIMILARITY_SUFFIXES for p in folder.iterdir() if p.is_file()
    )
