"""What a ``prepare`` batch would fetch and how much disk it needs (``--dry-run``, the space check).

Sizes come, in order of trust, from Kaggle's file list (when credentials and the client are
there and the list fits one page), from the zip's own directory (``--from`` a zip), or from
:mod:`pytest_mlebench.kaggle.sizes`, a table of the sizes of all 75 MLE-bench competitions'
data. Kaggle tells no size without credentials, so the table is what a dry run on a fresh
machine shows: its per-competition figures are estimates, printed with ``~`` and ``[estimate]``,
and the totals and the disk verdict then say "estimated" and end with a note on where exact
sizes come from. The Lite table's totals match the published ones (about 158 GB for the 22, 116
GB of it siim-isic-melanoma-classification, so about 42 GB without it).

A split's ids without a competition folder in this release (``not_yet``) are listed too, with
their sizes from the table, and the whole split's total is checked against the free space
beside the batch's own, so that ``--split all --dry-run`` tells what the full benchmark needs.

Disk needed: the extracted files of every competition still to fetch, plus room for the largest
archive while it is being extracted (each archive is deleted after its extraction). Prepared
folders hard-link the raw files, so they add little.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pytest_mlebench.definition import Competition
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.kaggle.archives import raw_is_complete
from pytest_mlebench.kaggle.download_progress import human_bytes
from pytest_mlebench.kaggle.local_source import LocalSource
from pytest_mlebench.kaggle.sizes import APPROXIMATE_BYTES, APPROXIMATE_LITE_BYTES, GB

__all__ = [  # the size table's names stay importable from here
    "APPROXIMATE_BYTES",
    "APPROXIMATE_LITE_BYTES",
    "GB",
    "DiskPlan",
    "NotEnoughDisk",
    "PlanRow",
    "free_bytes",
    "plan_batch",
]

ESTIMATE = "estimate"
ESTIMATE_NOTE = (
    "~ marks an estimate from a built-in table of typical sizes: Kaggle's file list did not "
    "answer (it needs credentials: ~/.kaggle/kaggle.json or KAGGLE_USERNAME and KAGGLE_KEY); "
    "the real download may be larger or smaller"
)
# Kaggle's own size of a competition's data, or None when it cannot tell.
KaggleSizer = Callable[[str], int | None]


class NotEnoughDisk(MLEBenchError):
    """The data dir's file system has less free space than the batch needs."""


@dataclass(frozen=True)
class PlanRow:
    """What preparing one competition would fetch.

    Attributes:
        competition_id: The competition.
        action: What would happen, in words.
        fetch_bytes: Bytes to download or extract (``None``: unknown).
        basis: Where ``fetch_bytes`` comes from.
        downloads: Whether an archive is downloaded (it sits beside its extraction a while).
        available: False for an id of the split without a competition folder in this release:
            shown with its size, counted only in the whole split's total.
    """

    competition_id: str
    action: str
    fetch_bytes: int | None
    basis: str = ""
    downloads: bool = False
    available: bool = True


@dataclass(frozen=True)
class DiskPlan:
    """The plan of a whole batch and the free space where it would land."""

    rows: tuple[PlanRow, ...]
    data_dir: Path
    free_bytes: int

    @property
    def batch(self) -> list[PlanRow]:
        """The rows that would be prepared (not the ids not yet in this release)."""
        return [row for row in self.rows if row.available]

    @property
    def known(self) -> list[int]:
        return [row.fetch_bytes for row in self.batch if row.fetch_bytes]

    @property
    def needed_bytes(self) -> int:
        """Extracted data of every row plus the largest archive beside its extraction."""
        return _needed(self.batch)

    @property
    def whole_split_bytes(self) -> int:
        """What the batch and the ids not yet available would need together."""
        return _needed(self.rows)

    @property
    def enough(self) -> bool:
        return self.free_bytes >= self.needed_bytes

    @property
    def estimated(self) -> bool:
        """Whether any size is an estimate rather than Kaggle's or the archive's own."""
        return any(row.basis == ESTIMATE and row.fetch_bytes for row in self.batch)

    def lines(self) -> list[str]:
        """The dry-run table: one line per competition, then totals and the verdict."""
        width = max((len(row.competition_id) for row in self.rows), default=10)
        out = [f"{'competition':<{width}}  {'size':>10}  action"]
        for row in self.rows:
            out.append(
                f"{row.competition_id:<{width}}  {_size(row):>10}  {row.action}{_basis(row)}"
            )
        unknown = sum(1 for row in self.batch if row.fetch_bytes is None)
        total = human_bytes(sum(self.known))
        total = f"~{total} (estimated)" if self.estimated else total
        out.append(f"data to fetch: {total}" + _unknown_note(unknown))
        out.append(self.verdict())
        out.extend(self._whole_split_lines())
        if any(row.basis == ESTIMATE and row.fetch_bytes for row in self.rows):
            out.append(ESTIMATE_NOTE)
        return out

    def verdict(self) -> str:
        needed, free = human_bytes(self.needed_bytes), human_bytes(self.free_bytes)
        needed = f"{needed}, estimated" if self.estimated else needed
        head = f"disk needed: about {needed}; free in {self.data_dir}: {free}"
        if self.enough:
            return f"{head}: enough"
        return (
            f"{head}: NOT enough (the extracted data plus room for the largest archive while it "
            "is extracted); free some space, choose another --data-dir, prepare fewer "
            "competitions, or pass --skip-disk-check to try anyway"
        )

    def _whole_split_lines(self) -> list[str]:
        not_yet = [row for row in self.rows if not row.available]
        if not not_yet:
            return []
        sizes = [row.fetch_bytes for row in self.rows if row.fetch_bytes]
        unknown = sum(1 for row in self.rows if row.fetch_bytes is None)
        needed, free = human_bytes(self.whole_split_bytes), human_bytes(self.free_bytes)
        verdict = "enough" if self.free_bytes >= self.whole_split_bytes else "NOT enough"
        return [
            f"whole split, {len(self.rows)} competitions ({len(not_yet)} not yet available in "
            f"this release): data ~{human_bytes(sum(sizes))} (estimated)" + _unknown_note(unknown),
            f"whole split: disk needed about {needed}, estimated; free in {self.data_dir}: "
            f"{free}: {verdict}",
        ]

    def require_space(self) -> None:
        """Refuse a batch that cannot fit: :class:`NotEnoughDisk` with the numbers."""
        if not self.enough:
            raise NotEnoughDisk(self.verdict())


def _needed(rows: Sequence[PlanRow]) -> int:
    """Extracted data of ``rows`` plus the largest archive beside its extraction."""
    archives = [row.fetch_bytes for row in rows if row.downloads and row.fetch_bytes]
    return sum(row.fetch_bytes for row in rows if row.fetch_bytes) + max(archives, default=0)


def _size(row: PlanRow) -> str:
    if row.fetch_bytes is None:
        return "unknown"
    return ("~" if row.basis == ESTIMATE else "") + human_bytes(row.fetch_bytes)


def _basis(row: PlanRow) -> str:
    return f" [{row.basis}]" if row.basis else ""


def _unknown_note(unknown: int) -> str:
    return f" (+ {unknown} of unknown size)" if unknown else ""


def plan_batch(
    competitions: Sequence[Competition],
    data_dir: Path,
    *,
    local: LocalSource | None = None,
    kaggle_size: KaggleSizer | None = None,
    not_yet: Sequence[str] = (),
) -> DiskPlan:
    """The :class:`DiskPlan` of preparing ``competitions`` into ``data_dir``.

    Args:
        not_yet: Ids of the split without a competition folder in this release: listed with
            their size from the table, and counted in the whole split's total only.
    """
    rows = [_plan_one(c, data_dir, local, kaggle_size) for c in competitions]
    rows += [_not_yet(cid) for cid in not_yet]
    return DiskPlan(tuple(rows), data_dir, free_bytes(data_dir))


def _not_yet(cid: str) -> PlanRow:
    size = APPROXIMATE_BYTES.get(cid)
    action = "not yet available in this release (no competition folder)"
    return PlanRow(cid, action, size, ESTIMATE if size else "", downloads=True, available=False)


def needs_kaggle(competition: Competition, data_dir: Path) -> bool:
    """Whether preparing ``competition`` would download from Kaggle: a Kaggle competition that is
    neither prepared nor has its raw files (``--from`` aside)."""
    cid = competition.id
    return (
        competition.source == "kaggle"
        and not (data_dir / cid / "prepared" / "manifest.json").is_file()
        and not raw_is_complete(data_dir / cid / "raw")
    )


def _plan_one(
    competition: Competition,
    data_dir: Path,
    local: LocalSource | None,
    kaggle_size: KaggleSizer | None,
) -> PlanRow:
    row = _plan_kaggle(competition, data_dir, local, kaggle_size)
    if not competition.public_sources or row.action.startswith("prepared already"):
        return row
    extra = ", ".join(source.file for source in competition.public_sources)
    first = (
        f"take {extra} from the --from folder"
        if local is not None
        else f"fetch {extra} (MD5 from its record)"
    )
    return replace(row, action=f"{first}; {row.action}")


def _plan_kaggle(
    competition: Competition,
    data_dir: Path,
    local: LocalSource | None,
    kaggle_size: KaggleSizer | None,
) -> PlanRow:
    cid = competition.id
    if competition.source == "embedded":
        return PlanRow(cid, "packaged data: nothing to download", 0)
    if (data_dir / cid / "prepared" / "manifest.json").is_file():
        return PlanRow(cid, "prepared already: nothing to fetch", 0)
    if local is not None:
        return _plan_local(competition, data_dir, local)
    if raw_is_complete(data_dir / cid / "raw"):
        return PlanRow(cid, "raw files present: prepare only", 0)
    size = kaggle_size(cid) if kaggle_size else None
    if size is not None:
        return PlanRow(cid, f"download {cid}.zip", size, "Kaggle file list", downloads=True)
    size = APPROXIMATE_BYTES.get(cid)
    if size is not None:
        return PlanRow(cid, f"download {cid}.zip", size, ESTIMATE, downloads=True)
    return PlanRow(cid, f"download {cid}.zip", None, downloads=True)


def _plan_local(competition: Competition, data_dir: Path, local: LocalSource) -> PlanRow:
    cid = competition.id
    try:
        source = local.locate(cid)
    except MLEBenchError as exc:
        return PlanRow(cid, f"cannot: {exc}", 0)
    if source.is_file():
        with zipfile.ZipFile(source) as bundle:
            size = sum(member.file_size for member in bundle.infolist())
        return PlanRow(cid, f"extract {source}", size, "zip directory")
    if _same_file_system(source, data_dir):
        return PlanRow(cid, f"hard-link the files of {source}", 0)
    return PlanRow(cid, f"copy the files of {source}", _tree_bytes(source), "folder")


def free_bytes(folder: Path) -> int:
    """Free bytes on the file system that holds (or will hold) ``folder``."""
    return shutil.disk_usage(_existing(folder)).free


def _existing(folder: Path) -> Path:
    folder = folder.absolute()
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def _same_file_system(source: Path, data_dir: Path) -> bool:
    return source.stat().st_dev == _existing(data_dir).stat().st_dev


def _tree_bytes(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        total += sum((Path(root) / name).stat().st_size for name in files)
    return total
