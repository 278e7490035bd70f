"""Host side of ``validate_submission.sh``: a unix-socket server that checks, never scores.

The answers stay on the host. The agent's client streams its file over a socket mounted into the
sandbox; the server saves it to a private temp file, runs the same validation code path as grading
(:func:`graders.validate_submission`), and answers ``{"valid": bool, "reason": str | null}``.
Calls are rate-limited (``min_interval`` seconds apart) and every answered call is logged with a
timestamp and a fingerprint of the file sent (never the file), so the run record shows how the
agent used it; refused requests are counted. :class:`ValidatorService` attaches it beside a
sandbox (:mod:`.services`): the socket in the service folder, named by
``MLEBENCH_VALIDATOR_SOCKET``, which the contract's ``validate_submission.sh`` reads.
"""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.fingerprint import fingerprint_file
from pytest_mlebench.sandbox.services import LoggingService, ServiceSite
from pytest_mlebench.sandbox.socket_endpoint import (
    SocketEndpoint,
    accept_body,
    client_script,
    receive_body,
    request_size,
)
from pytest_mlebench.timestamps import utc_timestamp

CLIENT_SCRIPT = Path(__file__).with_name("validate_client.py")
SOCKET_NAME = "validator.sock"
SOCKET_ENV = "MLEBENCH_VALIDATOR_SOCKET"
MAX_UPLOAD_BYTES = 2 * 1024**3

SubmissionValidator = Callable[[Path], ScoreResult]


@dataclass(frozen=True)
class ValidationCall:
    """One call of the in-sandbox validator, as logged in the run record.

    ``sha256``, ``rows`` and ``sketch`` fingerprint the file sent (:mod:`.fingerprint`), so
    probing shows in the record.
    """

    time: str
    valid: bool
    reason: str | None
    sha256: str | None = None
    rows: int | None = None
    sketch: str | None = None


class ValidatorServer(SocketEndpoint):
    """Serve validation over ``socket_path`` in a background thread until :meth:`stop`."""

    thread_name = "mlebench-validator"

    def __init__(
        self, socket_path: Path, validate: SubmissionValidator, min_interval: float = 1.0
    ) -> None:
        super().__init__(socket_path, min_interval)
        self.validate = validate
        self.calls: list[ValidationCall] = []

    def handle(self, header: dict[str, Any], reader: BinaryIO, conn: socket.socket) -> Any:
        size = request_size(header)
        refused = self.refusal(size, MAX_UPLOAD_BYTES, "file")
        if refused is not None:
            return refused
        accept_body(conn)
        with tempfile.TemporaryDirectory(prefix="mlebench-validate-") as tmp:
            upload = Path(tmp) / "submission.csv"
            receive_body(reader, upload, size)
            result = self.validate(upload)
            sent = fingerprint_file(upload)
        self.calls.append(
            ValidationCall(
                time=utc_timestamp(),
                valid=result.valid,
                reason=result.reason,
                sha256=sent.sha256,
                rows=sent.rows,
                sketch=sent.sketch,
            )
        )
        return {"valid": result.valid, "reason": result.reason}


@dataclass(eq=False)
class ValidatorService(LoggingService[ValidationCall]):
    """``validate_submission.sh``'s host side for one run, attached beside its sandbox.

    Attributes:
        validate: The check (against the answers, on this machine or through the Ray desk).
        interval: Seconds between two answered calls (the rate limit).
    """

    name: ClassVar[str] = "validator"
    validate: SubmissionValidator
    interval: float = 1.0
    server: ValidatorServer | None = field(default=None, init=False, repr=False)

    def start(self, site: ServiceSite) -> None:
        if self.server is None:
            self.server = ValidatorServer(site.host_dir / SOCKET_NAME, self.validate, self.interval)
            self.server.start()

    def env(self, site: ServiceSite) -> dict[str, str]:
        return {SOCKET_ENV: site.inside(SOCKET_NAME)}


validate_script = client_script  # the text of ``validate_submission.sh``
