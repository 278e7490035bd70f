"""Fetch a competition's raw files from Kaggle: only what is missing, retried, verified.

One :class:`KaggleDownloader` serves a whole ``mlebench prepare`` batch: it creates the API
object once (and remembers why it could not), so one missing token gives one clear message, and
a 403 of one competition does not stop the others; :class:`RulesNotAccepted` carries the rules
page so the batch can list every page at the end.

Layout: ``<data>/<id>/download/<id>.zip`` (Kaggle's archive while it is needed) with
``download/manifest.json`` (its size and SHA-256), extracted into ``<data>/<id>/raw/``.

Resuming. The client decides what is fetched: ``competition_download_files(id, path,
force=False)`` skips an archive whose local copy is complete and newer than Kaggle's, and a
partial file is continued with an HTTP range request when the server advertises ranges
(``Accept-Ranges: bytes``; the 2.x client also checks a ``.kaggle-partial`` marker that proves
the bytes belong to the same remote file, and starts over when it does not). So an interrupted
download is left where it is and the next run asks the client again; with a client or server
that cannot resume, only that one archive is fetched again. An interrupted *extraction* resumes
member by member (:mod:`pytest_mlebench.kaggle.archives`), after the archive is checked against
its recorded SHA-256. The archive is deleted once extracted; the manifest stays as a record.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from pytest_mlebench.definition import Competition
from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle import client
from pytest_mlebench.kaggle.archives import ArchiveCorrupted, extract_archives, raw_is_complete
from pytest_mlebench.kaggle.checksums import ArchiveManifest, check_zip_structure
from pytest_mlebench.kaggle.client import KaggleUnavailable, http_status, is_transient, rules_url
from pytest_mlebench.kaggle.download_progress import ByteProgress, FileGrowthWatcher
from pytest_mlebench.public_sources.fill import fill_public_sources

SOURCE_MARKER = ".source"
# Competitions whose "I Understand and Accept" button hides on the Data tab (users of the
# original benchmark looked for it on the rules page in vain).
RULES_ON_DATA_TAB = frozenset(
    {"detecting-insults-in-social-commentary", "the-icml-2013-whale-challenge-right-whale-redux"}
)
Say = Callable[[str], None]
ApiFactory = Callable[[], Any]


class RulesNotAccepted(DataNotPrepared):
    """Kaggle answered 403: the account has not accepted the competition's rules.

    Attributes:
        url: The page on which to accept them.
    """

    def __init__(self, competition_id: str, command: str) -> None:
        self.url = rules_url(competition_id)
        where = " (the button is on the Data tab)" if competition_id in RULES_ON_DATA_TAB else ""
        super().__init__(
            f"{competition_id}: Kaggle answered 403: accept the competition's rules at "
            f"{self.url}{where}",
            command,
        )


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a transient failure is retried (exponential backoff)."""

    tries: int = 5
    first_delay: float = 2.0
    factor: float = 2.0
    sleep: Callable[[float], None] = time.sleep

    def delay(self, failed_attempt: int) -> float:
        """Seconds to wait after the ``failed_attempt``-th try (1-based)."""
        return self.first_delay * self.factor ** (failed_attempt - 1)


def prepare_command(competition_id: str) -> str:
    return f"mlebench prepare -c {competition_id}"


def _print(line: str) -> None:
    print(line, flush=True)


def _new_api() -> Any:
    return client.new_api()  # looked up at call time, so a test can swap it


class KaggleDownloader:
    """Makes ``raw/`` of Kaggle competitions; called by ``prepare`` as ``(competition, raw)``.

    Args:
        api_factory: Returns an authenticated API object (the real client by default).
        retry: Backoff for connection errors, 429 and 5xx.
        say: Receives one status line at a time.
        stream: Where byte progress goes (standard output by default).
        fetch_leaderboards: Also fetch each downloaded competition's board and compare it.
    """

    def __init__(
        self,
        *,
        api_factory: ApiFactory = _new_api,
        retry: RetryPolicy | None = None,
        say: Say = _print,
        stream: TextIO | None = None,
        fetch_leaderboards: bool = False,
    ) -> None:
        self._factory = api_factory
        self._retry = retry or RetryPolicy()
        self._say = say
        self._stream = stream
        self._fetch_leaderboards = fetch_leaderboards
        self._api: Any = None
        self._unavailable: str | None = None

    def api(self) -> Any:
        """The API object, created on first use; the same failure is raised on every later use."""
        if self._api is None:
            if self._unavailable is not None:
                raise KaggleUnavailable(self._unavailable)
            try:
                self._api = self._factory()
            except KaggleUnavailable as exc:
                self._unavailable = str(exc)
                raise
        return self._api

    def setup_problem(self) -> str | None:
        """Why the API cannot be used here (credentials, client; tried once), or ``None``."""
        try:
            self.api()
        except KaggleUnavailable as exc:
            return str(exc)
        return None

    def download_size(self, competition_id: str) -> int | None:
        """Kaggle's size of the competition's data, or ``None`` when the API cannot tell."""
        try:
            return download_size(self.api(), competition_id)
        except KaggleUnavailable:
            return None

    def __call__(self, competition: Competition, raw: Path) -> None:
        if not raw_is_complete(raw):
            try:
                self._fetch(competition.id, raw)
            except KaggleUnavailable as exc:
                command = prepare_command(competition.id)
                raise DataNotPrepared(f"{competition.id}: {exc}", command) from None
            if self._fetch_leaderboards:
                self._compare_leaderboard(competition, raw.parent.parent)
        # A second public source (test labels on another record) is fetched with its checksum.
        fill_public_sources(
            competition.id, competition.public_sources, raw, download_allowed=True, say=self._say
        )

    def _fetch(self, competition_id: str, raw: Path) -> None:
        download = raw.with_name("download")
        for attempt in (1, 2):
            digest = self._verified_archive(competition_id, download)
            try:
                start_raw(raw, f"sha256:{digest}")
                extract_archives(download, raw, stream=self._stream, keep=False)
                return
            except ArchiveCorrupted as exc:
                self._discard(download, exc.archive)
                if attempt == 2:
                    raise DataNotPrepared(
                        f"{competition_id}: the archive from Kaggle was damaged twice ({exc}); "
                        "check the disk and the network, then run the command again",
                        prepare_command(competition_id),
                    ) from None
                self._say(f"  {competition_id}: {exc}; downloading it again")

    def _verified_archive(self, competition_id: str, download: Path) -> str:
        """Make sure ``download/`` holds a sound archive; returns its SHA-256."""
        download.mkdir(parents=True, exist_ok=True)
        manifest = ArchiveManifest(download)
        archive = download / f"{competition_id}.zip"
        state = manifest.state(archive)
        digest = manifest.sha256(archive)
        if state == "verified" and digest:
            self._say(f"  {competition_id}: using the archive downloaded before ({archive})")
            return digest
        if state == "changed":
            self._say(f"  {competition_id}: {archive.name} differs from its recorded SHA-256")
            self._discard(download, archive)
        self._download(competition_id, download)
        archive = self._archive_in(competition_id, download)
        check_zip_structure(archive)
        return manifest.record(archive)

    def _download(self, competition_id: str, download: Path) -> None:
        api = self.api()
        target = download / f"{competition_id}.zip"
        total = download_size(api, competition_id)
        tries = self._retry.tries
        for attempt in range(1, tries + 1):
            progress = ByteProgress(f"  downloading {target.name}", total, stream=self._stream)
            try:
                with FileGrowthWatcher(target, progress):
                    api.competition_download_files(competition_id, path=str(download), quiet=True)
                return
            except Exception as exc:  # the client raises its own types; classified below
                self._give_up_unless_transient(competition_id, exc, attempt == tries)
                delay = self._retry.delay(attempt)
                self._say(
                    f"  {competition_id}: {_brief(exc)}; try {attempt + 1} of {tries} "
                    f"in {delay:.0f} s"
                )
                self._retry.sleep(delay)

    def _give_up_unless_transient(self, competition_id: str, error: Exception, last: bool) -> None:
        command = prepare_command(competition_id)
        if is_transient(error):
            if last:
                raise DataNotPrepared(
                    f"{competition_id}: download failed after {self._retry.tries} tries "
                    f"({_brief(error)}); Kaggle or the network is unwell, run the command later",
                    command,
                ) from error
            return
        status = http_status(error)
        if status == 403:
            raise RulesNotAccepted(competition_id, command) from None
        if status == 401:
            self._unavailable = (
                "Kaggle refused the credentials (HTTP 401): check the username and key in "
                f"{client.config_dir() / 'kaggle.json'} or KAGGLE_USERNAME/KAGGLE_KEY, or create "
                f"a new token on {client.TOKEN_PAGE}"
            )
            self._api = None
            raise KaggleUnavailable(self._unavailable) from None
        if status == 404:
            raise DataNotPrepared(
                f"{competition_id}: Kaggle knows no competition of that id (HTTP 404); "
                "check the id in its config.yaml",
                command,
            ) from None
        raise DataNotPrepared(
            f"{competition_id}: download failed: {_brief(error)}", command
        ) from error

    def _archive_in(self, competition_id: str, download: Path) -> Path:
        expected = download / f"{competition_id}.zip"
        if expected.is_file():
            return expected
        found = sorted(download.glob("*.zip"))
        if len(found) == 1:
            return found[0]
        raise DataNotPrepared(
            f"{competition_id}: Kaggle's download left no single zip in {download}",
            prepare_command(competition_id),
        )

    @staticmethod
    def _discard(download: Path, archive: Path) -> None:
        ArchiveManifest(download).forget(archive)
        archive.unlink(missing_ok=True)
        archive.with_name(archive.name + ".kaggle-partial").unlink(missing_ok=True)

    def _compare_leaderboard(self, competition: Competition, data_dir: Path) -> None:
        from pytest_mlebench.kaggle.leaderboard import fetch_leaderboard

        try:
            result = fetch_leaderboard(self.api(), competition, data_dir)
        except Exception as exc:  # a board is a bonus: never fail a prepare over it
            self._say(f"  {competition.id}: leaderboard not fetched ({_brief(exc)})")
            return
        for line in result.report_lines():
            self._say(f"  {line}")


def download_size(api: Any, competition_id: str) -> int | None:
    """Total bytes of the competition's files from Kaggle's file list, when it is complete.

    ``None`` when the client cannot list the files, or the list has more pages (the total of
    the first page would be too small).
    """
    try:
        listing = api.competition_list_files(competition_id)
    except Exception:  # sizes are advisory; the download itself reports real errors
        return None
    if getattr(listing, "next_page_token", None) or getattr(listing, "nextPageToken", None):
        return None
    files = getattr(listing, "files", listing)
    sizes = [_file_bytes(item) for item in files or ()]
    if not sizes or any(size is None for size in sizes):
        return None
    return sum(size for size in sizes if size is not None)


def _file_bytes(item: Any) -> int | None:
    for name in ("total_bytes", "totalBytes"):
        value = getattr(item, name, None)
        if value is not None:
            try:
                return int(value)
            except (TypeError, ValueError):
                return None
    return None


def start_raw(raw: Path, source: str) -> None:
    """Make ``raw`` ready to receive files from ``source``; a folder from another source is
    emptied first, so a resumed extraction never mixes two archives."""
    marker = raw / SOURCE_MARKER
    if raw.is_dir() and (not marker.is_file() or marker.read_text("utf-8").strip() != source):
        shutil.rmtree(raw)
    raw.mkdir(parents=True, exist_ok=True)
    marker.write_text(source + "\n", "utf-8")


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def download_competition(competition: Competition, raw: Path) -> None:
    """Download and extract one competition with a downloader of its own (no batch)."""
    KaggleDownloader(stream=sys.stdout)(competition, raw)
