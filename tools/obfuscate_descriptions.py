"""Write each competition's ``description_obfuscated.md`` from its ``description.md``.

The procedure is :mod:`pytest_mlebench.variants.obfuscation` (its docstring lists the steps); the
reviewed identifying strings per competition are ``pytest_mlebench/variants/identity.yaml``.
Review the diff before committing: a replacement that reads badly is fixed in the table (a longer
entry wins over a shorter one), never by editing a generated file by hand, so the files can be
regenerated at any time. ``--check`` writes nothing and fails when a file is missing, differs from
what the procedure gives, or still holds an identifying string.

Usage (from the repository root):

    .venv/bin/python tools/obfuscate_descriptions.py            # write every variant
    .venv/bin/python tools/obfuscate_descriptions.py --check    # CI-style check
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_mlebench.variants.obfuscation import (  # noqa: E402
    identity_of,
    load_identity_table,
    obfuscate,
    surviving_identity,
)
from pytest_mlebench.variants.public_view import OBFUSCATED_FILE  # noqa: E402


def competition_folders(root: Path) -> list[Path]:
    return sorted(p.parent for p in (root / "competitions").glob("*/config.yaml"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; report differences")
    args = parser.parse_args(argv)
    table = load_identity_table()
    problems = []
    for folder in competition_folders(ROOT):
        identity = identity_of(folder, table)
        text = obfuscate((folder / "description.md").read_text("utf-8"), identity)
        left = surviving_identity(text, identity)
        if left:
            problems.append(f"{folder.name}: still names {', '.join(left)}; extend identity.yaml")
        target = folder / OBFUSCATED_FILE
        if args.check:
            if not target.is_file() or target.read_text("utf-8") != text:
                problems.append(f"{folder.name}: {OBFUSCATED_FILE} is missing or out of date")
        else:
            target.write_text(text, "utf-8")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
