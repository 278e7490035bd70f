"""Tiny synthetic images for the Kaggle-shaped downloads of the image competitions.

The label of an image is in its pixels only: noise drawn the same way for every class, plus a
class-dependent tint. The noise dominates the encoded size, so a file's size says nothing about
its class (what the leak probe checks).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping

import numpy as np
from PIL import Image

NOISE_LEVELS = 100
"""Noise values are drawn from ``[0, NOISE_LEVELS)`` in every channel."""


def tinted_noise(
    rng: np.random.Generator, height: int, width: int, tint: tuple[int, int, int]
) -> np.ndarray:
    """An RGB array of uniform noise plus ``tint`` added to each channel (kept within 0..255)."""
    noise = rng.integers(0, NOISE_LEVELS, size=(height, width, 3))
    return np.clip(noise + np.asarray(tint), 0, 255).astype(np.uint8)


def encoded(pixels: np.ndarray, image_format: str) -> bytes:
    """``pixels`` (RGB or grayscale) encoded as ``image_format`` (``JPEG``, ``PNG``, ``TIFF``)."""
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format=image_format)
    return buffer.getvalue()


def zip_bytes(members: Mapping[str, bytes]) -> bytes:
    """A zip archive (stored, like Kaggle's image zips) holding ``members`` by name."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, content in members.items():
            bundle.writestr(name, content)
    return buffer.getvalue()


def random_hex(rng: np.random.Generator, length: int) -> str:
    """A random lower-case hexadecimal name, like Kaggle's hashed file names."""
    return "".join(rng.choice(list("0123456789abcdef"), size=length))
