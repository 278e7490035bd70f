"""What a ``prepare`` batch would fetch and how much disk it needs (``--dry-run``, the space check).

Sizes come, in order of trust, from Kaggle's file list (when credentials and the client are
there and the list fits one page), from the zip's own directory (``--from`` a zip), or from
:data:`APPROXIMATE_LITE_BYTES`, a table of rough sizes of the Lite competitions' data. Kaggle
tells no size without credentials, so the table is what a dry run on a fresh machine shows: its
per-competition figures are estimates, printed with ``~`` and ``[estimate]``, and the totals and
the disk verdict then say "estimated" and end with a note on where exact sizes come from. The
table's totals match the published ones (about 158 GB for the 22, 116 GB of it
siim-isic-melanoma-classification, so about 42 GB without it).

Disk needed: the extracted files of every competition still to fetch, plus room for the largest
archive while it is being extracted (each archive is deleted after its extraction). Prepared
folders hard-link the raw files, so they add little.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.definition import Competition
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.kaggle.archives import raw_is_complete
from pytest_mlebench.kaggle.local_source import LocalSource
from pytest_mlebench.kaggle.progress import human_bytes

GB = 1_000_000_000
ESTIMATE = "estimate"
ESTIMATE_NOTE = (
    "~ marks an estimate from a built-in table of typical sizes: Kaggle's file list did not "
    "answer (it needs credentials: ~/.kaggle/kaggle.json or KAGGLE_USERNAME and KAGGLE_KEY); "
    "the real download may be larger or smaller"
)
# Rough sizes of Kaggle's data per Lite competition, in bytes (see the module docstring).
APPROXIMATE_LITE_BYTES: dict[str, int] = {
    "aerial-cactus-identification": int(0.025 * GB),
    "aptos2019-blindness-detection": int(10.2 * GB),
    "denoising-dirty-documents": int(0.06 * GB),
    "detecting-insults-in-social-commentary": int(0.003 * GB),
    "dog-breed-identification": int(0.75 * GB),
    "dogs-vs-cats-redux-kernels-edition": int(0.85 * GB),
    "histopathologic-cancer-detection": int(6.6 * GB),
    "jigsaw-toxic-comment-classification-challenge": int(0.1 * GB),
    "leaf-classification": int(0.06 * GB),
    "mlsp-2013-birds": int(0.6 * GB),
    "new-york-city-taxi-fare-prediction": int(5.7 * GB),
    "nomad2018-predict-transparent-conductors": int(0.005 * GB),
    "plant-pathology-2020-fgvc7": int(0.8 * GB),
    "random-acts-of-pizza": int(0.01 * GB),
    "ranzcr-clip-catheter-line-classification": int(12.3 * GB),
    "siim-isic-melanoma-classification": int(116 * GB),
    "spooky-author-identification": int(0.003 * GB),
    "tabular-playground-series-dec-2021": int(0.8 * GB),
    "tabular-playground-series-may-2022": int(0.35 * GB),
    "text-normalization-challenge-english-language": int(0.9 * GB),
    "text-normalization-challenge-russian-language": int(1.5 * GB),
    "the-icml-2013-whale-challenge-right-whale-redux": int(0.4 * GB),
}
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
    """

    competition_id: str
    action: str
    fetch_bytes: int | None
    basis: str = ""
    downloads: bool = False


@dataclass(frozen=True)
class DiskPlan:
    """The plan of a whole batch and the free space where it would land."""

    rows: tuple[PlanRow, ...]
    data_dir: Path
    free_bytes: int

    @property
    def known(self) -> list[int]:
        return [row.fetch_bytes for row in self.rows if row.fetch_bytes]

    @property
    def needed_bytes(self) -> int:
        """Extracted data of every row plus the largest archive beside its extraction."""
        archives = [row.fetch_bytes for row in self.rows if row.downloads and row.fetch_bytes]
        return sum(self.known) + max(archives, default=0)

    @property
    def enough(self) -> bool:
        return self.free_bytes >= self.needed_bytes

    @property
    def estimated(self) -> bool:
        """Whether any size is an estimate rather than Kaggle's or the archive's own."""
        return any(row.basis == ESTIMATE and row.fetch_bytes for row in self.rows)

    def lines(self) -> list[str]:
        """The dry-run table: one line per competition, then totals and the verdict."""
        width = max((len(row.competition_id) for row in self.rows), default=10)
        out = [f"{'competition':<{width}}  {'size':>10}  action"]
        for row in self.rows:
            out.append(
                f"{row.competition_id:<{width}}  {_size(row):>10}  {row.action}{_basis(row)}"
            )
        unknown = sum(1 for row in self.rows if row.fetch_bytes is None)
        total = human_bytes(sum(self.known))
        total = f"~{total} (estimated)" if self.estimated else total
        out.append(f"data to fetch: {total}" + _unknown_note(unknown))
        out.append(self.verdict())
        if self.estimated:
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

    def require_space(self) -> None:
        """Refuse a batch that cannot fit: :class:`NotEnoughDisk` with the numbers."""
        if not self.enough:
            raise NotEnoughDisk(self.verdict())


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
) -> DiskPlan:
    """The :class:`DiskPlan` of preparing ``competitions`` into ``data_dir``."""
    rows = tuple(_plan_one(c, data_dir, local, kaggle_size) for c in competitions)
    return DiskPlan(rows, data_dir, free_bytes(data_dir))


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
    if cid in APPROXIMATE_LITE_BYTES:
        size = APPROXIMATE_LITE_BYTES[cid]
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
