"""Download a Kaggle competition's files into its ``raw/`` folder (the only networked step).

Only ``mlebench prepare`` calls this; fixtures never download. The ``kaggle`` client is imported
lazily (``pip install 'pytest-mlebench[kaggle]'``). A download is complete only when the zip was
extracted and the ``.complete`` marker written, so an interrupted download is started over.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

from pytest_mlebench.errors import DataNotPrepared

COMPLETE_MARKER = ".complete"


def raw_is_complete(raw: Path) -> bool:
    return (raw / COMPLETE_MARKER).is_file()


def credentials_hint() -> str | None:
    """Why Kaggle credentials are missing, or ``None`` when they are configured."""
    if os.environ.get("KAGGLE_USERNAME") and os.environ.get("KAGGLE_KEY"):
        return None
    config_dir = Path(os.environ.get("KAGGLE_CONFIG_DIR", Path.home() / ".kaggle"))
    if (config_dir / "kaggle.json").is_file():
        return None
    return (
        f"no Kaggle credentials: put kaggle.json in {config_dir} "
        "or set KAGGLE_USERNAME and KAGGLE_KEY"
    )


def extract_archives(download: Path, raw: Path) -> None:
    """Extract every ``*.zip`` of ``download`` into ``raw`` (nested ones too); mark it complete."""
    raw.mkdir(parents=True, exist_ok=True)
    for archive in sorted(download.glob("*.zip")):
        with zipfile.ZipFile(archive) as bundle:
            _safe_extract(bundle, raw)
    for nested in sorted(raw.rglob("*.zip")):
        with zipfile.ZipFile(nested) as bundle:
            _safe_extract(bundle, nested.parent)
        nested.unlink()
    (raw / COMPLETE_MARKER).write_text("ok\n")


def _safe_extract(bundle: zipfile.ZipFile, target: Path) -> None:
    root = target.resolve()
    for member in bundle.namelist():
        if not (root / member).resolve().is_relative_to(root):
            raise DataNotPrepared(f"archive member {member!r} escapes {target}", "(bad archive)")
    bundle.extractall(target)


def download_competition(competition_id: str, raw: Path) -> None:
    """Download and extract ``competition_id``; raise :class:`DataNotPrepared` with a fix."""
    command = f"mlebench prepare -c {competition_id}"
    hint = credentials_hint()
    if hint:
        raise DataNotPrepared(f"{competition_id}: {hint}", command)
    try:
        from kaggle.api.kaggle_api_extended import KaggleApi
    except ImportError:
        raise DataNotPrepared(
            f"{competition_id}: the Kaggle client is not installed "
            "(pip install 'pytest-mlebench[kaggle]')",
            command,
        ) from None
    download = raw.with_name("download")
    shutil.rmtree(download, ignore_errors=True)
    download.mkdir(parents=True)
    api = KaggleApi()
    api.authenticate()
    try:
        api.competition_download_files(competition_id, path=str(download), quiet=False)
    except Exception as exc:  # the client raises its own HTTP error types
        message = str(exc)
        if "403" in message:
            message = (
                "Kaggle answered 403: accept the competition's rules on "
                f"its Kaggle page ({competition_id}) first"
            )
        raise DataNotPrepared(f"{competition_id}: download failed: {message}", command) from exc
    shutil.rmtree(raw, ignore_errors=True)
    extract_archives(download, raw)
    shutil.rmtree(download, ignore_errors=True)
