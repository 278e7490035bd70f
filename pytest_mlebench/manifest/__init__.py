"""The session manifest: the conditions a session's numbers were made under, and whether two
sessions may be compared (``docs/reports.md``, "The manifest").

:mod:`.from_records` makes it from run records, :mod:`.session_facts` adds what only the
session knows, :mod:`.comparability` decides for the gate and ``mlebench report --compare``,
:mod:`.render` prints it, :mod:`.writer` writes ``manifest.json`` beside ``summary.json``. The
keys and which of them refuse a comparison are declared once in
:mod:`pytest_mlebench.values.manifest_keys`.
"""
