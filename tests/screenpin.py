"""The pairing PIN read off the hooded display's picture, as a spymaster reads it: by its digits.

The display draws the PIN with pygame's default font at a size between its layout's "large"
and "huge" (``display.pairing.pin_text``), light text on the dark background. Here every
light piece of the picture is cut out and compared with the digits 0-9 drawn the same way
at each of those sizes; the size at which exactly six pieces are digits is the PIN's, read
line by line, left to right. Nothing of the table's state is asked: only the pixels.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from codenames_board.display.layout import BACKGROUND, TEXT, font, layout

# Light pixels: the text's grey (236) and its edges down to half way, never the QR code's pure
# white (255) nor a colour (the red and blue tiles, the clue dial's yellow).
INK, SPREAD = (183, 183, 183), (54, 54, 54, 255)
DIGITS = "0123456789"
PIN_LENGTH = 6
# Of a digit's pixels, how many may differ: drawn the same way a digit matches exactly, one size off
# by under 6 %; another digit differs by over 25 % at any size.
NEAR = 0.1


def ink(surface: pygame.Surface) -> pygame.mask.Mask:
    return pygame.mask.from_threshold(surface, INK, SPREAD)


def digit_mask(size: int, digit: str) -> pygame.mask.Mask:
    """The digit as the display draws it (blended on its background), cut to its light pixels."""
    image = font(size).render(digit, True, TEXT)
    surface = pygame.Surface(image.get_size())
    surface.fill(BACKGROUND)
    surface.blit(image, (0, 0))
    (box,) = ink(surface).get_bounding_rects()
    return ink(surface.subsurface(box))


def _difference(piece: pygame.mask.Mask, rect: pygame.Rect, digit: pygame.mask.Mask) -> float:
    """How much of the piece (one connected part of the picture, its box ``rect``) is not the digit."""
    if rect.size != digit.get_size():
        return 1.0
    same = digit.overlap_area(piece, (-rect.x, -rect.y))
    return (piece.count() + digit.count() - 2 * same) / max(1, digit.count())


def read_pin(path: str | Path) -> str | None:
    """The six digits of the PIN on the display's picture at ``path``; None if it shows none."""
    picture = pygame.image.load(str(path))
    sizes = layout(picture.get_size()).sizes
    # Each connected part on its own: a kerned neighbour may reach into a digit's box, never into its part.
    pieces = [(piece, piece.get_bounding_rects()[0]) for piece in ink(picture).connected_components()]
    for size in range(sizes["large"], sizes["huge"] + 1):
        digits = {digit: digit_mask(size, digit) for digit in DIGITS}
        found = []
        for piece, rect in pieces:
            difference, digit = min((_difference(piece, rect, mask), digit) for digit, mask in digits.items())
            if difference <= NEAR:
                found.append((rect, digit))
        if len(found) == PIN_LENGTH:
            return "".join(digit for _, digit in _reading_order(found))
    return None


def _reading_order(found: list[tuple[pygame.Rect, str]]) -> list[tuple[pygame.Rect, str]]:
    """Lines top down (pieces whose heights overlap share a line), each left to right."""
    lines: list[list[tuple[pygame.Rect, str]]] = []
    for rect, digit in sorted(found, key=lambda entry: entry[0].top):
        if lines and rect.top < max(other.bottom for other, _ in lines[-1]):
            lines[-1].append((rect, digit))
        else:
            lines.append([(rect, digit)])
    return [entry for line in lines for entry in sorted(line, key=lambda entry: entry[0].left)]
