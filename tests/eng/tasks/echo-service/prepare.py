"""Per seed: the echo prefix and the log file; the expected prefix is kept in private/."""

from __future__ import annotations

from pathlib import Path


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    prefix = f"s{seed}-{(seed * 7919) % 1000:03d}:"
    (private / "prefix.txt").write_text(prefix, "utf-8")
    (workspace / "logs").mkdir(exist_ok=True)
    return {"ECHO_PREFIX": prefix, "APP_LOG": "{WORK_DIR}/logs/app.log"}
