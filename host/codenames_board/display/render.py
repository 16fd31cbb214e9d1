"""The spymaster display: the whole screen as a pure function of the game, the UI state and a translator.

``render`` draws the key in the spymasters' orientation, framed in the start
team's colour (the key card's four lights), and beside it the status panel
(see :mod:`.panel`); while the unpair question is open, the pairing QR code
takes the key's place (see :mod:`.pairing`). Nothing here reads a clock or
keeps state: the same inputs give the same pixels, so screenshots can be
compared in tests.
"""

from __future__ import annotations

import pygame

from ..engine import Game, Identity, Touch
from ..ui import Confirm, UiState
from .layout import (
    ASSASSIN_EDGE,
    BACKGROUND,
    CONFIRM,
    DIM_TEXT,
    IDENTITY_COLOURS,
    TEAM_COLOURS,
    TEXT,
    WHITE,
    Colour,
    Layout,
    fit,
    layout,
    mix,
)
from .pairing import draw_qr
from .panel import Translate, draw_panel

_LETTER_COLOURS: dict[Identity, Colour] = {
    Identity.RED: WHITE,
    Identity.BLUE: WHITE,
    Identity.BYSTANDER: (70, 52, 28),
    Identity.ASSASSIN: WHITE,
}


def render(
    surface: pygame.Surface,
    game: Game,
    ui: UiState,
    tr: Translate,
    *,
    rotate: bool = True,
    colour_blind_marks: bool = True,
) -> None:
    """Draw the spymaster display for this game and UI state onto ``surface`` (any size).

    ``rotate``: the key as the spymasters see it from across the table, the
    operatives' top-left tile at the bottom right. ``colour_blind_marks``: each
    cell also carries its identity's board letter (the assassin always has its X).
    """
    where = layout(surface.get_size())
    surface.fill(BACKGROUND)
    if ui.confirm is Confirm.UNPAIR and ui.pairing is not None:
        # For a moment the QR code takes the key's square: the question is about the phones, and a
        # phone scans a big code from further away. Any button but CONFIRM brings the key back.
        draw_qr(surface, pygame.Rect(where.frame), ui.pairing.url)
    else:
        _draw_key(surface, where, game, tr, rotate, colour_blind_marks)
        undoing = game.actions[-1] if ui.confirm is Confirm.UNDO and game.actions else None
        if isinstance(undoing, Touch):  # "Undo touch A2?": the key has no grid names, so A2 is ringed on it
            _draw_undo_ring(surface, where.tile_rect(undoing.tile, rotate))
    clip = surface.get_clip()
    surface.set_clip(pygame.Rect(where.panel).clip(clip))
    try:
        draw_panel(surface, where, game, ui, tr)
    finally:
        surface.set_clip(clip)


# --- the key


def _draw_key(surface: pygame.Surface, where: Layout, game: Game, tr: Translate, rotate: bool, marks: bool) -> None:
    frame, thick = pygame.Rect(where.frame), where.frame_width
    start = TEAM_COLOURS[game.key.start]
    pygame.draw.rect(surface, start, frame, thick, border_radius=thick)
    # The key card's four lights: a brighter, thicker bar in the middle of each side.
    light, length, depth = mix(start, WHITE, 0.45), frame.width // 4, thick + max(1, thick // 2)
    for bar in (
        pygame.Rect(frame.centerx - length // 2, frame.top, length, depth),
        pygame.Rect(frame.centerx - length // 2, frame.bottom - depth, length, depth),
        pygame.Rect(frame.left, frame.centery - length // 2, depth, length),
        pygame.Rect(frame.right - depth, frame.centery - length // 2, depth, length),
    ):
        pygame.draw.rect(surface, light, bar, border_radius=max(1, depth // 3))
    letters = {
        Identity.RED: tr("board.letter_red"),
        Identity.BLUE: tr("board.letter_blue"),
        Identity.BYSTANDER: tr("board.letter_bystander"),
        Identity.ASSASSIN: tr("board.letter_assassin"),
    }
    for tile, identity in enumerate(game.key):
        state = "covered" if tile in game.covered else "revealed" if tile in game.revealed else "hidden"
        _draw_cell(surface, where.tile_rect(tile, rotate), identity, state, letters[identity] if marks else None)


def _draw_cell(surface: pygame.Surface, rect: pygame.Rect, identity: Identity, state: str, letter: str | None) -> None:
    colour, size = IDENTITY_COLOURS[identity], rect.width
    radius = max(2, size // 8)
    hidden = state == "hidden"
    pygame.draw.rect(surface, colour if hidden else mix(colour, BACKGROUND, 0.75), rect, border_radius=radius)
    if identity is Identity.ASSASSIN:
        edge = ASSASSIN_EDGE if hidden else DIM_TEXT
        pygame.draw.rect(surface, edge, rect, max(2, size // 12), border_radius=radius)
        inset, width = size // 4, max(2, size // 10)
        box = rect.inflate(-2 * inset, -2 * inset)
        pygame.draw.line(surface, edge, box.topleft, box.bottomright, width)
        pygame.draw.line(surface, edge, box.topright, box.bottomleft, width)
    else:
        if not hidden:  # a dimmed cell keeps its identity colour on its edge
            pygame.draw.rect(surface, mix(colour, BACKGROUND, 0.25), rect, max(1, size // 16), border_radius=radius)
        if letter:
            text = fit(letter, round(size * (0.62 if hidden else 0.5)), size - 4, 8)
            ink = _LETTER_COLOURS[identity] if hidden else mix(colour, WHITE, 0.45)
            image = text.font.render(text.lines[0], True, ink)
            surface.blit(image, image.get_rect(center=(rect.centerx, rect.centery + size // 24)))
    if not hidden:
        _draw_done_mark(surface, rect, state == "covered")


def _draw_undo_ring(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The question's colour around the tile the undo would take back, outside the cell, dark-edged."""
    width = max(3, rect.width // 9)
    ring = rect.inflate(2 * width, 2 * width)
    pygame.draw.rect(surface, BACKGROUND, ring.inflate(2, 2), width + 2, border_radius=max(3, rect.width // 6))
    pygame.draw.rect(surface, CONFIRM, ring, width, border_radius=max(3, rect.width // 6))


def _draw_done_mark(surface: pygame.Surface, rect: pygame.Rect, covered: bool) -> None:
    """A check for a tile the operatives touched; a filled corner, like a card laid on it, for a covered one."""
    size = rect.width
    mark = max(6, round(size * 0.34))
    inset = max(2, size // 14)
    right, top = rect.right - inset, rect.top + inset
    if covered:
        pygame.draw.polygon(surface, TEXT, [(right - mark, top), (right, top), (right, top + mark)])
    else:
        points = [(0.05, 0.55), (0.38, 0.88), (0.95, 0.12)]
        pygame.draw.lines(
            surface, TEXT, False, [(right - mark + x * mark, top + y * mark) for x, y in points], max(2, size // 14)
        )
