"""Say why a ``-m`` / ``-k`` selection left no benchmark test, instead of a silent "no tests".

Two causes are told apart: a split named in ``-m`` none of whose competitions is available here
(which split, how many ids it lists, why none is available, the command that fixes it), and words
that match no competition (the closest ids and split names, found with difflib).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.registry import BUILTIN_COMPETITIONS_DIR, Registry
from pytest_mlebench.suggest import closest, did_you_mean

# Words of a pytest -m / -k expression (pytest's own identifier characters), without the
# arguments of a marker call such as complexity(level='low').
_WORD = re.compile(r"[\w.:+\-\[\]\\/]+")
_CALL_ARGUMENTS = re.compile(r"\((\s*|\s*\w+\s*=[^()]*)\)")
_OPERATORS = frozenset({"and", "or", "not", "True", "False", "None"})
_SHOWN_IDS = 5


@dataclass(frozen=True)
class SelectionCount:
    """Benchmark tests before and after the selection, and every test it kept.

    Attributes:
        collected: Benchmark tests collected before ``-m`` / ``-k`` (and other deselection).
        selected: Benchmark tests left after it.
        kept: Tests of any kind left after it.
    """

    collected: int
    selected: int
    kept: int

    @property
    def emptied(self) -> bool:
        """The selection deselected every benchmark test and left no other test either."""
        return self.collected > 0 and self.selected == 0 and self.kept == 0

    def merged(self, other: SelectionCount) -> SelectionCount:
        """Counts of two xdist workers (each collects the same tests; keep the larger)."""
        return SelectionCount(
            max(self.collected, other.collected),
            max(self.selected, other.selected),
            max(self.kept, other.kept),
        )


def marker_names(marker_lines: Iterable[str]) -> set[str]:
    """Names of the ``markers`` ini lines (``"complexity(level): text"`` gives ``complexity``)."""
    return {line.split(":", 1)[0].split("(", 1)[0].strip() for line in marker_lines}


def expression_words(expression: str) -> list[str]:
    """The names an ``-m`` / ``-k`` expression mentions, in order, without operators."""
    bare = _CALL_ARGUMENTS.sub(" ", expression)
    words = (word for word in _WORD.findall(bare) if word not in _OPERATORS)
    return list(dict.fromkeys(words))


def empty_selection_lines(
    registry: Registry,
    markexpr: str,
    keywordexpr: str,
    marker_names: Iterable[str],
    competitions_dirs: Sequence[Path] = (),
) -> list[str]:
    """Why ``-m markexpr`` / ``-k keywordexpr`` matched no competition, and what to do."""
    markers = set(marker_names)
    lines: list[str] = []
    if markexpr:
        lines += _mark_lines(registry, markexpr, markers, competitions_dirs)
    if keywordexpr:
        lines += _keyword_lines(registry, keywordexpr, markers, competitions_dirs)
    return list(dict.fromkeys(lines))


def _mark_lines(
    registry: Registry, markexpr: str, marker_names: set[str], competitions_dirs: Sequence[Path]
) -> list[str]:
    words = expression_words(markexpr)
    unknown = [word for word in words if word not in marker_names and word not in registry.splits]
    ids = [word for word in unknown if word in registry.competitions]
    candidates = [*registry.splits, *marker_names, *registry.competitions]
    suggestions = [
        name for word in unknown if word not in ids for name in closest(word, candidates)
    ]
    lines = [f"no competition matches -m {markexpr!r}{did_you_mean(suggestions)}"]
    lines += [f"{cid!r} is a competition id, not a mark: select it with -k {cid}" for cid in ids]
    for split in _empty_splits(registry, words):
        lines += _empty_split_lines(registry, split, competitions_dirs)
    return lines


def _empty_split_lines(
    registry: Registry, split: str, competitions_dirs: Sequence[Path]
) -> list[str]:
    missing = registry.unavailable.get(split, ())
    if not missing:
        return [f"split {split!r} lists no competition ids: add ids to splits/{split}.txt"]
    folders = ", ".join(str(folder) for folder in (BUILTIN_COMPETITIONS_DIR, *competitions_dirs))
    shown = ", ".join(missing[:_SHOWN_IDS])
    more = f" and {len(missing) - _SHOWN_IDS} more" if len(missing) > _SHOWN_IDS else ""
    return [
        f"split {split!r} lists {len(missing)} competition ids and none is available: no "
        f"competition folder for any of them ({shown}{more}) in {folders}",
        "to run them, put their definitions (docs/competition-format.md) in a folder DIR and run: "
        f"pytest --mle-competitions-dir DIR -m {split}",
        f"`mlebench list --split {split} --competitions-dir DIR` shows which are then available; "
        f"`mlebench prepare --split {split} --competitions-dir DIR` prepares their data",
    ]


def _keyword_lines(
    registry: Registry, keywordexpr: str, marker_names: set[str], competitions_dirs: Sequence[Path]
) -> list[str]:
    ids = list(registry.competitions)
    words = expression_words(keywordexpr)
    unmatched = [
        word
        for word in words
        if word not in marker_names
        and word not in registry.splits
        and not any(word.lower() in cid.lower() for cid in ids)
    ]
    suggestions = [name for word in unmatched for name in closest(word, ids)]
    lines = [f"no competition matches -k {keywordexpr!r}{did_you_mean(suggestions)}"]
    for split in _empty_splits(registry, words):
        lines += _empty_split_lines(registry, split, competitions_dirs)
    return lines


def _empty_splits(registry: Registry, words: Iterable[str]) -> list[str]:
    return [word for word in words if word in registry.splits and not registry.splits[word]]
