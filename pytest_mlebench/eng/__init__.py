"""Engineering tasks: jobs whose result is a state of the world, checked by a hidden verifier.

A task folder (``engineering/<id>/``, format in ``docs/engineering.md``) holds the starting
workspace, the instruction, a per-seed ``prepare.py``, the hidden ``verify/`` tests, the oracle
``solution/`` and known ``cheats/``. This package reads and scores them; the verifier's own pytest
plugin is :mod:`pytest_mlebench.eng.verifier.mlebench_verify`.
"""
