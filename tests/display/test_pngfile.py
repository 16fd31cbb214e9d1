"""The display's PNG files (display/pngfile.py): the same picture as the surface, any size."""

from __future__ import annotations

import struct
import zlib

import pygame
import pytest

from codenames_board.display import render
from codenames_board.display.pngfile import SIGNATURE, png_bytes
from codenames_board.engine import new_game
from codenames_board.ui import UiState


@pytest.mark.parametrize("dimensions", [(480, 320), (321, 241), (4, 2), (1, 1)])
def test_a_png_file_holds_the_surfaces_pixels(tmp_path, tiles, tr, dimensions):
    surface = pygame.Surface(dimensions)
    render(surface, new_game(tiles.key), UiState(clue_draft=2), tr)
    path = tmp_path / "frame.png"
    path.write_bytes(png_bytes(surface))
    loaded = pygame.image.load(str(path))
    assert loaded.get_size() == dimensions
    assert pygame.image.tostring(loaded, "RGB") == pygame.image.tostring(surface, "RGB")


def test_the_file_is_8_bit_rgb_with_checked_chunks():
    surface = pygame.Surface((3, 2))
    surface.fill((200, 100, 50))
    data = png_bytes(surface)
    assert data.startswith(SIGNATURE)
    chunks, at = [], len(SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (3, 2, 8, 2, 0, 0, 0)
    assert zlib.decompress(chunks[1][1]) == (b"\x00" + bytes((200, 100, 50)) * 3) * 2
