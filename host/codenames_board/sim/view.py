"""The simulator window: the table drawn from a :class:`SimScene`, as a pure function of it.

``draw(surface, scene, tr)`` paints the whole window on a surface of any size
and returns where the clickable things are, by name: ``tile:0``..``tile:24``,
the buttons of ``scene.BUTTONS``, ``toggle_spymaster`` and ``toggle_help``.

Left, the biggest part, is the table: the 5x5 tiles lit from below by their
LEDs, the operatives' coordinates (rows A-E, columns 1-5) around them, and
along the table's edge the sand-timer button, the LED bar, the turn indicator
and END TURN. Right is the spymasters' corner: their display in its bezel (or
the closed hood while it is hidden) and their panel of buttons.

Only what the scene gives is drawn: a tile shows its word and the colour of its
LED, never anything it does not light. The same scene and size give the same
pixels; fonts are the spymaster display's (pygame's own, cached by size).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from ..display.layout import fit, fit_word, mix
from .help import draw_help, key_label
from .scene import SHORTCUTS, TOGGLE_HELP, TOGGLE_SPYMASTER, SimScene

Colour = tuple[int, int, int]

BACKGROUND: Colour = (17, 20, 26)
SLAB: Colour = (29, 34, 43)  # the table top around the tiles and the spymasters' console
SLAB_EDGE: Colour = (45, 52, 65)
CAPTION: Colour = (146, 154, 170)
TEXT: Colour = (236, 236, 236)
DARK_TEXT: Colour = (22, 22, 28)
CARD: Colour = (50, 52, 56)  # a tile whose LED is off: neutral, so any tint is the LED's
PAPER: Colour = (238, 232, 220)
LED_OFF: Colour = (58, 60, 66)
BEZEL: Colour = (9, 10, 13)
HOOD: Colour = (36, 32, 44)
WARNING: Colour = (255, 184, 0)
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
BUTTON_COLOURS: dict[str, Colour] = {
    "sand_timer": (226, 182, 84),
    "end_turn": (94, 102, 120),
    "clue_down": (72, 78, 92),
    "clue_up": (72, 78, 92),
    "clue_confirm": (44, 136, 88),
    "undo": (112, 96, 72),
    "new_game": (150, 54, 54),
}
_ICONS = {"clue_down": "down", "clue_up": "up"}


@dataclass(frozen=True)
class Layout:
    """Where everything goes on a window of ``size``; ``regions`` are the clickable ones."""

    size: tuple[int, int]
    scale: float
    board: pygame.Rect  # the slab under the tiles and their coordinates
    edge: pygame.Rect  # the table's edge: sand timer, status LEDs, END TURN
    timer_bar: pygame.Rect
    turn_indicator: pygame.Rect
    spymaster: pygame.Rect  # header and display: all that hiding the display changes
    screen: pygame.Rect  # the box the display (or the hood) fits into
    rim: int  # the bezel around it
    console: pygame.Rect  # the spymasters' buttons
    regions: dict[str, pygame.Rect]

    @property
    def radius(self) -> int:
        """The slabs' rounded corners."""
        return max(4, round(14 * self.scale))

    def font_size(self, base: float) -> int:
        """Text shrinks slower than the window, so a small window stays legible."""
        return max(10, round(base * self.scale**0.6))


def layout(size: tuple[int, int], clue_input: str = "buttons") -> Layout:
    width, height = size
    scale = max(0.4, min(width / 1280, height / 720))
    margin = max(6, round(14 * scale))
    gap = max(4, round(10 * scale))
    pad = max(4, round(12 * scale))
    right_width = round(width * 0.355)
    left = pygame.Rect(margin, margin, width - right_width - 3 * margin, height - 2 * margin)
    right = pygame.Rect(left.right + margin, margin, right_width, height - 2 * margin)
    regions: dict[str, pygame.Rect] = {}

    # The tiles: card-shaped (a Codenames card is about 3:2), as big as the board allows.
    edge = pygame.Rect(left.x, 0, left.width, round(left.height * 0.22))
    board = pygame.Rect(left.x, left.y, left.width, left.height - edge.height - gap)
    edge.y = board.bottom + gap
    gutter = max(14, round(30 * scale))
    area = pygame.Rect(board.x + pad + gutter, board.y + pad + gutter, 0, 0)
    area.size = (board.right - pad - gutter // 3 - area.x, board.bottom - pad - area.y)
    tile_gap = max(4, round(11 * scale))
    tile_w, tile_h = (area.width - 4 * tile_gap) // 5, (area.height - 4 * tile_gap) // 5
    tile_w, tile_h = min(tile_w, round(tile_h * 1.8)), min(tile_h, round(tile_w / 1.3))
    grid = pygame.Rect(0, 0, 5 * tile_w + 4 * tile_gap, 5 * tile_h + 4 * tile_gap)
    grid.center = area.center
    for tile in range(25):
        row, column = divmod(tile, 5)
        x, y = grid.x + column * (tile_w + tile_gap), grid.y + row * (tile_h + tile_gap)
        regions[f"tile:{tile}"] = pygame.Rect(x, y, tile_w, tile_h)

    # The table's edge: the big sand-timer button, the LED bar and turn indicator, END TURN.
    inner = edge.inflate(-2 * pad, -2 * pad)
    regions["sand_timer"] = pygame.Rect(inner.x + pad, inner.y, inner.height, inner.height)
    end_turn = pygame.Rect(0, 0, max(inner.height, round(inner.width * 0.24)), round(inner.height * 0.78))
    end_turn.midright = (inner.right - pad, inner.centery)
    regions["end_turn"] = end_turn
    leds = pygame.Rect(regions["sand_timer"].right + 2 * pad, inner.y, 0, inner.height)
    leds.width = end_turn.x - 2 * pad - leds.x
    turn_width = max(round(leds.width * 0.22), round(70 * scale))
    timer_bar = pygame.Rect(leds.x, leds.y, leds.width - turn_width - 2 * pad, leds.height)
    turn_indicator = pygame.Rect(timer_bar.right + 2 * pad, leds.y, turn_width, leds.height)

    # The spymasters' corner: the display in its bezel, then their panel.
    header = max(24, round(40 * scale))
    rim = max(4, round(12 * scale))
    screen = pygame.Rect(right.x + pad + rim, right.y + header + rim, right.width - 2 * (pad + rim), 0)
    screen.height = min(round(screen.width * 2 / 3), round(right.height * 0.5))
    spymaster = pygame.Rect(right.x, right.y, right.width, screen.bottom + rim + pad - right.y)
    toggle = pygame.Rect(0, 0, round(right.width * 0.3), round(header * 0.72))
    toggle.midright = (right.right - pad, right.y + (header + pad // 2) // 2)
    regions["toggle_spymaster"] = toggle
    console = pygame.Rect(right.x, spymaster.bottom + gap, right.width, right.bottom - spymaster.bottom - gap)
    body = console.inflate(-2 * pad, -2 * pad)
    body.y += round(header * 0.7)
    body.height -= round(header * 0.7) + header
    # No button is bigger than the sand timer: that one is for slapping.
    high = min((body.height - 2 * gap) // 2, round(regions["sand_timer"].height * 0.85))
    top = high  # the clue row; a knob stands a little taller than buttons
    if clue_input == "encoder":
        top = max(high, min(round(high * 1.3), body.height - 2 * gap - high, round(body.width * 0.4)))
    y = body.centery - (top + 2 * gap + high) // 2
    rows = [pygame.Rect(body.x, y, body.width, top), pygame.Rect(body.x, y + top + 2 * gap, body.width, high)]
    if clue_input == "encoder":
        arrow = round((body.width - top - 2 * gap) / 2)
        regions["clue_confirm"] = pygame.Rect(body.x + arrow + gap, rows[0].y, top, top)
        for name, x in (("clue_down", body.x), ("clue_up", body.right - arrow)):
            regions[name] = pygame.Rect(x, 0, arrow, min(high, round(top * 0.8)))
            regions[name].centery = rows[0].centery - top // 12
    else:
        third = (body.width - 2 * gap) // 3
        for index, name in enumerate(("clue_down", "clue_up", "clue_confirm")):
            regions[name] = pygame.Rect(body.x + index * (third + gap), rows[0].y, third, rows[0].height)
    half = (body.width - gap) // 2
    regions["undo"] = pygame.Rect(body.x, rows[1].y, half, rows[1].height)
    regions["new_game"] = pygame.Rect(body.right - half, rows[1].y, half, rows[1].height)
    help_button = pygame.Rect(0, 0, toggle.width, toggle.height)
    help_button.bottomright = (console.right - pad, console.bottom - (header - toggle.height) // 2)
    regions["toggle_help"] = help_button
    return Layout((width, height), scale, board, edge, timer_bar, turn_indicator, spymaster, screen, rim, console, regions)


def draw(surface: pygame.Surface, scene: SimScene, tr) -> dict[str, pygame.Rect]:
    """Draw the window for ``scene`` onto ``surface``; returns the clickable regions by name."""
    where = layout(surface.get_size(), scene.clue_input)
    surface.fill(BACKGROUND)
    _draw_table(surface, where, scene, tr)
    _draw_edge(surface, where, scene, tr)
    _draw_spymaster(surface, where, scene, tr)
    _draw_console(surface, where, scene, tr)
    if scene.help:
        draw_help(surface, where.scale, scene.clue_input, tr)
        _pill(surface, where.regions["toggle_help"], tr("sim.help_button", key=key_label(tr, TOGGLE_HELP)), where, True)
    return {name: rect.copy() for name, rect in where.regions.items()}


# --- light: what an LED's colour looks like on a screen


def light(rgb: Colour) -> tuple[Colour, float]:
    """An LED colour as (its hue at full brightness, how strongly it shines 0-1)."""
    peak = max(rgb)
    if peak == 0:
        return WHITE, 0.0
    hue = tuple(round(value * 255 / peak) for value in rgb)
    return hue, (peak / 255) ** 0.75  # type: ignore[return-value]


def luminance(colour: Colour) -> float:
    """Relative luminance (WCAG): what contrast between two colours is computed from."""
    channels = (value / 255 for value in colour)
    r, g, b = (value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4 for value in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG's contrast ratio, 1 (none) to 21 (black on white)."""
    lighter, darker = sorted((luminance(a), luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def text_colour(fill: Colour) -> Colour:
    """Light text, unless dark text stands out much better on ``fill`` (light reads better on colours)."""
    return DARK_TEXT if contrast(fill, DARK_TEXT) > 1.4 * contrast(fill, TEXT) else TEXT


def tile_fill(rgb: Colour) -> Colour:
    """A card lit from below: neutral dark when off, strongly tinted by a bright LED."""
    hue, strength = light(rgb)
    lit = mix(mix(hue, PAPER, 0.2), BLACK, 0.18)
    return mix(CARD, lit, strength)


def _glow(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, strength: float, spread: int, radius: int) -> None:
    """A soft halo of ``colour`` around ``rect`` (drawn beneath it)."""
    if strength < 0.2 or spread < 2:
        return
    halo = pygame.Surface((rect.width + 2 * spread, rect.height + 2 * spread), pygame.SRCALPHA)
    steps = max(3, spread // 2)
    for step in range(steps):  # the outermost ring first: inner rings overwrite with more alpha
        grow = round(spread * (1 - step / steps))
        ring = pygame.Rect(spread, spread, rect.width, rect.height).inflate(2 * grow, 2 * grow)
        alpha = round(170 * strength * ((step + 1) / steps) ** 2)
        pygame.draw.rect(halo, (*colour, alpha), ring, border_radius=radius + grow)
    surface.blit(halo, (rect.x - spread, rect.y - spread))


def _gradient(surface: pygame.Surface, rect: pygame.Rect, top: Colour, bottom: Colour, radius: int) -> None:
    """A rounded rectangle shading from ``top`` to ``bottom``."""
    card = pygame.Surface(rect.size, pygame.SRCALPHA)
    for y in range(rect.height):
        pygame.draw.line(card, mix(top, bottom, y / max(1, rect.height - 1)), (0, y), (rect.width, y))
    mask = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    card.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(card, rect)


# --- the table


def _draw_table(surface: pygame.Surface, where: Layout, scene: SimScene, tr) -> None:
    _slab(surface, where.board, where)
    tiles = [where.regions[f"tile:{tile}"] for tile in range(25)]
    # The operatives' coordinates: rows A-E on the left, columns 1-5 above.
    size = min(where.font_size(26), round(tiles[0].height * 0.4))
    gutter = round(size * 1.4)
    for index in range(5):
        row, column = tiles[5 * index], tiles[index]
        x = row.x - gutter - round(4 * where.scale)
        fit("ABCDE"[index], size, gutter, size).draw(surface, x, row.centery - size // 3, CAPTION, gutter, "center")
        number = fit(str(index + 1), size, column.width, size)
        number.draw(surface, column.x, column.y - round(size * 1.05), CAPTION, column.width, "center")
    card_radius = max(3, tiles[0].height // 10)
    spread = max(2, round(11 * where.scale * 0.8))
    for rect, rgb in zip(tiles, scene.tiles):
        hue, strength = light(rgb)
        _glow(surface, rect, hue, strength, spread, card_radius)
    for rect, rgb, word in zip(tiles, scene.tiles, scene.words):
        _draw_tile(surface, rect, word, rgb, card_radius, where)
    if not scene.board_connected:
        _banner(surface, where, tr("display.board_disconnected"))


def _draw_tile(surface: pygame.Surface, rect: pygame.Rect, word: str, rgb: Colour, radius: int, where: Layout) -> None:
    strength = light(rgb)[1]
    fill = tile_fill(rgb)
    _gradient(surface, rect, mix(fill, WHITE, 0.09), mix(fill, BLACK, 0.12), radius)
    edge = mix(fill, WHITE, 0.45) if strength > 0.2 else mix(CARD, WHITE, 0.16)
    pygame.draw.rect(surface, edge, rect, width=max(1, round(2 * where.scale)), border_radius=radius)
    text = text_colour(fill)
    inset = max(3, rect.height // 9)
    frame = rect.inflate(-2 * inset, -2 * inset)
    pygame.draw.rect(surface, mix(fill, text, 0.2), frame, width=1, border_radius=max(2, radius - inset // 2))
    face = fit_word(word.upper(), round(rect.height * 0.33), frame.width - 2 * inset, max(9, round(rect.height * 0.15)))
    face.draw(surface, frame.x, rect.centery - face.height // 2 + 1, text, frame.width, "center")


def _banner(surface: pygame.Surface, where: Layout, message: str) -> None:
    veil = pygame.Surface(where.board.size, pygame.SRCALPHA)
    pygame.draw.rect(veil, (0, 0, 0, 150), veil.get_rect(), border_radius=where.radius)
    surface.blit(veil, where.board)
    band = pygame.Rect(where.board.x, 0, where.board.width, round(where.board.height * 0.16))
    band.centery = where.board.centery
    pygame.draw.rect(surface, WARNING, band)
    text = fit(message, round(band.height * 0.5), band.width - band.height, where.font_size(14))
    text.draw(surface, band.x, band.centery - text.height // 2, DARK_TEXT, band.width, "center")


# --- the table's edge: the sand timer and the status LEDs


def _draw_edge(surface: pygame.Surface, where: Layout, scene: SimScene, tr) -> None:
    _slab(surface, where.edge, where)
    for name in ("sand_timer", "end_turn"):
        _button(surface, where, name, tr, name in scene.pressed, round_=name == "sand_timer")
    for rect, caption, colours in (
        (where.timer_bar, tr("sim.timer_bar"), scene.timer_leds),
        (where.turn_indicator, tr("sim.turn"), scene.turn_leds),
    ):
        size = where.font_size(19)
        label = fit(caption, size, rect.width, size)
        label.draw(surface, rect.x, rect.y + round(rect.height * 0.16), CAPTION, rect.width, "center")
        row = pygame.Rect(rect.x, rect.y + round(rect.height * 0.16) + label.height, rect.width, 0)
        row.height = rect.bottom - row.y - round(rect.height * 0.12)
        draw_leds(surface, row, colours)


def led_spots(rect: pygame.Rect, count: int) -> list[tuple[tuple[int, int], int]]:
    """Centres and radius of ``count`` round LEDs spread evenly along ``rect``."""
    if count <= 0:
        return []
    pitch = rect.width / count
    radius = max(2, round(min(pitch * 0.32, rect.height * 0.3)))
    return [((round(rect.x + pitch * (index + 0.5)), rect.centery), radius) for index in range(count)]


def draw_leds(surface: pygame.Surface, rect: pygame.Rect, colours) -> None:
    spots = led_spots(rect, len(colours))
    for (centre, radius), rgb in zip(spots, colours):
        pygame.draw.circle(surface, BEZEL, centre, round(radius * 1.3))
    for (centre, radius), rgb in zip(spots, colours):
        hue, strength = light(rgb)
        if strength > 0.2:
            halo = round(radius * 2.1)
            glow = pygame.Surface((2 * halo, 2 * halo), pygame.SRCALPHA)
            for step in range(6):
                alpha = round(60 * strength * (step + 1) / 6)
                pygame.draw.circle(glow, (*hue, alpha), (halo, halo), halo - step * (halo - radius) // 6)
            surface.blit(glow, (centre[0] - halo, centre[1] - halo))
    for (centre, radius), rgb in zip(spots, colours):
        hue, strength = light(rgb)
        dot = mix(LED_OFF, hue, strength)
        pygame.draw.circle(surface, dot, centre, radius)
        shine = (centre[0] - radius // 3, centre[1] - radius // 3)
        pygame.draw.circle(surface, mix(dot, WHITE, 0.45 if strength > 0.2 else 0.12), shine, max(1, radius // 3))


# --- buttons


def _button(surface: pygame.Surface, where: Layout, name: str, tr, pressed: bool, *, round_=False, sub=None, icon=None) -> None:
    """A physical button with its label and keyboard shortcut; pushed in while pressed."""
    rect, colour = where.regions[name], BUTTON_COLOURS[name]
    depth = max(2, round(rect.height * 0.07))
    side, face_colour = mix(colour, BLACK, 0.55), mix(colour, BLACK, 0.22) if pressed else colour
    text = text_colour(colour)
    if round_:
        centre, radius = rect.center, rect.width // 2
        pygame.draw.circle(surface, BEZEL, centre, radius)
        face_radius = radius - max(3, round(radius * 0.12))
        top = (centre[0], centre[1] - depth // 2 + (depth if pressed else 0))
        pygame.draw.circle(surface, side, (centre[0], centre[1] + depth // 2), face_radius)
        pygame.draw.circle(surface, face_colour, top, face_radius)
        if not pressed:
            pygame.draw.circle(surface, mix(face_colour, WHITE, 0.3), top, face_radius, width=max(1, depth // 2))
        face = pygame.Rect(0, 0, round(face_radius * 1.45), round(face_radius * 1.3))
        face.center = top
    else:
        radius = max(3, rect.height // 7)
        pygame.draw.rect(surface, side, rect, border_radius=radius)
        face = pygame.Rect(rect.x, rect.y + (depth if pressed else 0), rect.width, rect.height - depth)
        pygame.draw.rect(surface, face_colour, face, border_radius=radius)
        if not pressed:
            shine = mix(face_colour, WHITE, 0.18)  # the lit top edge of a button that is up
            pygame.draw.line(surface, shine, (face.x + radius, face.y + 1), (face.right - radius, face.y + 1), max(1, depth // 2))
        face = face.inflate(-round(face.width * 0.1), -round(face.height * 0.14))
    _label(surface, face, tr(f"sim.{name}"), sub, key_label(tr, SHORTCUTS[name]), text, icon or _ICONS.get(name), where)


def _label(surface, face: pygame.Rect, label: str, sub: str | None, key: str, colour: Colour, icon, where: Layout) -> None:
    """Icon, label, a small second line and the shortcut's key cap, stacked in the middle of ``face``."""
    size = max(10, min(round(face.height * 0.36), where.font_size(30)))
    while True:  # the biggest size at which everything fits the face
        title = fit(label, size, face.width, max(9, size * 2 // 3), max_lines=2)
        small = max(10, round(size * 0.7))
        second = fit(sub, small, face.width, 9) if sub else None
        cap = fit(key, small, face.width - 8, 9)
        icon_height = round(size * 0.7) if icon else 0
        total = icon_height + title.height + (second.height if second else 0) + cap.height + 12
        if total <= face.height or size <= 10:
            break
        size -= 1
    y = face.centery - total // 2
    if icon:
        pygame.draw.polygon(surface, colour, _triangle(icon, face.centerx, y + icon_height // 2, icon_height))
        y += icon_height + 2
    y = title.draw(surface, face.x, y, colour, face.width, "center") + 2
    if second:
        y = second.draw(surface, face.x, y, mix(colour, BLACK, 0.2) if colour == TEXT else colour, face.width, "center") + 2
    _key_cap(surface, cap, face.centerx - (cap.width + 10) // 2, y, colour)


def _key_cap(surface: pygame.Surface, text, x: int, y: int, colour: Colour) -> None:
    """A keyboard key's name in a small outlined box with its top left at (x, y)."""
    box = pygame.Rect(x, y, text.width + 10, text.height + 4)
    edge = mix(colour, BLACK, 0.5) if colour == TEXT else mix(colour, WHITE, 0.5)
    pygame.draw.rect(surface, edge, box, width=1, border_radius=4)
    text.draw(surface, box.x, box.y + 3, colour, box.width, "center")


def _triangle(direction: str, x: int, y: int, size: int) -> list[tuple[int, int]]:
    """A triangle pointing ``direction`` (up, down, left, right) centred on (x, y)."""
    half = size // 2
    if direction in ("up", "down"):
        sign = -1 if direction == "up" else 1
        return [(x, y + sign * half), (x - size, y - sign * half), (x + size, y - sign * half)]
    sign, tip = (-1 if direction == "left" else 1), round(size * 0.6)
    return [(x + sign * tip, y), (x - sign * tip, y - half), (x - sign * tip, y + half)]


def _slab(surface: pygame.Surface, rect: pygame.Rect, where: Layout) -> None:
    pygame.draw.rect(surface, SLAB, rect, border_radius=where.radius)
    pygame.draw.rect(surface, SLAB_EDGE, rect, width=1, border_radius=where.radius)


def _pill(surface: pygame.Surface, rect: pygame.Rect, label: str, where: Layout, on: bool = False) -> None:
    """A small on-screen control (not a button of the table)."""
    pygame.draw.rect(surface, (70, 78, 96) if on else (44, 50, 62), rect, border_radius=rect.height // 2)
    pygame.draw.rect(surface, SLAB_EDGE if not on else CAPTION, rect, width=1, border_radius=rect.height // 2)
    text = fit(label, round(rect.height * 0.68), rect.width - rect.height // 2, 10)
    text.draw(surface, rect.x, rect.centery - text.height // 2 + 1, TEXT, rect.width, "center")


# --- the spymasters' corner


def _draw_spymaster(surface: pygame.Surface, where: Layout, scene: SimScene, tr) -> None:
    screen, rim = where.screen, where.rim
    _slab(surface, where.spymaster, where)
    toggle = where.regions["toggle_spymaster"]
    size = where.font_size(18)
    caption = fit(tr("sim.spymaster_display").upper(), size, toggle.x - screen.x - 8, 9)
    caption.draw(surface, screen.x - rim, toggle.centery - caption.height // 2 + 1, CAPTION)
    key = key_label(tr, TOGGLE_SPYMASTER)
    shown = scene.spymaster is not None
    _pill(surface, toggle, tr("sim.hide" if shown else "sim.show", key=key), where)
    if not shown:
        _draw_hood(surface, screen.inflate(2 * rim, 2 * rim), key, where, tr)
        return
    image: pygame.Surface = scene.spymaster  # type: ignore[assignment]
    width, height = image.get_size()
    factor = min(screen.width / width, screen.height / height)
    fitted = pygame.Rect(0, 0, max(1, round(width * factor)), max(1, round(height * factor)))
    fitted.center = screen.center
    pygame.draw.rect(surface, BEZEL, fitted.inflate(2 * rim, 2 * rim), border_radius=rim)
    pygame.draw.rect(surface, (40, 42, 48), fitted.inflate(2 * rim, 2 * rim), width=1, border_radius=rim)
    if image.get_bitsize() < 24:  # smoothscale takes 24 and 32 bit surfaces only
        plain = pygame.Surface((width, height))
        plain.blit(image, (0, 0))
        image = plain
    surface.blit(pygame.transform.smoothscale(image, fitted.size), fitted)


def _draw_hood(surface: pygame.Surface, rect: pygame.Rect, key: str, where: Layout, tr) -> None:
    """The closed hood: the display is there, but the operatives cannot see it."""
    radius = max(4, round(12 * where.scale))
    pygame.draw.rect(surface, HOOD, rect, border_radius=radius)
    folds = max(6, round(28 * where.scale))
    for x in range(rect.x + folds, rect.right - folds // 2, folds):  # the fabric's folds
        pygame.draw.line(surface, mix(HOOD, BLACK, 0.35), (x, rect.y + radius), (x, rect.bottom - radius), 2)
        pygame.draw.line(surface, mix(HOOD, WHITE, 0.06), (x + 2, rect.y + radius), (x + 2, rect.bottom - radius), 1)
    pygame.draw.rect(surface, mix(HOOD, WHITE, 0.2), rect, width=max(2, round(3 * where.scale)), border_radius=radius)
    card = rect.inflate(-round(rect.width * 0.16), -round(rect.height * 0.3))
    pygame.draw.rect(surface, mix(HOOD, BLACK, 0.4), card, border_radius=radius)
    eye = pygame.Rect(0, 0, round(card.height * 0.42), round(card.height * 0.22))
    eye.midtop = (card.centerx, card.y + round(card.height * 0.1))
    pygame.draw.ellipse(surface, CAPTION, eye, width=max(2, round(3 * where.scale)))
    pygame.draw.circle(surface, CAPTION, eye.center, max(2, eye.height // 4))
    pygame.draw.line(surface, CAPTION, eye.bottomleft, eye.topright, max(2, round(3 * where.scale)))
    size = where.font_size(22)
    title = fit(tr("sim.hidden"), size, card.width - 16, 9, max_lines=2)
    y = title.draw(surface, card.x, eye.bottom + round(card.height * 0.08), TEXT, card.width, "center")
    hint = fit(tr("sim.hidden_hint", key=key), where.font_size(16), card.width - 16, 9, max_lines=2)
    hint.draw(surface, card.x, y + 4, CAPTION, card.width, "center")


def _draw_console(surface: pygame.Surface, where: Layout, scene: SimScene, tr) -> None:
    _slab(surface, where.console, where)
    size = where.font_size(18)
    caption = fit(tr("sim.spymaster_panel").upper(), size, where.console.width - 20, 9)
    caption.draw(surface, where.screen.x - where.rim, where.console.y + round(size * 0.7), CAPTION)
    if scene.clue_input == "encoder":
        _draw_knob(surface, where, scene, tr)
        for name, icon in (("clue_down", "left"), ("clue_up", "right")):
            _button(surface, where, name, tr, name in scene.pressed, icon=icon)
    else:
        for name in ("clue_down", "clue_up", "clue_confirm"):
            _button(surface, where, name, tr, name in scene.pressed)
    _button(surface, where, "undo", tr, "undo" in scene.pressed)
    _button(surface, where, "new_game", tr, "new_game" in scene.pressed, sub=tr("sim.hold"))
    toggle = where.regions["toggle_help"]
    hint = fit(tr("sim.hint"), where.font_size(17), toggle.x - where.screen.x, 10)
    hint.draw(surface, where.screen.x - where.rim, toggle.centery - hint.height // 2 + 1, CAPTION)
    if not scene.help:
        _pill(surface, where.regions["toggle_help"], tr("sim.help_button", key=key_label(tr, TOGGLE_HELP)), where)


def _draw_knob(surface: pygame.Surface, where: Layout, scene: SimScene, tr) -> None:
    """The rotary encoder: turned by the arrows beside it, pushed to confirm."""
    rect = where.regions["clue_confirm"]
    pressed = "clue_confirm" in scene.pressed
    size = where.font_size(17)
    caption = fit(tr("sim.clue_confirm"), size, rect.width, 10)
    radius = (rect.height - caption.height - 6) // 2
    pygame.draw.circle(surface, BEZEL, (rect.centerx, rect.y + radius), radius)
    knob = radius - max(3, radius // 9) - (max(1, radius // 25) if pressed else 0)
    centre = (rect.centerx, rect.y + radius + (max(2, radius // 20) if pressed else 0))
    body = (64, 68, 78) if pressed else (84, 90, 104)
    pygame.draw.circle(surface, body, centre, knob)
    for notch in range(40):  # the knurled grip
        angle = 2 * math.pi * notch / 40
        cos, sin = math.cos(angle), math.sin(angle)
        inner, outer = (centre[0] + knob * 0.86 * cos, centre[1] + knob * 0.86 * sin), (centre[0] + knob * cos, centre[1] + knob * sin)
        pygame.draw.line(surface, mix(body, BLACK, 0.45), inner, outer, 2)
    cap = mix(body, WHITE, 0.12)
    pygame.draw.circle(surface, cap, centre, round(knob * 0.8))
    pygame.draw.circle(surface, mix(cap, WHITE, 0.25), centre, round(knob * 0.8), width=max(1, round(knob * 0.03)))
    # The pointer turns while an arrow is held, so a held key shows on the knob.
    angle = -math.pi / 2 + (-0.5 if "clue_down" in scene.pressed else 0.5 if "clue_up" in scene.pressed else 0.0)
    inner = (centre[0] + knob * 0.3 * math.cos(angle), centre[1] + knob * 0.3 * math.sin(angle))
    tip = (centre[0] + knob * 0.72 * math.cos(angle), centre[1] + knob * 0.72 * math.sin(angle))
    pygame.draw.line(surface, WARNING, inner, tip, max(3, round(knob * 0.09)))
    cap_text = fit(key_label(tr, SHORTCUTS["clue_confirm"]), round(size * 0.85), rect.width // 2, 10)
    x = rect.centerx - (caption.width + 6 + cap_text.width + 10) // 2
    caption.draw(surface, x, rect.bottom - caption.height, TEXT)
    _key_cap(surface, cap_text, x + caption.width + 6, rect.bottom - caption.height - 2, TEXT)
