"""The verifier's probe, imported at the start of every Python process of a verified run.

It waits for ``torch.utils.data.dataloader`` to be imported and then wraps three methods:

- ``DataLoader.__init__``: a loader with workers gets the start method the verifier chose
  (``$DL_PROBE_START_METHOD``), whatever the code asked for, so "works under spawn" is tested
  even when the code pins another start method;
- ``_MultiProcessingDataLoaderIter.__init__``: records how many worker processes really started
  and of which kind (``SpawnProcess``, ``ForkServerProcess``, ...);
- ``_BaseDataLoaderIter.__next__``: counts the samples each pass yielded and keeps the first
  batch's features (to see the augmentation is still applied).

At exit the process that iterated a loader writes ``probe-<pid>.json`` to ``$DL_PROBE_DIR``.
The agent's code never sees this file: it lives in the verifier's scratch folder.
"""

from __future__ import annotations

import atexit
import importlib.abc
import importlib.machinery
import json
import os
from typing import Any

TARGET = "torch.utils.data.dataloader"
PASSES: list[dict[str, Any]] = []


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the DataLoader module the normal way and patches it right after it executed."""

    def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
        if name != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        original = spec.loader.exec_module

        def exec_module(module):  # type: ignore[no-untyped-def]
            original(module)
            _patch(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _patch(module: Any) -> None:
    import multiprocessing

    method = os.environ.get("DL_PROBE_START_METHOD")
    loader_init = module.DataLoader.__init__
    multi_init = module._MultiProcessingDataLoaderIter.__init__
    base_next = module._BaseDataLoaderIter.__next__

    def init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        loader_init(self, *args, **kwargs)
        if method and self.num_workers > 0:
            self.multiprocessing_context = multiprocessing.get_context(method)

    def start(self, loader, *args, **kwargs):  # type: ignore[no-untyped-def]
        multi_init(self, loader, *args, **kwargs)
        self._probe["workers"] = len(self._workers)
        self._probe["kinds"] = sorted({type(worker).__name__ for worker in self._workers})

    def step(self):  # type: ignore[no-untyped-def]
        batch = base_next(self)
        first = batch[0] if isinstance(batch, (list, tuple)) else batch
        self._probe["samples"] += len(first)
        if self._probe["first"] is None and hasattr(first, "tolist"):
            self._probe["first"] = first.tolist()
        return batch

    def probe(self):  # type: ignore[no-untyped-def]
        """This iterator's record (one per iterator: persistent workers keep one for all epochs)."""
        if "_probe_pass" not in self.__dict__:
            self.__dict__["_probe_pass"] = {"workers": 0, "kinds": [], "samples": 0, "first": None}
            PASSES.append(self.__dict__["_probe_pass"])
        return self.__dict__["_probe_pass"]

    module.DataLoader.__init__ = init
    module._MultiProcessingDataLoaderIter.__init__ = start
    module._BaseDataLoaderIter.__next__ = step
    module._BaseDataLoaderIter._probe = property(probe)


def _write() -> None:
    folder = os.environ.get("DL_PROBE_DIR")
    if folder and PASSES:
        path = os.path.join(folder, f"probe-{os.getpid()}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"pid": os.getpid(), "passes": PASSES}, handle)


if os.environ.get("DL_PROBE_DIR"):
    import sys

    sys.meta_path.insert(0, _Finder())
    atexit.register(_write)
