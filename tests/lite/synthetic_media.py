"""Tiny image and audio files for the Kaggle-shaped fixtures, in the file types Kaggle ships.

The leak probe reads file sizes, so every file of one kind comes out the same size whatever its
content: a JPEG is padded to a fixed size with a comment segment, and audio clips of one
competition share their length. A label then shows only in the pixels or samples, as it should.
"""

from __future__ import annotations

import io
import math
import struct
import wave

import numpy as np
from PIL import Image

JPEG_COMMENT = b"\xff\xfe"
JPEG_START = b"\xff\xd8"
MAX_SEGMENT = 65_535


def jpeg_bytes(pixels: np.ndarray, size: int) -> bytes:
    """``pixels`` (H×W or H×W×3, uint8) as a JPEG of exactly ``size`` bytes.

    Raises:
        ValueError: The encoded image is larger than ``size`` allows.
    """
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8)).save(
        buffer, format="JPEG", quality=90
    )
    encoded = buffer.getvalue()
    padding = size - len(encoded) - len(JPEG_COMMENT) - 2
    if not 0 <= padding <= MAX_SEGMENT - 2:
        raise ValueError(f"a {len(encoded)}-byte JPEG cannot be padded to {size} bytes")
    comment = JPEG_COMMENT + struct.pack(">H", padding + 2) + b" " * padding
    return JPEG_START + comment + encoded[len(JPEG_START) :]


def wav_bytes(samples: np.ndarray, rate: int) -> bytes:
    """Mono 16-bit PCM WAV of ``samples`` (floats in [-1, 1])."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(rate)
        clip.writeframes(_pcm16(samples).astype("<i2").tobytes())
    return buffer.getvalue()


def aiff_bytes(samples: np.ndarray, rate: int) -> bytes:
    """Mono 16-bit AIFF of ``samples`` (floats in [-1, 1]): a FORM with COMM and SSND chunks."""
    frames = _pcm16(samples).astype(">i2").tobytes()
    common = struct.pack(">hIh", 1, len(samples), 16) + _extended(rate)
    sound = struct.pack(">II", 0, 0) + frames
    chunks = _chunk(b"COMM", common) + _chunk(b"SSND", sound)
    return _chunk(b"FORM", b"AIFF" + chunks)


def _pcm16(samples: np.ndarray) -> np.ndarray:
    scaled: np.ndarray = np.round(np.clip(samples, -1.0, 1.0) * 32_767)
    return scaled.astype(np.int16)


def _chunk(kind: bytes, body: bytes) -> bytes:
    pad = b"\x00" if len(body) % 2 else b""
    return kind + struct.pack(">I", len(body)) + body + pad


def _extended(value: int) -> bytes:
    """A positive whole number as the 80-bit IEEE extended float AIFF uses for the rate."""
    exponent = math.floor(math.log2(value))
    mantissa = value << (63 - exponent)
    return struct.pack(">HQ", 16_383 + exponent, mantissa)
