"""Where things go on the spymaster display and how they look, from the surface size alone.

Landscape screens (the 320x240, 480x320 and 800x480 TFTs and HDMI panels)
put the key on the left and the status panel on the right; a portrait screen
stacks them. Font sizes scale with the screen so 320x240 and 800x480 show the
same picture, only sharper.

Text fits its box: pygame's default font (it ships inside pygame, so no font
files), shrunk down to a minimum size and then cut with an ellipsis. Fonts are
cached by size; that cache is the display's only global.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..engine import COLUMNS, ROWS, Identity, Team

Colour = tuple[int, int, int]

# The palette. Team colours match the tiles' LEDs as closely as a screen can.
BACKGROUND: Colour = (22, 24, 30)
TEXT: Colour = (236, 236, 236)
DIM_TEXT: Colour = (150, 156, 168)
WHITE: Colour = (255, 255, 255)
TEAM_COLOURS: dict[Team, Colour] = {Team.RED: (206, 44, 44), Team.BLUE: (38, 104, 214)}
IDENTITY_COLOURS: dict[Identity, Colour] = {
    Identity.RED: TEAM_COLOURS[Team.RED],
    Identity.BLUE: TEAM_COLOURS[Team.BLUE],
    Identity.BYSTANDER: (224, 203, 160),
    Identity.ASSASSIN: (4, 4, 4),  # darker than the background; the white edge and X make it unmistakable
}
ASSASSIN_EDGE: Colour = (245, 245, 245)
WARNING: Colour = (255, 184, 0)
WARNING_TEXT: Colour = (16, 16, 16)
CONFIRM: Colour = (255, 224, 70)
SAND: Colour = (232, 196, 104)
EXPIRED: Colour = (236, 48, 48)
NEUTRAL: Colour = (70, 74, 84)

# Font sizes (pygame's default font) at the smallest screen, 320x240; they scale with the screen.
_BASE_SIZES = {"small": 17, "medium": 21, "large": 28, "huge": 44}
ELLIPSIS = "…"
_FONTS: dict[int, pygame.font.Font] = {}


def mix(colour: Colour, other: Colour, amount: float) -> Colour:
    """``colour`` moved ``amount`` (0-1) of the way towards ``other``."""
    return tuple(round(a + (b - a) * amount) for a, b in zip(colour, other))  # type: ignore[return-value]


def cap(text: str) -> str:
    """The text with a capital first letter (team names are lower case in the catalogs)."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    margin: int
    gap: int  # between blocks of the panel
    frame: tuple[int, int, int, int]  # the start team's frame around the key, outer edge
    frame_width: int
    cells: tuple[tuple[int, int, int, int], ...]  # the 25 cells by screen position, row-major
    panel: tuple[int, int, int, int]
    sizes: dict[str, int]  # font sizes by role: small, medium, large, huge
    min_size: int  # text shrinks down to this size, then it is cut with an ellipsis

    @property
    def pad(self) -> int:
        """The space inside a box of the panel, around its text."""
        return max(3, round(self.sizes["small"] * 0.3))

    def cell_at(self, row: int, column: int) -> pygame.Rect:
        """The cell at a screen position (row 0 is the top of the screen)."""
        return pygame.Rect(self.cells[row * COLUMNS + column])

    def tile_rect(self, tile: int, rotate: bool = True) -> pygame.Rect:
        """Where a tile's cell is. Rotated, the spymasters see the grid from the other side of the table."""
        row, column = divmod(tile, COLUMNS)
        if rotate:
            row, column = ROWS - 1 - row, COLUMNS - 1 - column
        return self.cell_at(row, column)


def layout(size: tuple[int, int]) -> Layout:
    width, height = size
    margin = max(3, round(min(width, height) * 0.025))
    if width >= height * 1.15:
        side = max(40, min(height - 2 * margin, round(width * 0.5)))
        frame = pygame.Rect(margin, (height - side) // 2, side, side)
        panel = pygame.Rect(frame.right + margin + margin // 2, margin, 0, height - 2 * margin)
        panel.width = width - panel.x - margin
        scale = min(height / 240, width / 320) ** 0.85
    else:
        side = max(40, min(width - 2 * margin, round(height * 0.48)))
        frame = pygame.Rect((width - side) // 2, margin, side, side)
        panel = pygame.Rect(margin, frame.bottom + margin, width - 2 * margin, 0)
        panel.height = height - panel.y - margin
        scale = min(width / 240, height / 320) ** 0.85

    frame_width = max(3, round(side * 0.03))
    inner = frame.inflate(-2 * (frame_width + max(2, frame_width // 2)), -2 * (frame_width + max(2, frame_width // 2)))
    cell_gap = max(2, round(side * 0.014))
    cell = (min(inner.width, inner.height) - (COLUMNS - 1) * cell_gap) // COLUMNS
    grid = cell * COLUMNS + (COLUMNS - 1) * cell_gap
    left = inner.x + (inner.width - grid) // 2
    top = inner.y + (inner.height - grid) // 2
    cells = tuple(
        (left + column * (cell + cell_gap), top + row * (cell + cell_gap), cell, cell)
        for row in range(ROWS)
        for column in range(COLUMNS)
    )
    sizes = {role: max(10, round(base * scale)) for role, base in _BASE_SIZES.items()}
    return Layout(
        size=(width, height),
        margin=margin,
        gap=max(3, round(5 * scale)),
        frame=tuple(frame),
        frame_width=frame_width,
        cells=cells,
        panel=tuple(panel),
        sizes=sizes,
        min_size=max(12, round(14 * scale)),
    )


def tile_rect(size: tuple[int, int], tile: int, rotate: bool = True) -> pygame.Rect:
    """Where ``render`` draws a tile's cell on a surface of this size."""
    return layout(size).tile_rect(tile, rotate)


# --- text



def font(size: int) -> pygame.font.Font:
    cached = _FONTS.get(size)
    if cached is None:
        if not pygame.font.get_init():
            pygame.font.init()
        cached = _FONTS[size] = pygame.font.Font(None, size)
    return cached


@dataclass(frozen=True)
class Text:
    """Lines of text set in one font, ready to draw. ``cut``: the text did not fit even at the
    floor size, so its end gave way to an ellipsis (what a block built can be checked for it)."""

    size: int
    lines: tuple[str, ...]
    cut: bool = False

    @property
    def font(self) -> pygame.font.Font:
        return font(self.size)

    @property
    def line_height(self) -> int:
        return self.font.get_linesize()

    @property
    def height(self) -> int:
        """Down to the bottom of the last line's ink: a descender or an accent (Ä, Õ, "…") may reach
        below the font's line height, and the line under it is another block's."""
        if not self.lines:
            return 0
        return self.line_height * (len(self.lines) - 1) + max(self.line_height, self.font.size(self.lines[-1])[1])

    @property
    def width(self) -> int:
        return max((self.font.size(line)[0] for line in self.lines), default=0)

    def draw(self, surface: pygame.Surface, x: int, y: int, colour, width: int | None = None, align: str = "left") -> int:
        """Draw the lines from (x, y) down; returns the y below the last line."""
        for line in self.lines:
            image = self.font.render(line, True, colour)
            left = x
            if width is not None and align == "center":
                left = x + (width - image.get_width()) // 2
            elif width is not None and align == "right":
                left = x + width - image.get_width()
            surface.blit(image, (left, y))
            y += self.line_height
        return y


def _cut(face: pygame.font.Font, text: str, width: int) -> str:
    """The longest start of ``text`` that fits with an ellipsis after it."""
    if face.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.size(text[:middle].rstrip() + ELLIPSIS)[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


_BREAK_AFTER = "-_/."  # where a word too long for a line may break: a file name, an address


def _pieces(face: pygame.font.Font, word: str, width: int) -> list[str]:
    """A word wider than ``width`` broken after a ``_BREAK_AFTER`` character, each piece as long as
    fits (20250131-201503-classic-12.jsonl: 20250131-201503- classic-12.jsonl); a piece with no such
    place stays too wide and is cut."""
    pieces = []
    while face.size(word)[0] > width:
        places = [at + 1 for at, char in enumerate(word[:-1]) if char in _BREAK_AFTER]
        fitting = [at for at in places if face.size(word[:at])[0] <= width]
        if not fitting:
            break
        pieces.append(word[: fitting[-1]])
        word = word[fitting[-1] :]
    return pieces + [word]


def _wrap_words(face: pygame.font.Font, text: str, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            for index, piece in enumerate(_pieces(face, word, width)):
                candidate = (f"{line} {piece}" if index == 0 else line + piece) if line else piece
                if line and face.size(candidate)[0] > width:
                    lines.append(line)
                    line = piece
                else:
                    line = candidate
        lines.append(line)
    return lines


_VOWELS = set("aeiouyäöüåæøõáéíóúàèìòùâêîôû")


def fit_word(word: str, size: int, width: int, min_size: int) -> Text:
    """One word on one line, as big as fits from ``size``; if it fits only below ``size`` // 2 (or not
    at all), on two lines broken before a consonant that starts a syllable (STRASSENBAHN-HALTESTELLE
    is not cut to STRASSENBAHN…), hyphenated, when that is bigger; never below ``min_size``."""
    single = fit(word, size, width, min_size)
    if single.size >= size // 2 or len(word) < 6 or " " in word:
        return single
    best = single if single.font.size(single.lines[0])[0] <= width and not single.lines[0].endswith(ELLIPSIS) else None
    middle = len(word) / 2
    breaks = sorted(
        (at for at in range(3, len(word) - 2)  # before a consonant that starts a syllable: UMBREL-LA
         if word[at].lower() not in _VOWELS and word[at + 1].lower() in _VOWELS and word[at - 1].isalpha()),
        key=lambda at: abs(at - middle),
    ) or [round(middle)]
    for at in breaks[:3]:
        lines = (word[:at] + "-", word[at:])
        for candidate in range(size, min_size - 1, -1):
            face = font(candidate)
            if all(face.size(line)[0] <= width for line in lines):
                if best is None or candidate > best.size:
                    best = Text(candidate, lines)
                break
    return best or single


def fit(text: str, size: int, width: int, min_size: int, max_lines: int = 1) -> Text:
    """``text`` in at most ``max_lines`` lines of ``width`` pixels: the biggest size from
    ``size`` down to ``min_size`` that fits, else ``min_size`` with the rest cut off."""
    width = max(1, width)
    min_size = min(size, min_size)
    for candidate in range(size, min_size - 1, -1):
        face = font(candidate)
        lines = _wrap_words(face, text, width) if max_lines > 1 else [text]
        if len(lines) <= max_lines and all(face.size(line)[0] <= width for line in lines):
            return Text(candidate, tuple(lines))
    face = font(min_size)
    lines = _wrap_words(face, text, width) if max_lines > 1 else [text]
    kept = lines[:max_lines]
    if len(lines) > max_lines:
        kept[-1] = kept[-1] + " " + " ".join(lines[max_lines:])  # cut below shows where text is missing
    return Text(min_size, tuple(_cut(face, line, width) for line in kept), cut=True)
