"""The competition registry: every ``competitions/<id>/`` folder and ``splits/<name>.txt`` list.

Each folder is loaded and checked by :func:`pytest_mlebench.definition.load_competition` at
session start, so a broken config or leaderboard stops the session with a message that names the
file and the fix instead of failing mid-run. The format is documented in
``docs/competition-format.md``.

The MLE-bench splits (``lite``, ``medium``, ``high`` and their union ``all``) list the original's
75 ids, whether or not this release has a folder for each: the ids without one are kept in
:attr:`Registry.unavailable` (``mlebench list`` shows them as not yet available), and a folder
listed in ``lite``/``medium``/``high`` must declare the complexity of its split
(:data:`SPLIT_COMPLEXITY`), so ``-m "complexity(level='medium')"`` and ``-m medium`` agree.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.definition import (
    COMPLEXITIES,
    MODALITIES,
    SOURCES,
    Competition,
    Complexity,
    Resources,
    Source,
    load_competition,
    load_leaderboard,
    load_prepare,
)
from pytest_mlebench.errors import ConfigError, UnknownCompetition
from pytest_mlebench.suggest import closest, did_you_mean

# The definition's names stay importable from here, where most callers look for them.
__all__ = [
    "BUILTIN_COMPETITIONS_DIR",
    "COMPLEXITIES",
    "MODALITIES",
    "SOURCES",
    "SPLIT_COMPLEXITY",
    "Competition",
    "Complexity",
    "Registry",
    "Resources",
    "Source",
    "load_competition",
    "load_leaderboard",
    "load_one",
    "load_prepare",
    "load_registry",
    "read_id_list",
]

BUILTIN_COMPETITIONS_DIR = Path(__file__).resolve().parent / "competitions"
WRAP_WIDTH = 96  # the list of known ids in an "unknown competition" message
# The complexity every member of an MLE-bench split declares (the original's low/medium/high).
SPLIT_COMPLEXITY: dict[str, Complexity] = {"lite": "low", "medium": "medium", "high": "high"}


@dataclass(frozen=True)
class Registry:
    """All competitions found in the competition folders, with their splits."""

    competitions: Mapping[str, Competition]
    splits: Mapping[str, tuple[str, ...]]
    unavailable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def get(self, competition_id: str) -> Competition:
        try:
            return self.competitions[competition_id]
        except KeyError:
            raise UnknownCompetition(
                _unknown("competition", competition_id, self.competitions)
            ) from None

    def split(self, name: str) -> list[Competition]:
        if name not in self.splits:
            raise UnknownCompetition(_unknown("split", name, self.splits))
        return [self.competitions[cid] for cid in self.splits[name]]

    def __iter__(self) -> Any:
        return iter(self.competitions[cid] for cid in sorted(self.competitions))

    def __len__(self) -> int:
        return len(self.competitions)


def _unknown(kind: str, name: str, known: Iterable[str]) -> str:
    """``unknown split 'lyte'; did you mean: lite?``, or every known name when none is close."""
    offered = closest(name, known)
    if offered:
        return f"unknown {kind} {name!r}{did_you_mean(offered)} (`mlebench list` shows them all)"
    names = sorted(known)
    if not names:
        return f"unknown {kind} {name!r}; no {kind}s are defined"
    # wrapped, one block of lines: 89 ids on one line is unreadable in a terminal
    listed = textwrap.fill(
        ", ".join(names),
        width=WRAP_WIDTH,
        initial_indent="  ",
        subsequent_indent="  ",
        break_on_hyphens=False,
    )
    return f"unknown {kind} {name!r}; none is close; known {kind}s ({len(names)}):\n{listed}"


def load_registry(folders: Sequence[Path] = ()) -> Registry:
    """Load the built-in competitions plus those in ``folders`` (later folders win on clashes)."""
    roots = [BUILTIN_COMPETITIONS_DIR, *folders]
    folders_by_id = _competition_folders(roots)
    split_files = _split_files(roots)
    splits, unavailable = _load_splits(split_files, set(folders_by_id))
    competitions = {
        cid: load_competition(folder, _membership(cid, splits))
        for cid, folder in folders_by_id.items()
    }
    _check_split_complexity(competitions, splits, split_files)
    return Registry(competitions=competitions, splits=splits, unavailable=unavailable)


def load_one(competition_id: str, folders: Sequence[Path] = ()) -> Competition:
    """The competition ``competition_id`` as :func:`load_registry` would give it, reading only
    its own folder (and the split lists): what a command about one competition needs, at the
    cost of one config, one board and one metric module instead of every one of them.

    Raises:
        UnknownCompetition: no folder has that id (the whole registry is loaded to find the
            closest ids for the message).
        ConfigError: its folder is broken, or a split lists it against its complexity.
    """
    roots = [BUILTIN_COMPETITIONS_DIR, *folders]
    folder = _competition_folders(roots).get(competition_id)
    if folder is None:
        return load_registry(folders).get(competition_id)
    split_files = _split_files(roots)
    splits, _ = _load_splits(split_files, {competition_id})
    competition = load_competition(folder, _membership(competition_id, splits))
    _check_split_complexity({competition_id: competition}, splits, split_files)
    return competition


def _competition_folders(roots: Iterable[Path]) -> dict[str, Path]:
    """Every competition folder of ``roots`` by id, a later root's folder winning."""
    folders_by_id: dict[str, Path] = {}
    for root in roots:
        if not root.is_dir():
            raise ConfigError(f"{root}: competitions folder does not exist")
        for config in sorted(root.glob("*/config.yaml")):
            folders_by_id[config.parent.name] = config.parent
    return folders_by_id


def _membership(competition_id: str, splits: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """The names of the splits that list ``competition_id``."""
    return frozenset(name for name, ids in splits.items() if competition_id in ids)


def _check_split_complexity(
    competitions: Mapping[str, Competition],
    splits: Mapping[str, tuple[str, ...]],
    split_files: Mapping[str, list[Path]],
) -> None:
    """A member of ``lite``/``medium``/``high`` whose config declares another complexity."""
    for split, wanted in SPLIT_COMPLEXITY.items():
        for cid in splits.get(split, ()):
            declared = competitions[cid].complexity
            if declared != wanted:
                listed = ", ".join(str(path) for path in split_files[split])
                raise ConfigError(
                    f"{competitions[cid].config_path}: complexity {declared!r}, but {listed} "
                    f"lists {cid!r} in the {split} split, whose competitions are {wanted!r}; "
                    f"declare complexity: {wanted} or move the id to the right split file"
                )


def _split_files(roots: Iterable[Path]) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for root in roots:
        for path in sorted((root / "splits").glob("*.txt")):
            found.setdefault(path.stem, []).append(path)
    return found


def _load_splits(
    split_files: Mapping[str, list[Path]], known: set[str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Split name → available ids, and split name → ids listed but not shipped in any folder."""
    splits: dict[str, tuple[str, ...]] = {}
    unavailable: dict[str, tuple[str, ...]] = {}
    for name, paths in split_files.items():
        ids = list(dict.fromkeys(cid for path in paths for cid in read_id_list(path)))
        splits[name] = tuple(cid for cid in ids if cid in known)
        unavailable[name] = tuple(cid for cid in ids if cid not in known)
    return splits, unavailable


def read_id_list(path: Path) -> list[str]:
    """Ids in a split file: one per line, ``#`` starts a comment, blank lines ignored."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]
