"""A frame as a PNG file's bytes, compressed by zlib, which lets go of the interpreter meanwhile.

``pygame.image.save`` holds Python's interpreter lock for the whole encode: 4 ms for a 480x320
frame on a laptop, 28 ms under qemu's arm64 emulation, and every other thread of ``run`` (the
touch's among them) waits that long. ``zlib.compress`` and ``zlib.crc32`` release the lock while
they work, so a touch that arrives during a save waits no longer than during any other drawing.

The picture is the same; the file is a plain one: 8-bit RGB, no filter on the rows (the display's
flat colours compress well without one), one IDAT chunk.
"""

from __future__ import annotations

import struct
import zlib

import pygame

SIGNATURE = b"\x89PNG\r\n\x1a\n"
RGB = 2  # the IHDR colour type: three 8-bit samples a pixel


def png_bytes(surface: pygame.Surface, level: int = 6) -> bytes:
    """The surface's pixels as a PNG file (``level``: zlib's, 1 fastest to 9 smallest)."""
    width, height = surface.get_size()
    pixels = memoryview(pygame.image.tostring(surface, "RGB"))  # tostring: also in pygame 2.1.2 (Bookworm's)
    row = width * 3
    # Each row starts with its filter type, 0 (none).
    rows = b"".join(b"\x00" + pixels[start : start + row] for start in range(0, row * height, row))
    header = struct.pack(">IIBBBBB", width, height, 8, RGB, 0, 0, 0)
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", zlib.compress(rows, level)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
