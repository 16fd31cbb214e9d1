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
    """The block's height, its drawing and the texts it laid out: a caption, the score line, the duo's line,
    the hint."""
    pad, sizes = where.pad, where.sizes
    caption = fit(cap(tr("evening.tonight")), sizes["small"], width, where.min_size)
    red, blue = team_name(tally, Team.RED, tr), team_name(tally, Team.BLUE, tr)
    score = f" {tally.wins[0]} : {tally.wins[1]} "
    size = sizes["medium"]
    while size > where.min_size and font(size).size(red + score + blue)[0] > width:
        size -= 1
    names = [fit(red, size, (width - font(size).size(score)[0]) // 2, where.min_size),
             fit(blue, size, (width - font(size).size(score)[0]) // 2, where.min_size)]
    classic = bool(sum(tally.wins)) or not tally.duo_played  # as tally_lines: no 0 : 0 on a duo-only evening
    if tally.duo_won:
        duo = tr("evening.duo", played=tally.duo_played, won=tally.duo_won, best=tally.duo_best, streak=tally.duo_streak)
    elif tally.duo_played:
        duo = tr("evening.duo_none", played=tally.duo_played)
    else:
        duo = None
    duo_text = fit(duo, sizes["small"], width, where.min_size, 3) if duo else None
    hint = fit(tr("evening.display_hint"), sizes["small"], width, where.min_size, 2)
    line = font(size).get_linesize() if classic else 0
    rule = max(1, where.gap // 3)
    height = rule + pad // 2 + caption.height + line + (duo_text.height if duo_text else 0) + hint.height

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, NEUTRAL, (rect.x, rect.y, rect.width, rule))
        y = caption.draw(surface, rect.x, rect.y + rule + pad // 2, DIM_TEXT)
        if classic:
            face = font(size)
            x = rect.x
            for text, colour in ((names[0].lines[0], TEAM_COLOURS[Team.RED]), (score, TEXT), (names[1].lines[0], TEAM_COLOURS[Team.BLUE])):
                image = face.render(text, True, colour)
                surface.blit(image, (x, y))
                x += image.get_width()
            y += line
        if duo_text:
            y = duo_text.draw(surface, rect.x, y, TEXT)
        hint.draw(surface, rect.x, y, DIM_TEXT)

    return height, draw, tuple(text for text in (caption, *names, duo_text, hint) if text is not None)
