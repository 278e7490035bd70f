"""A fake Kaggle API and Kaggle-shaped archives, so the real download code runs without Kaggle.

:class:`FakeKaggleApi` has the methods of ``kaggle.api.kaggle_api_extended.KaggleApi`` that the
package calls, with the same signatures, and behaves like the real client where it matters: a
partial ``<id>.zip`` left by an interrupted download is continued from its last byte (the real
client sends an HTTP range request), a complete one is not fetched again unless ``force``.
Errors carry their HTTP status the way the 2.x client's ``requests.HTTPError`` does.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.factories import toy_config, write_competition

# Two ids with a Kaggle source; their prepare reads the Kaggle-shaped raw files below.
KAGGLE_PREPARE = """
from pathlib import Path


def prepare(raw: Path, public: Path, private: Path) -> None:
    images = sorted(p.stem for p in (raw / "train").glob("*.jpg"))
    assert images, "no images extracted"
    (public / "train.csv").write_text((raw / "train.csv").read_text())
    sample = "".join(f"{name},0\\n" for name in images)
    (public / "sample_submission.csv").write_text("id,label\\n" + sample)
    answers = "".join(f"{name},1\\n" for name in images)
    (private / "answers.csv").write_text("id,label\\n" + answers)
"""


class FakeResponse:
    def __init__(self, status_code: int) -> None:
        self.status_code = status_code


class FakeHTTPError(Exception):
    """Like ``requests.HTTPError``: the status is on ``.response.status_code``."""

    def __init__(self, status: int, text: str = "") -> None:
        super().__init__(f"{status} Client Error: {text or 'fake'} for url: https://fake")
        self.response = FakeResponse(status)


class ConnectionError(Exception):
    """Named like ``requests.exceptions.ConnectionError``: transient by its name."""


@dataclass
class Cut:
    """Write the first ``after`` bytes of the archive, then raise ``error`` (a broken download)."""

    after: int
    error: BaseException


@dataclass
class FakeFile:
    name: str
    total_bytes: int


@dataclass
class FakeListing:
    files: list[FakeFile]
    next_page_token: str = ""


@dataclass
class FakeCompetition:
    ref: str
    user_has_entered: bool | None


@dataclass
class FakeKaggleApi:
    """Serves ``archives[id]`` (a list: one payload per download, the last one repeats)."""

    archives: dict[str, list[bytes]]
    failures: dict[str, list[BaseException | Cut]] = field(default_factory=dict)
    entered: dict[str, bool] = field(default_factory=dict)
    boards: dict[str, str] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    resumed_from: list[int] = field(default_factory=list)
    served: dict[str, int] = field(default_factory=dict)
    kernels: dict[str, tuple[str, str]] = field(default_factory=dict)  # ref -> (file, text)
    kernel_failures: dict[str, list[BaseException]] = field(default_factory=dict)

    def competition_download_files(
        self, competition: str, path: str | None = None, force: bool = False, quiet: bool = True
    ) -> None:
        self.calls.append(competition)
        if competition not in self.archives:
            raise FakeHTTPError(404, "Not Found")
        planned = self.failures.get(competition, [])
        action = planned.pop(0) if planned else None
        if isinstance(action, BaseException):
            raise action
        out = Path(path or ".") / f"{competition}.zip"
        payload = self._payload(competition)
        start = out.stat().st_size if out.is_file() and not force else 0
        if start >= len(payload):
            return  # the real client skips a complete, newer local copy
        if start:
            self.resumed_from.append(start)
        end = action.after if isinstance(action, Cut) else len(payload)
        with out.open("ab" if start else "wb") as handle:
            handle.write(payload[start:end])
        if isinstance(action, Cut):
            raise action.error
        self.served[competition] = self.served.get(competition, 0) + 1

    def _payload(self, competition: str) -> bytes:
        versions = self.archives[competition]
        return versions[min(self.served.get(competition, 0), len(versions) - 1)]

    def kernels_pull(
        self, kernel: str, path: str | None = None, metadata: bool = False, quiet: bool = True
    ) -> str:
        """Like the client: writes the kernel's notebook (or script) into ``path``."""
        self.calls.append(f"kernel {kernel}")
        planned = self.kernel_failures.get(kernel, [])
        if planned:
            raise planned.pop(0)
        if kernel not in self.kernels:
            raise FakeHTTPError(404, "Not Found")
        name, text = self.kernels[kernel]
        (Path(path or ".") / name).write_text(text)
        return str(path)

    def competition_list_files(self, competition: str) -> FakeListing:
        payload = self.archives[competition][-1]
        return FakeListing([FakeFile(f"{competition}.zip", len(payload))])

    def competitions_list(self, search: str | None = None) -> list[FakeCompetition]:
        return [
            FakeCompetition(f"https://www.kaggle.com/competitions/{cid}", accepted)
            for cid, accepted in self.entered.items()
            if search is None or search in cid
        ]

    def competition_leaderboard_download(self, competition: str, path: str) -> None:
        if competition not in self.boards:
            raise FakeHTTPError(403, "Forbidden")
        with zipfile.ZipFile(Path(path) / f"{competition}.zip", "w") as bundle:
            bundle.writestr(f"{competition}-publicleaderboard.csv", self.boards[competition])


def zip_bytes(files: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as bundle:
        for name, content in files.items():
            bundle.writestr(name, content)
    return buffer.getvalue()


def kaggle_archive(images: int = 6, seed: int = 0) -> bytes:
    """``<id>.zip`` shaped like Kaggle's: a CSV, a sample submission, a nested ``train.zip``."""
    pictures = {
        f"train/{i:04d}.jpg": bytes([0xFF, 0xD8, 0xFF, seed, i]) * (50 + i) for i in range(images)
    }
    inner = zip_bytes(pictures, zipfile.ZIP_STORED)
    table = "id,label\n" + "".join(f"{i:04d},{i % 2}\n" for i in range(images))
    return zip_bytes(
        {
            "train.csv": table.encode(),
            "sample_submission.csv": b"id,label\n",
            "train.zip": inner,
        }
    )


def corrupted(payload: bytes) -> bytes:
    """The same archive with one byte of a stored member flipped: its CRC check fails."""
    data = bytearray(payload)
    at = payload.index(b"\xff\xd8\xff") + 4
    data[at] ^= 0xFF
    return bytes(data)


def stored_archive(images: int = 6) -> bytes:
    """An archive whose members are stored (not deflated), so a flipped byte stays a CRC error."""
    pictures = {f"train/{i:04d}.jpg": bytes([0xFF, 0xD8, 0xFF, 7, i]) * 60 for i in range(images)}
    table = "id,label\n" + "".join(f"{i:04d},1\n" for i in range(images))
    return zip_bytes({"train.csv": table.encode(), **pictures}, zipfile.ZIP_STORED)


def write_kaggle_competitions(root: Path, ids: Sequence[str], split: str = "batch") -> Path:
    """Competition folders with a Kaggle source for ``ids``, all in the split ``split``."""
    for cid in ids:
        write_competition(
            root,
            cid,
            config=toy_config(cid, source="kaggle"),
            prepare=KAGGLE_PREPARE,
            splits={split: list(ids)},
        )
    return root


def api_factory(api: Any) -> Any:
    def make() -> Any:
        return api

    return make
