"""The Kaggle client: credentials, the lazy import, and what its errors mean.

The ``kaggle`` package is an optional extra (``pip install 'pytest-mlebench[kaggle]'``) and is
imported only here, only when an API object is needed. Credentials are checked *before* the
import: ``import kaggle`` authenticates at import time (1.x raises, 2.x prints its help and may
exit), so a missing ``kaggle.json`` must be reported by us, with the fix, first.

The client raises its own HTTP error types (1.x: ``ApiException`` with ``.status``; 2.x:
``requests.HTTPError`` with ``.response.status_code``); :func:`http_status` reads either without
importing them.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError

CLIENT_HINT = "the Kaggle client is not installed: pip install 'pytest-mlebench[kaggle]'"
TOKEN_PAGE = "https://www.kaggle.com/settings"
TRANSIENT_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# Class names (anywhere in the exception's MRO) of network failures worth another try; matched
# by name so that neither requests nor urllib3 has to be imported.
TRANSIENT_ERROR_NAMES = frozenset(
    {
        "ConnectionError",
        "ConnectTimeout",
        "ReadTimeout",
        "Timeout",
        "TimeoutError",
        "ProtocolError",
        "ChunkedEncodingError",
        "IncompleteRead",
        "ConnectionResetError",
        "RemoteDisconnected",
    }
)
_STATUS_IN_TEXT = re.compile(r"\b([45]\d\d)\b")


class KaggleUnavailable(MLEBenchError):
    """The Kaggle API cannot be used here (no credentials, no client, credentials refused)."""


def rules_url(competition_id: str) -> str:
    """The page on which the competition's rules are accepted."""
    return f"https://www.kaggle.com/competitions/{competition_id}/rules"


def config_dir() -> Path:
    """Where the client looks for ``kaggle.json`` (``KAGGLE_CONFIG_DIR`` or ``~/.kaggle``)."""
    return Path(os.environ.get("KAGGLE_CONFIG_DIR") or Path.home() / ".kaggle")


def credentials_hint() -> str | None:
    """Why Kaggle credentials are missing, or ``None`` when they are configured."""
    if os.environ.get("KAGGLE_USERNAME") and os.environ.get("KAGGLE_KEY"):
        return None
    if os.environ.get("KAGGLE_API_TOKEN"):
        return None
    folder = config_dir()
    if (folder / "kaggle.json").is_file() or (folder / "access_token").is_file():
        return None
    return (
        f"no Kaggle credentials: save your API token as {folder / 'kaggle.json'} (create it on "
        f"{TOKEN_PAGE}, 'Create New Token'; KAGGLE_CONFIG_DIR names another folder) "
        "or set KAGGLE_USERNAME and KAGGLE_KEY"
    )


def client_installed() -> bool:
    try:
        return importlib.util.find_spec("kaggle") is not None
    except (ImportError, ValueError):
        return False


def client_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kaggle")
    except PackageNotFoundError:
        return None


def setup_problem() -> str | None:
    """What is missing before the Kaggle API can be used (credentials, the client, or both, in
    one message with each fix), or ``None`` when both are there."""
    missing = [
        hint for hint in (credentials_hint(), None if client_installed() else CLIENT_HINT) if hint
    ]
    return "; and ".join(missing) or None


def new_api() -> Any:
    """An authenticated ``KaggleApi``; :class:`KaggleUnavailable` with the fix otherwise."""
    hint = setup_problem()
    if hint:
        raise KaggleUnavailable(hint)
    try:
        module = importlib.import_module("kaggle.api.kaggle_api_extended")
    except ImportError:
        raise KaggleUnavailable(CLIENT_HINT) from None
    except (Exception, SystemExit) as exc:  # 1.x authenticates while being imported
        raise KaggleUnavailable(f"the Kaggle client refused to start: {exc}") from None
    api = module.KaggleApi()
    try:
        api.authenticate()
    except (Exception, SystemExit) as exc:  # 2.x calls exit(1) when it finds no credentials
        raise KaggleUnavailable(f"Kaggle authentication failed: {exc}") from None
    return api


def http_status(error: BaseException) -> int | None:
    """The HTTP status an error of the Kaggle client carries, if any."""
    status = getattr(error, "status", None)
    if isinstance(status, int):
        return status
    response = getattr(error, "response", None)
    code = getattr(response, "status_code", None)
    if isinstance(code, int):
        return code
    found = _STATUS_IN_TEXT.search(str(error))
    return int(found.group(1)) if found else None


def is_transient(error: BaseException) -> bool:
    """A failure another try may cure: a network error, 408/429 or a server error."""
    if any(cls.__name__ in TRANSIENT_ERROR_NAMES for cls in type(error).__mro__):
        return True
    return http_status(error) in TRANSIENT_STATUSES
