"""The engineering task registry: every ``engineering/<id>/`` folder and ``splits/<name>.txt`` list.

Built-in tasks live in the package's ``engineering/`` folder (the repository's top-level
``engineering/``, installed like ``competitions/``); ``--mle-engineering-dir`` adds folders
(later ones win on id clashes). Every task is loaded and checked at session start
(:func:`pytest_mlebench.eng.task.load_task`), so a broken task stops the session with a message
that names its file. A split lists ids one a line; ids without a folder yet are kept apart in
:attr:`EngRegistry.unavailable` and selected by nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pytest_mlebench.eng.task import EngTask, load_task
from pytest_mlebench.errors import ConfigError, UnknownCompetition
from pytest_mlebench.suggest import closest, did_you_mean

BUILTIN_ENGINEERING_DIR = Path(__file__).resolve().parent.parent / "engineering"
SPLITS_FOLDER = "splits"


@dataclass(frozen=True)
class EngRegistry:
    """All engineering tasks of a session, with their splits."""

    tasks: Mapping[str, EngTask] = field(default_factory=dict)
    splits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unavailable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def get(self, task_id: str) -> EngTask:
        try:
            return self.tasks[task_id]
        except KeyError:
            offered = closest(task_id, self.tasks)
            hint = did_you_mean(offered) if offered else ""
            raise UnknownCompetition(
                f"unknown engineering task {task_id!r}{hint} (`mlebench list --kind engineering`)"
            ) from None

    def __iter__(self) -> Iterator[EngTask]:
        return iter(self.tasks[task_id] for task_id in sorted(self.tasks))

    def __len__(self) -> int:
        return len(self.tasks)


def load_eng_registry(
    folders: Sequence[Path] = (), *, builtin: Path | None = BUILTIN_ENGINEERING_DIR
) -> EngRegistry:
    """The tasks of ``builtin`` (absent: none) and of ``folders``; :class:`ConfigError` on a
    broken task or a missing folder."""
    roots = [root for root in (builtin,) if root is not None and root.is_dir()]
    for folder in folders:
        if not folder.is_dir():
            raise ConfigError(f"{folder}: engineering tasks folder does not exist")
        roots.append(folder)
    found: dict[str, Path] = {}
    for root in roots:
        for config in sorted(root.glob("*/config.yaml")):
            found[config.parent.name] = config.parent
    tasks = {task_id: load_task(folder) for task_id, folder in found.items()}
    splits: dict[str, list[str]] = {}
    for root in roots:
        for path in sorted((root / SPLITS_FOLDER).glob("*.txt")):
            ids = splits.setdefault(path.stem, [])
            ids.extend(task_id for task_id in read_ids(path) if task_id not in ids)
    membership: dict[str, set[str]] = {task_id: set() for task_id in tasks}
    for name, ids in splits.items():
        for task_id in ids:
            if task_id in membership:
                membership[task_id].add(name)
    tasks = {
        task_id: replace(task, splits=frozenset(membership[task_id]))
        for task_id, task in tasks.items()
    }
    return EngRegistry(
        tasks=tasks,
        splits={name: tuple(i for i in ids if i in tasks) for name, ids in splits.items()},
        unavailable={name: tuple(i for i in ids if i not in tasks) for name, ids in splits.items()},
    )


def read_ids(path: Path) -> list[str]:
    """Ids in a split file: one a line, ``#`` starts a comment, blank lines ignored."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]
