"""Allure's own HTML report, generated with the pinned npm package ``allure`` through ``npx``.

``mlebench report --allure OUT`` runs ``npx --yes allure@<ALLURE_VERSION> generate RESULTS -o
OUT`` with a small config that asks for a single-file report (it opens from ``file://``). The
generated page loads Google Analytics; :func:`strip_analytics` removes those script tags so the
report works offline and phones nowhere. Without node/npx the command says how to get them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from pytest_mlebench.errors import MLEBenchError

ALLURE_VERSION = "3.18.0"
INSTALL_HINT = (
    "Allure's report generator needs Node.js with npx (Debian/Ubuntu: apt-get install -y nodejs "
    f"npm); it fetches allure@{ALLURE_VERSION} from the npm registry on first use. To work "
    f"offline later, install it once: npm install --prefix ~/.cache/mlebench/allure "
    f"allure@{ALLURE_VERSION}, and put ~/.cache/mlebench/allure/node_modules/.bin on PATH."
)
ANALYTICS_SRC = re.compile(
    r"<script\b[^>]*\bsrc=[\"'][^\"']*googletagmanager[^\"']*[\"'][^>]*>\s*</script>\s*",
    re.IGNORECASE,
)
ANALYTICS_INLINE = re.compile(
    r"<script\b[^>]*>(?:(?!</script>).)*?\bgtag\((?:(?!</script>).)*?</script>\s*",
    re.IGNORECASE | re.DOTALL,
)
Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


class AllureUnavailable(MLEBenchError):
    """Allure's generator cannot run here (no npx, or the package cannot be fetched)."""


def strip_analytics(page: str) -> str:
    """``page`` without the Google Analytics loader and its inline ``gtag`` set-up."""
    return ANALYTICS_INLINE.sub("", ANALYTICS_SRC.sub("", page))


def allure_command() -> list[str]:
    """The command prefix: a locally installed ``allure`` of the pinned version, else ``npx``."""
    local = shutil.which("allure")
    if local and _version_of(local) == ALLURE_VERSION:
        return [local]
    npx = shutil.which("npx")
    if npx is None:
        raise AllureUnavailable(INSTALL_HINT)
    return [npx, "--yes", f"allure@{ALLURE_VERSION}"]


def _version_of(executable: str) -> str | None:
    try:
        done = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)


def generate_allure_site(
    results: Path, out_dir: Path, name: str = "MLE-bench", runner: Runner = _run
) -> Path:
    """Generate Allure's report of ``results`` into ``out_dir``; returns its ``index.html``.

    Raises:
        AllureUnavailable: No npx, or the generator failed (its output is in the message).
    """
    if not results.is_dir():
        raise AllureUnavailable(f"{results}: no Allure results folder (run pytest --alluredir)")
    with tempfile.TemporaryDirectory(prefix="mlebench-allure-") as scratch:
        config = Path(scratch) / "allurerc.json"
        options = {"singleFile": True, "reportName": name, "groupBy": ["parentSuite"]}
        config.write_text(json.dumps({"name": name, "plugins": {"awesome": {"options": options}}}))
        command = [*allure_command(), "generate", str(results), "-o", str(out_dir)]
        done = runner([*command, "--config", str(config)])
    page = out_dir / "index.html"
    if done.returncode != 0 or not page.is_file():
        output = (done.stdout + done.stderr).strip()[-2000:]
        raise AllureUnavailable(
            f"allure generate failed (exit {done.returncode}): {output}\n{INSTALL_HINT}"
        )
    page.write_text(strip_analytics(page.read_text("utf-8")), "utf-8")
    return page
