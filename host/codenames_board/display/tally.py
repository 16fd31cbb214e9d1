"""Tonight's score on the hooded display, between games: the teams by tonight's names in their colours,
the games won, the duo's best score and streak, and how to begin a new evening."""

from __future__ import annotations

from typing import Callable

import pygame

from ..engine import Team
from ..evening import Tally, team_name
from .layout import DIM_TEXT, NEUTRAL, TEAM_COLOURS, TEXT, Layout, cap, fit, font

Translate = Callable[..., str]


def tally_block(where: Layout, width: int, tally: Tally, tr: Translate) -> tuple[int, Callable, tuple]:
    """The block's height, its drawing and the texts it laid out: a caption, the score line, the duo's line."""
    pad, sizes = where.pad, where.sizes
    caption = fit(cap(tr("evening.tonight")), sizes["small"], width, where.min_size)
    red, blue = team_name(tally, Team.RED, tr), team_name(tally, Team.BLUE, tr)
    score = f" {tally.wins[0]} : {tally.wins[1]} "
    size = sizes["medium"]
    while size > sizes["small"] and font(size).size(red + score + blue)[0] > width:  # then names are cut, not the digits shrunk
        size -= 1
    names = [fit(red, size, (width - font(size).size(score)[0]) // 2, size),
             fit(blue, size, (width - font(size).size(score)[0]) // 2, size)]
    classic = bool(sum(tally.wins)) or not tally.duo_played  # as tally_lines: no 0 : 0 on a duo-only evening
    if tally.duo_won:
        duo = tr("evening.duo", played=tally.duo_played, won=tally.duo_won, best=tally.duo_best, streak=tally.duo_streak)
    elif tally.duo_played:
        duo = tr("evening.duo_none", played=tally.duo_played)
    else:
        duo = None
    duo_text = fit(duo, sizes["small"], width, where.min_size, 3) if duo else None
    line = font(size).get_linesize() if classic else 0
    rule = max(1, where.gap // 3)
    wide = font(size).size(names[0].lines[0] + score + names[1].lines[0])[0]
    inline = classic and caption.width + pad + wide <= width  # "TONIGHT  Owls 3 : 2 Foxes" on one line
    height = rule + pad // 2 + (max(caption.height, line) if inline else caption.height + line) + (duo_text.height if duo_text else 0)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, NEUTRAL, (rect.x, rect.y, rect.width, rule))
        top = rect.y + rule + pad // 2
        y = top if inline else caption.draw(surface, rect.x, top, DIM_TEXT)
        if inline:
            caption.draw(surface, rect.x, top + (line - caption.height) // 2, DIM_TEXT)
        if classic:
            face = font(size)
            x = rect.x + (caption.width + pad if inline else 0)
            for text, colour in ((names[0].lines[0], TEAM_COLOURS[Team.RED]), (score, TEXT), (names[1].lines[0], TEAM_COLOURS[Team.BLUE])):
                image = face.render(text, True, colour)
                surface.blit(image, (x, y))
                x += image.get_width()
            y += line
        if duo_text:
            duo_text.draw(surface, rect.x, y, TEXT)

    return height, draw, tuple(text for text in (caption, *names, duo_text) if text is not None)


def hint_block(where: Layout, width: int, tr: Translate) -> tuple[int, Callable, tuple]:
    """How to begin a new evening: the first thing to give way when room runs short."""
    hint = fit(tr("evening.display_hint"), where.sizes["small"], width, where.min_size, 2)
    return hint.height, lambda surface, rect: hint.draw(surface, rect.x, rect.y, DIM_TEXT), (hint,)
