"""Kaggle competitions' raw data: download, verify, extract, or take it from a local copy.

The only networked part of the package, used by ``mlebench prepare`` and ``mlebench leaderboard``;
fixtures never download. The ``kaggle`` client is an optional extra, imported lazily
(:mod:`.client`). One module per concern:

- :mod:`.client`: credentials, the lazy import, what the client's errors mean;
- :mod:`.download`: :class:`KaggleDownloader` (only what is missing, retries, checksums, 403s);
- :mod:`.archives`: resumable extraction on a few threads, safe against path traversal;
- :mod:`.zip_members`: one member read with ``pread``, CRC-checked, written;
- :mod:`.checksums`: the SHA-256 manifest beside a download;
- :mod:`.local_source`: ``--from PATH`` (a zip or a folder, no network);
- :mod:`.plan`: ``--dry-run`` sizes and the free-space check;
- :mod:`.leaderboard`: ``mlebench leaderboard fetch``;
- :mod:`.references`: ``mlebench prepare --references``, the notebooks of ``kernels.txt``;
- :mod:`.notebooks`: a notebook's code cells as a source file;
- :mod:`.progress`: byte progress for terminals and logs.
"""

from __future__ import annotations

from pytest_mlebench.kaggle.archives import COMPLETE_MARKER, extract_archives, raw_is_complete
from pytest_mlebench.kaggle.client import credentials_hint, rules_url
from pytest_mlebench.kaggle.download import (
    KaggleDownloader,
    RulesNotAccepted,
    download_competition,
)
from pytest_mlebench.kaggle.local_source import LocalSource

__all__ = [
    "COMPLETE_MARKER",
    "KaggleDownloader",
    "LocalSource",
    "RulesNotAccepted",
    "credentials_hint",
    "download_competition",
    "extract_archives",
    "raw_is_complete",
    "rules_url",
]
