"""The pairing card: a QR code and a PIN on the hooded display, so a spymaster's phone joins the web page.

The web page's output puts a ``ui.PairingCard`` into the UI state; the display
shows it in two places. Small, as a block of the status panel, while a game has
no action yet (pairing happens at the start of each game): it takes the room of
the blocks that matter least then, never the key, whose turn or the clue dial.
Large while the unpair question is open: the QR code fills the key's square and
the question block says the PIN and how many phones are paired.

The QR code is drawn module by module in whole pixels, black on white, with a
quiet zone of at least ``QUIET`` modules, so a phone's camera reads it even on
a 320x240 screen. Its matrix is cached by URL (a new one comes with each game).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable
from urllib.parse import urlsplit

import pygame

from ..ui import PairingCard
from .layout import BACKGROUND, CONFIRM, DIM_TEXT, ELLIPSIS, TEXT, WHITE, Layout, Text, fit, mix

Translate = Callable[..., str]
Draw = Callable[[pygame.Surface, pygame.Rect], None]

BLACK = (0, 0, 0)
QUIET = 2  # light modules around the code: phone readers need 2 beside a dark screen (print asks 4)
MIN_MODULE = 2  # pixels per module; below that a camera no longer tells the modules apart


@lru_cache(maxsize=4)
def qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``url`` as rows of modules, True for dark. Never a Micro QR: phones do not read those."""
    import segno  # here, not above: a table without the web page never loads it (about 2.5 MB resident)

    code = segno.make(url, error="m", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def qr_side(url: str, module: int) -> int:
    """The width in pixels of the QR code of ``url`` at ``module`` pixels per module, quiet zone included."""
    return module * (len(qr_matrix(url)) + 2 * QUIET)


def draw_qr(surface: pygame.Surface, rect: pygame.Rect, url: str) -> None:
    """Fill ``rect`` white and draw the QR code of ``url`` in its middle, as big as whole pixels per module allow."""
    matrix = qr_matrix(url)
    count = len(matrix)
    module = min(rect.width, rect.height) // (count + 2 * QUIET)
    surface.fill(WHITE, rect)
    left = rect.x + (rect.width - module * count) // 2
    top = rect.y + (rect.height - module * count) // 2
    for row, modules in enumerate(matrix):
        y, column = top + row * module, 0
        while column < count:  # one fill per run of dark modules
            if not modules[column]:
                column += 1
                continue
            end = column
            while end < count and modules[end]:
                end += 1
            surface.fill(BLACK, (left + column * module, y, (end - column) * module, module))
            column = end


def spaced_pin(pin: str) -> str:
    """``123456`` as ``123 456``: two groups are easier to read and type."""
    return f"{pin[:3]} {pin[3:]}" if len(pin) == 6 else pin


def address(url: str) -> str:
    """What to type in a browser instead of scanning: host, port and path, without the token."""
    parts = urlsplit(url)
    return f"{parts.netloc}{parts.path}"


def paired_text(devices: int, tr: Translate) -> str:
    if devices == 0:
        return tr("display.paired_none")
    if devices == 1:
        return tr("display.paired_one")
    return tr("display.paired_many", count=devices)


@dataclass(frozen=True)
class Card:
    """A block for the status panel: its height and how to draw it into its rectangle."""

    height: int
    draw: Draw
    texts: tuple[Text, ...] = ()  # what it says, as laid out (see panel's blocks)


@dataclass(frozen=True)
class _Address:
    """A label, and under it the address to type, drawn like a :class:`Text`."""

    label: Text
    address: Text

    @property
    def height(self) -> int:
        return self.label.height + self.address.height

    def draw(self, surface: pygame.Surface, x: int, y: int, colour) -> int:
        return self.address.draw(surface, x, self.label.draw(surface, x, y, colour), colour)


def _open_at(where: Layout, width: int, label: str, url: str) -> _Address:
    # The address is typed: rather than cut it, it may shrink a little below the other text.
    smallest = max(10, where.min_size * 3 // 4)
    said = fit(label, where.sizes["small"], width, where.min_size, 2)
    return _Address(said, fit(address(url), where.sizes["small"], width, smallest))


def small_card(where: Layout, width: int, room: int, pairing: PairingCard, tr: Translate) -> Card | None:
    """The card for the status panel, at most ``room`` pixels high: the biggest QR code that fits
    beside or above the PIN, else the PIN and the address as text only; None if not even that fits."""
    sizes, pad = where.sizes, where.pad
    paired = fit(paired_text(pairing.devices, tr), sizes["small"], width, where.min_size)
    scan = _open_at(where, width, tr("display.pair_scan"), pairing.url)
    most = max(MIN_MODULE, sizes["small"] // 5)  # about 3 px at 320x240, 6 px at 800x480
    for module in range(most, MIN_MODULE - 1, -1):
        side = qr_side(pairing.url, module)
        if side > width:
            continue
        for card in (_beside(where, width, side, pairing, scan, tr), _above(where, width, side, pairing, paired, scan)):
            if card is not None and card.height <= room:
                return card
    text = _open_at(where, width, tr("display.pair_open"), pairing.url)
    pin = pin_text(pairing.pin, where, width)
    if pin is None:
        return None
    height = pin.height + text.height + paired.height + pad // 2

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        y = pin.draw(surface, rect.x, rect.y, TEXT)
        paired.draw(surface, rect.x, text.draw(surface, rect.x, y + pad // 2, TEXT), DIM_TEXT)

    return Card(height, draw, (pin, text.label, text.address, paired)) if height <= room else None


def pin_text(pin: str, where: Layout, width: int) -> Text | None:
    """The PIN in big digits within ``width``: in one line, else its two groups of three in two lines;
    None if neither fits at the large size (cut digits would be wrong digits)."""
    spaced = spaced_pin(pin)
    for lines in ((spaced,), tuple(spaced.split())):
        for size in range(where.sizes["huge"], where.sizes["large"] - 1, -1):
            text = Text(size, lines)
            if text.width <= width:
                return text
    return None


def _beside(where: Layout, width: int, side: int, pairing: PairingCard, scan: _Address, tr: Translate) -> Card | None:
    """The QR code on the left, the PIN and the count on its right (the count under the address if
    it does not fit there); the address below."""
    pad = where.pad
    column = width - side - pad
    pin = pin_text(pairing.pin, where, column)
    if pin is None:
        return None
    said = paired_text(pairing.devices, tr)
    count, below = fit(said, where.sizes["small"], column, where.min_size, 2), None
    if any(line.endswith(ELLIPSIS) for line in count.lines):
        count, below = Text(count.size, ()), fit(said, where.sizes["small"], width, where.min_size)
    top = max(side, pin.height + pad // 2 + count.height)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_qr(surface, pygame.Rect(rect.x, rect.y, side, side), pairing.url)
        x = rect.x + side + pad
        count.draw(surface, x, pin.draw(surface, x, rect.y, TEXT) + pad // 2, DIM_TEXT)
        y = scan.draw(surface, rect.x, rect.y + top + pad // 2, TEXT)
        if below:
            below.draw(surface, rect.x, y, DIM_TEXT)

    texts = (pin, count, scan.label, scan.address, *([below] if below else []))
    return Card(top + pad // 2 + scan.height + (below.height if below else 0), draw, texts)


def _above(where: Layout, width: int, side: int, pairing: PairingCard, paired: Text, scan: _Address) -> Card | None:
    """The QR code on top; the PIN, the address and the count below it."""
    pad = where.pad
    pin = pin_text(pairing.pin, where, width)
    if pin is None:
        return None

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        draw_qr(surface, pygame.Rect(rect.x, rect.y, side, side), pairing.url)
        y = pin.draw(surface, rect.x, rect.y + side + pad // 2, TEXT)
        paired.draw(surface, rect.x, scan.draw(surface, rect.x, y, TEXT), DIM_TEXT)

    return Card(side + pad // 2 + pin.height + scan.height + paired.height, draw, (pin, scan.label, scan.address, paired))


def unpair_question(where: Layout, width: int, pairing: PairingCard | None, tr: Translate) -> Card:
    """The question while UNPAIR is asked: how many phones are paired, what CONFIRM does, and
    that any other button says no."""
    sizes, pad, border = where.sizes, where.pad, max(2, where.sizes["small"] // 8)
    inner = width - 2 * (pad + border)
    count = fit(paired_text(pairing.devices, tr), sizes["large"], inner, where.min_size) if pairing else None
    asked = fit(tr("display.confirm_unpair"), sizes["medium"], inner, where.min_size, 3)
    hint = fit(tr("display.confirm_unpair_no"), sizes["medium"], inner, where.min_size, 2)
    space = pad // 2 if count else 0

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, mix(CONFIRM, BACKGROUND, 0.82), rect, border_radius=pad)
        pygame.draw.rect(surface, CONFIRM, rect, border, border_radius=pad)
        x, y = rect.x + pad + border, rect.y + pad + border
        if count:
            y = count.draw(surface, x, y, WHITE) + space
        hint.draw(surface, x, asked.draw(surface, x, y, TEXT), CONFIRM)

    height = 2 * (pad + border) + (count.height if count else 0) + space + asked.height + hint.height
    return Card(height, draw, (*([count] if count else []), asked, hint))


def pin_card(where: Layout, width: int, pairing: PairingCard, tr: Translate) -> Card | None:
    """The PIN in big digits and where to type it, under the unpair question (the QR code has the key's square)."""
    pin = pin_text(pairing.pin, where, width)
    if pin is None:
        return None
    scan = _open_at(where, width, tr("display.pair_scan"), pairing.url)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        scan.draw(surface, rect.x, pin.draw(surface, rect.x, rect.y, TEXT), DIM_TEXT)

    return Card(pin.height + scan.height, draw, (pin, scan.label, scan.address))
