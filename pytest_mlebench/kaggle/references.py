"""The reference corpus: each competition's top public notebooks, fetched once from Kaggle.

``competitions/<id>/kernels.txt`` lists them, one ``owner/kernel-slug`` a line (``#`` starts a
comment), as the original benchmark's ``kernels.txt`` does. ``mlebench prepare --references``
pulls each with the user's Kaggle account (``kernels_pull``, the same client, credentials and
messages as the data downloads), converts a notebook to its code (:mod:`.notebooks`) and keeps
it as ``<data dir>/<id>/references/<owner>__<slug>.<py|r>``; ``references/kernels.json`` says
what became of every entry. It resumes: a kernel already converted is not pulled again, one that
failed is tried again on the next run. A kernel Kaggle no longer has (404) or keeps private
(403) is recorded as ``missing`` and the others go on. The similarity check finds the folder
by itself (:func:`pytest_mlebench.integrity.similarity.reference_folder`).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.kaggle import client
from pytest_mlebench.kaggle.client import KaggleUnavailable, http_status, is_transient
from pytest_mlebench.kaggle.download import RetryPolicy
from pytest_mlebench.kaggle.notebooks import SCRIPT_SUFFIXES, NotANotebook, notebook_source
from pytest_mlebench.timestamps import utc_timestamp

KERNELS_FILE = "kernels.txt"
STATUS_FILE = "kernels.json"
KERNEL_REF = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
Say = Callable[[str], None]


def read_kernel_list(path: Path) -> list[str]:
    """The ``owner/kernel-slug`` entries of a ``kernels.txt`` (none when there is no file).

    Raises:
        ConfigError: Naming the line that is not ``owner/kernel-slug``.
    """
    if not path.is_file():
        return []
    refs = []
    for number, raw in enumerate(path.read_text("utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not KERNEL_REF.match(line):
            raise ConfigError(f"{path}:{number}: {line!r} is not owner/kernel-slug")
        refs.append(line)
    return refs


def reference_dir(data_dir: Path, competition_id: str) -> Path:
    """Where a competition's fetched corpus lives: ``<data dir>/<id>/references/``."""
    return data_dir / competition_id / "references"


def kernel_file_stem(ref: str) -> str:
    """``owner/slug`` → ``owner__slug`` (the file name of its code)."""
    owner, slug = ref.split("/", 1)
    return f"{owner}__{slug}"


@dataclass
class FetchReport:
    """What one competition's fetch did: counts and the reason for each missing kernel."""

    competition_id: str
    listed: int = 0
    fetched: int = 0
    kept: int = 0
    missing: dict[str, str] = field(default_factory=dict)

    def line(self) -> str:
        text = (
            f"{self.competition_id}: {self.kept + self.fetched} of {self.listed} reference "
            f"notebook(s) ready ({self.fetched} fetched now)"
        )
        return text + (f"; {len(self.missing)} missing" if self.missing else "")


def _new_api() -> Any:
    return client.new_api()  # looked up at call time, so a test can swap it


class ReferenceFetcher:
    """Pulls the notebooks of ``kernels.txt`` lists into the data folder.

    Args:
        api_factory: Returns an authenticated API object (the real client by default).
        retry: Backoff for connection errors, 429 and 5xx.
        say: Receives one status line at a time.
    """

    def __init__(
        self,
        *,
        api_factory: Callable[[], Any] = _new_api,
        retry: RetryPolicy | None = None,
        say: Say = print,
    ) -> None:
        self._factory = api_factory
        self._retry = retry or RetryPolicy()
        self._say = say
        self._api: Any = None

    def api(self) -> Any:
        if self._api is None:
            self._api = self._factory()
        return self._api

    def fetch(self, competition_id: str, kernels: Path, data_dir: Path) -> FetchReport:
        """Fetch what is missing of ``kernels`` (a ``kernels.txt``) for ``competition_id``."""
        refs = read_kernel_list(kernels)
        folder = reference_dir(data_dir, competition_id)
        folder.mkdir(parents=True, exist_ok=True)
        report = FetchReport(competition_id, listed=len(refs))
        status: dict[str, Any] = {}
        for ref in refs:
            done = _converted(folder, ref)
            if done is not None:
                report.kept += 1
                status[ref] = {"status": "fetched", "file": done.name}
                continue
            status[ref] = self._fetch_one(ref, folder, report)
        write_atomically(
            folder / STATUS_FILE,
            json.dumps(
                {"source": str(kernels), "updated_at": utc_timestamp(), "kernels": status},
                indent=1,
            ),
        )
        return report

    def _fetch_one(self, ref: str, folder: Path, report: FetchReport) -> dict[str, Any]:
        try:
            path = self._pull(ref, folder)
        except _Missing as exc:
            report.missing[ref] = str(exc)
            return {"status": "missing", "reason": str(exc)}
        report.fetched += 1
        return {"status": "fetched", "file": path.name}

    def _pull(self, ref: str, folder: Path) -> Path:
        with tempfile.TemporaryDirectory(dir=folder, prefix=".pull-") as scratch:
            for attempt in range(1, self._retry.tries + 1):
                try:
                    self.api().kernels_pull(ref, path=scratch, metadata=False, quiet=True)
                    break
                except Exception as exc:  # the client raises its own types; classified here
                    self._give_up_unless_transient(ref, exc, attempt == self._retry.tries)
                    self._retry.sleep(self._retry.delay(attempt))
            return _convert(ref, Path(scratch), folder)

    def _give_up_unless_transient(self, ref: str, error: Exception, last: bool) -> None:
        status = http_status(error)
        if status == 401:
            raise KaggleUnavailable(
                "Kaggle refused the credentials (HTTP 401): check the username and key in "
                f"{client.config_dir() / 'kaggle.json'} or KAGGLE_USERNAME/KAGGLE_KEY"
            ) from None
        if is_transient(error) and not last:
            self._say(f"  {ref}: {type(error).__name__}: {error}; trying again")
            return
        if status in (403, 404):
            raise _Missing(f"Kaggle answered {status}: the notebook is gone or private")
        raise _Missing(f"pull failed: {type(error).__name__}: {error}")


class _Missing(Exception):
    """One kernel could not be had; the others go on."""


def _converted(folder: Path, ref: str) -> Path | None:
    stem = kernel_file_stem(ref)
    for suffix in (".py", ".r"):
        if (folder / f"{stem}{suffix}").is_file():
            return folder / f"{stem}{suffix}"
    return None


def _convert(ref: str, pulled: Path, folder: Path) -> Path:
    """The pulled notebook (or script) as ``<owner>__<slug>.<suffix>`` in ``folder``."""
    files = sorted(p for p in pulled.iterdir() if p.is_file() and not p.name.startswith("."))
    notebooks = [p for p in files if p.suffix.lower() in (".ipynb", ".irnb")]
    scripts = [p for p in files if p.suffix.lower() in SCRIPT_SUFFIXES]
    target_stem = folder / kernel_file_stem(ref)
    if notebooks:
        try:
            code, suffix = notebook_source(notebooks[0].read_text("utf-8"))
        except (NotANotebook, UnicodeDecodeError) as exc:
            raise _Missing(f"{notebooks[0].name}: {exc}") from None
        return write_atomically(Path(f"{target_stem}{suffix}"), code)
    if scripts:
        target = Path(f"{target_stem}{SCRIPT_SUFFIXES[scripts[0].suffix.lower()]}")
        shutil.copyfile(scripts[0], target)
        return target
    raise _Missing("the pull left no notebook or script")
