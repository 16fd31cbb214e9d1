"""The spymaster display's status panel: a stack of blocks beside the key.

Top down: tile board warning, whose turn (muted icon), the phase, a question
waiting for confirm, the outcome or the clue, the sand timer, the pairing card
(see :mod:`.pairing`), the agents left; the latest notices sit at the bottom.
Each block measures its text for the panel's width first; when the panel is
too short the least important blocks are left out (see MUST_READ ... SAID_TWICE),
so nothing is ever drawn over something else. What a player must read (a
question, the notices, the outcome, the board warning) is never left out nor
cut: if it alone is too tall, the panel's text is set smaller, down to the
layout's floor size. Each block keeps the ``Text``s it laid out, so whether any
was cut can be checked.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

import pygame

from ..console import describe_action
from ..evening import tally_lines
from ..engine import UNLIMITED, Game, Phase, Reason, Team
from ..ui import Confirm, SandTimer, TimerMode, UiState
from .layout import (
    BACKGROUND,
    CONFIRM,
    DIM_TEXT,
    EXPIRED,
    NEUTRAL,
    SAND,
    TEAM_COLOURS,
    TEXT,
    WARNING,
    WARNING_TEXT,
    WHITE,
    ELLIPSIS,
    Layout,
    Text,
    cap,
    fit,
    mix,
)
from .icons import draw_arrow, draw_infinity, draw_muted_icon, draw_warning_icon
from .pairing import pin_card, small_card, unpair_question
from .tally import hint_block, tally_block

Translate = Callable[..., str]


# When the panel is short of room the highest number gives way first; MUST_READ never does.
MUST_READ = 0  # the tile board warning, whose turn, a question, the outcome, the notices
PHASE = 1  # what to do now: the clue dial or guesses left, a prompt nothing else says
TIMER = 2  # the sand timer; the pairing card
AGENTS = 3  # the agents left (the key shows them too)
SAID_TWICE = 4  # the prompt, when the clue block says the same

NOTICE_LINES = 5  # a notice wraps onto as many lines before its text shrinks


@dataclass
class _Block:
    priority: int  # see MUST_READ ... SAID_TWICE
    height: int
    draw: Callable[[pygame.Surface, pygame.Rect], None]
    bottom: bool = False  # stacked from the panel's bottom up
    texts: tuple[Text, ...] = ()  # what it says, as laid out: whether any of it was cut shows here


def draw_panel(surface: pygame.Surface, where: Layout, game: Game, ui: UiState, tr: Translate) -> None:
    for _, rect, block in arrange(where, game, ui, tr):
        block.draw(surface, rect)


def arrange(where: Layout, game: Game, ui: UiState, tr: Translate) -> list[tuple[str, pygame.Rect, _Block]]:
    """The blocks the panel shows, by name, with where each goes; the least important ones left out if need be.

    When even what must be read (MUST_READ) is too tall for the panel, the panel's text is set a
    step smaller, down to the layout's floor size, rather than anything of it being lost.
    """
    for step in _smaller(where):
        blocks, fits = _chosen(step, game, ui, tr)
        if fits:
            break
    return _placed(step, blocks)


def _smaller(where: Layout):
    """The layout, then the panel's font sizes a tenth smaller at a time, until all are at the floor."""
    yield where
    for tenths in range(9, 0, -1):
        sizes = {role: max(where.min_size, size * tenths // 10) for role, size in where.sizes.items()}
        yield dataclasses.replace(where, sizes=sizes)
        if all(size == where.min_size for size in sizes.values()):
            return


def _chosen(where: Layout, game: Game, ui: UiState, tr: Translate) -> tuple[list[tuple[str, _Block]], bool]:
    """The blocks that fit, in their order, and whether all that must be read is among them."""
    room, gap = where.panel[3], where.gap
    found = _panel_blocks(where, where.panel[2], game, ui, tr)

    def height(entries: list[tuple[str, _Block]]) -> int:
        return sum(block.height for _, block in entries) + gap * (len(entries) - 1)

    blocks = list(found)
    while height(blocks) > room:
        droppable = [entry for entry in blocks if entry[1].priority > MUST_READ]
        if not droppable:
            return blocks, False  # only what must be read is left, and it is still too tall
        blocks.remove(max(reversed(droppable), key=lambda entry: entry[1].priority))
    # A small block left out early may fit again once a bigger one went (the prompt, when the clue
    # block that says the same did not fit): the most important first, each in its place.
    for entry in sorted((entry for entry in found if entry not in blocks), key=lambda entry: entry[1].priority):
        candidate = [other for other in found if other in blocks or other is entry]
        if height(candidate) <= room:
            blocks = candidate
    return blocks, True


def _placed(where: Layout, blocks: list[tuple[str, _Block]]) -> list[tuple[str, pygame.Rect, _Block]]:
    panel, gap = pygame.Rect(where.panel), where.gap
    placed = []
    top, bottom = panel.top, panel.bottom
    for name, block in blocks:
        if not block.bottom:
            placed.append((name, pygame.Rect(panel.left, top, panel.width, block.height), block))
            top += block.height + gap
    for name, block in reversed([entry for entry in blocks if entry[1].bottom]):
        bottom -= block.height
        placed.append((name, pygame.Rect(panel.left, bottom, panel.width, block.height), block))
        bottom -= gap
    return placed


def _panel_blocks(where: Layout, width: int, game: Game, ui: UiState, tr: Translate) -> list[tuple[str, _Block]]:
    found: list[tuple[str, _Block | None]] = []
    if not ui.board_connected:
        found.append(("disconnected", _disconnected(where, width, tr)))
    found.append(("header", _header(where, width, game, ui, tr)))
    found.append(("prompt", _prompt(where, width, game, ui, tr)))
    if ui.confirm is Confirm.UNPAIR:
        question = unpair_question(where, width, ui.pairing, tr)
        found.append(("confirm", _Block(MUST_READ, question.height, question.draw, texts=question.texts)))
        card = pin_card(where, width, ui.pairing, tr) if ui.pairing is not None else None
        if card is not None:
            found.append(("pairing", _Block(MUST_READ, card.height, card.draw, texts=card.texts)))  # the new PIN
    elif ui.confirm is not None:
        found.append(("confirm", _confirm(where, width, game, ui, tr)))
    if game.outcome is not None:
        found.append(("outcome", _outcome(where, width, game, tr)))
        if ui.evening is not None:  # between games: tonight's score, before the agents left
            # The score gives way after the agents left (the new evening's question says it).
            height, draw, texts = tally_block(where, width, ui.evening, tr)
            found.append(("tally", _Block(PHASE, height, draw, texts=texts)))
            if ui.confirm is None:
                height, draw, texts = hint_block(where, width, tr)
                found.append(("tally_hint", _Block(SAID_TWICE, height, draw, texts=texts)))
    else:
        found.append(("clue", _clue(where, width, game, ui, tr)))
    if ui.timer is not None:
        found.append(("timer", _timer(where, width, ui.timer, tr)))
    if ui.notices:  # stacked from the bottom: where it stands in the list does not move it
        found.append(("notices", _notices(where, width, ui, tr)))
    if ui.pairing is not None and ui.confirm is None and not game.actions:
        # Pairing happens before the first clue: the card takes what room the header, the clue
        # dial, the timer and the notices leave; the prompt and the agents left give way to it.
        kept = [block for _, block in found if block is not None and block.priority <= TIMER]
        room = where.panel[3] - sum(block.height + where.gap for block in kept)
        card = small_card(where, width, room, ui.pairing, tr)
        if card is not None:
            found.append(("pairing", _Block(TIMER, card.height, card.draw, texts=card.texts)))
    found.append(("agents", _agents(where, width, game, tr)))
    return [(name, block) for name, block in found if block is not None]


def _pad(where: Layout) -> int:
    return where.pad


def _disconnected(where: Layout, width: int, tr: Translate) -> _Block:
    pad, sizes = _pad(where), where.sizes
    icon = round(sizes["medium"] * 0.75)
    text_width = width - 3 * pad - icon
    title = fit(tr("display.board_disconnected"), sizes["medium"], text_width, where.min_size, 2)
    hint = fit(tr("display.board_disconnected_hint"), sizes["small"], text_width, where.min_size, 2)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, WARNING, rect, border_radius=pad)
        draw_warning_icon(surface, pygame.Rect(rect.x + pad, rect.y + pad, icon, icon))
        x = rect.x + 2 * pad + icon
        hint.draw(surface, x, title.draw(surface, x, rect.y + pad, WARNING_TEXT), WARNING_TEXT)

    return _Block(MUST_READ, 2 * pad + title.height + hint.height, draw, texts=(title, hint))


def _header(where: Layout, width: int, game: Game, ui: UiState, tr: Translate) -> _Block:
    pad = _pad(where)
    if game.outcome is not None:
        text, colour = tr("display.game_over"), TEAM_COLOURS[game.outcome.winner]
    elif game.variant == "duo" and game.turn is game.shadow:
        text, colour = tr("display.turn_shadow", team=game.turn.value), TEAM_COLOURS[game.turn]
    else:
        text, colour = tr("display.turn", team=game.turn.value), TEAM_COLOURS[game.turn]
    icon = round(where.sizes["medium"] * 0.8) if ui.muted else 0
    title = fit(cap(text), where.sizes["large"], width - 2 * pad - (icon + pad if icon else 0), where.min_size)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, colour, rect, border_radius=pad)
        title.draw(surface, rect.x + pad, rect.y + pad, WHITE)
        if icon:
            box = pygame.Rect(rect.right - pad - icon, rect.centery - icon // 2, icon, icon)
            draw_muted_icon(surface, box, WHITE)

    return _Block(MUST_READ, title.height + 2 * pad, draw, texts=(title,))


def _prompt(where: Layout, width: int, game: Game, ui: UiState, tr: Translate) -> _Block | None:
    if game.phase is Phase.CLUE:
        text = tr("display.phase_clue") if ui.clue_entry else tr("display.phase_clue_free")
    elif game.phase is Phase.GUESS:
        text = tr("display.phase_guess")
    elif game.phase is Phase.COVER:
        text = tr("display.phase_cover_duo") if game.variant == "duo" else tr("display.phase_cover")
    else:
        return None
    lines = fit(text, where.sizes["small"], width, where.min_size, 3 if game.phase is Phase.COVER else 2)
    # The clue block below says much the same, so then the prompt gives way first.
    says_clue = game.phase is Phase.GUESS or (game.phase is Phase.CLUE and ui.clue_entry)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        lines.draw(surface, rect.x, rect.y, TEXT)

    return _Block(SAID_TWICE if says_clue else PHASE, lines.height, draw, texts=(lines,))


def _confirm(where: Layout, width: int, game: Game, ui: UiState, tr: Translate) -> _Block:
    confirm = ui.confirm
    pad, sizes, border = _pad(where), where.sizes, max(2, where.sizes["small"] // 8)
    inner = width - 2 * (pad + border)
    extra = None
    if confirm is Confirm.UNDO:
        if game.actions:
            question = tr("display.confirm_undo", action=describe_action(game.actions[-1], tr))
        else:
            question = cap(tr("error.nothing_to_undo"))
    elif confirm is Confirm.PENALTY:
        question = tr("display.confirm_penalty", team=game.turn.value)
    elif confirm is Confirm.NEW_EVENING:  # the score it resets is said in the question: never left out
        question = tr("evening.confirm_new")
        if ui.evening is not None:
            extra = fit("; ".join(tally_lines(ui.evening, tr)[1:]), sizes["small"], inner, where.min_size, 5)
    else:
        question = tr("display.confirm_new_game")
        if game.actions and not game.is_over:
            extra = fit(tr("display.confirm_unfinished"), sizes["small"], inner, where.min_size, 2)
    asked = fit(question, sizes["medium"], inner, where.min_size, 3)
    hint = fit(tr("display.press_confirm"), sizes["medium"], inner, where.min_size)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, mix(CONFIRM, BACKGROUND, 0.82), rect, border_radius=pad)
        pygame.draw.rect(surface, CONFIRM, rect, border, border_radius=pad)
        x = rect.x + pad + border
        y = asked.draw(surface, x, rect.y + pad + border, TEXT)
        if extra:
            y = extra.draw(surface, x, y, TEXT)
        hint.draw(surface, x, y, CONFIRM)

    height = 2 * (pad + border) + asked.height + hint.height + (extra.height if extra else 0)
    return _Block(MUST_READ, height, draw, texts=(asked, *([extra] if extra else []), hint))


def _outcome(where: Layout, width: int, game: Game, tr: Translate) -> _Block:
    outcome = game.outcome
    assert outcome is not None
    pad, sizes, border = _pad(where), where.sizes, max(2, where.sizes["small"] // 8)
    inner = width - 2 * (pad + border)
    score = None
    if game.variant == "duo" and outcome.winner is game.players:
        headline, title = tr("display.duo_win"), tr(f"duo.title_{outcome.score}")
        detail, score = tr("display.duo_score", score=outcome.score), str(outcome.score)
    elif game.variant == "duo":
        headline, title = tr("display.shadow_wins"), None
        assassin = outcome.reason is Reason.ASSASSIN
        detail = tr("display.reason_duo_assassin") if assassin else tr("display.reason_duo_shadow")
    else:
        headline, title = tr("display.wins", winner=outcome.winner.value), None
        if outcome.reason is Reason.ASSASSIN:
            detail = tr("display.reason_assassin", loser=outcome.winner.other.value)
        else:
            detail = tr("display.reason_agents")
    box = 0
    if score is not None:
        number = fit(score, sizes["huge"], inner, where.min_size)
        box = max(number.height, number.width + 2 * pad)
    column = inner - (box + pad if box else 0)
    head = fit(cap(headline), sizes["large"], column, where.min_size, 2)
    named = fit(title, sizes["medium"], column, where.min_size, 2) if title else None
    said = fit(detail, sizes["small"], inner, where.min_size, 3)
    top_height = max(box, head.height + (named.height if named else 0))
    colour = TEAM_COLOURS[outcome.winner]

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, mix(colour, BACKGROUND, 0.6), rect, border_radius=pad)
        pygame.draw.rect(surface, colour, rect, border, border_radius=pad)
        x, y = rect.x + pad + border, rect.y + pad + border
        if box:
            square = pygame.Rect(x, y, box, box)
            pygame.draw.rect(surface, colour, square, border_radius=pad)
            image = number.font.render(number.lines[0], True, WHITE)
            surface.blit(image, image.get_rect(center=square.center))
            x += box + pad
        below = head.draw(surface, x, y, WHITE)
        if named:
            named.draw(surface, x, below, CONFIRM)
        said.draw(surface, rect.x + pad + border, y + top_height + pad // 2, TEXT)

    texts = tuple(text for text in (number if box else None, head, named, said) if text is not None)
    return _Block(MUST_READ, 2 * (pad + border) + top_height + pad // 2 + said.height, draw, texts=texts)


def _clue(where: Layout, width: int, game: Game, ui: UiState, tr: Translate) -> _Block | None:
    pad, sizes = _pad(where), where.sizes
    if game.phase is Phase.GUESS:
        value, drafting = game.clue, False
        if game.guesses_left is None:
            detail = tr("display.guesses_unlimited", made=game.guesses_made)
        else:
            detail = tr("display.guesses_left", left=game.guesses_left)
    elif game.phase is Phase.CLUE and ui.clue_entry:
        value, drafting = ui.clue_draft, True
        # With a question on screen the confirm button answers it, not the clue.
        asking = ui.confirm is not None
        detail = tr("display.clue_dial") if value is None or asking else tr("display.clue_confirm")
    else:
        return None
    digits = fit("?" if value is None else "0" if value == UNLIMITED else str(value), sizes["huge"], width, where.min_size)
    glyph = digits.font.size(digits.lines[0])[0] * (2 if value == UNLIMITED else 1)
    high = digits.font.get_ascent()
    arrow = round(high * 0.7) if drafting and value is not None else 0
    question = digits.font.size("?")[0] if arrow else 0
    content = glyph + (question + arrow + pad if arrow else 0)
    box_height = high + 2 * pad
    box = max(box_height, content + 2 * pad)
    column = width - box - pad
    label = fit(tr("display.clue_label"), sizes["medium"], column, where.min_size)
    said = fit(detail, sizes["small"], column, where.min_size, 2)
    turn = TEAM_COLOURS[game.turn]
    waiting = drafting and value is not None and ui.confirm is None

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        square = pygame.Rect(rect.x, rect.y, box, box_height)
        pygame.draw.rect(surface, mix(turn, BACKGROUND, 0.7), square, border_radius=pad)
        pygame.draw.rect(surface, CONFIRM if waiting else turn, square, max(2, pad // 2), border_radius=pad)
        x = square.centerx - content // 2
        middle = square.centery
        if arrow:
            image = digits.font.render("?", True, DIM_TEXT)
            surface.blit(image, (x, middle - high // 2))
            x += question + pad // 2
            draw_arrow(surface, pygame.Rect(x, middle - arrow // 3, arrow, arrow * 2 // 3), DIM_TEXT)
            x += arrow + pad // 2
        ink = CONFIRM if waiting else WHITE if not drafting else DIM_TEXT
        if value == UNLIMITED:
            draw_infinity(surface, pygame.Rect(x, middle - high * 3 // 10, glyph, high * 3 // 5), ink)
        else:
            image = digits.font.render(digits.lines[0], True, ink)
            surface.blit(image, (x, middle - high // 2))
        y = label.draw(surface, square.right + pad, rect.y, TEXT)
        said.draw(surface, square.right + pad, y, CONFIRM if waiting else TEXT)

    return _Block(PHASE, max(box_height, label.height + said.height), draw, texts=(digits, label, said))


def _timer(where: Layout, width: int, timer: SandTimer, tr: Translate) -> _Block:
    pad, sizes = _pad(where), where.sizes
    label = tr("display.timer_strict") if timer.mode is TimerMode.STRICT else tr("display.timer_advisory")
    if timer.expired:
        shown = fit(tr("display.timer_expired"), sizes["medium"], width * 2 // 3, where.min_size)
    else:
        minutes, seconds = divmod(math.ceil(timer.left), 60)
        shown = fit(f"{minutes}:{seconds:02d}", sizes["medium"], width // 2, where.min_size)
    named = fit(label, sizes["small"], width - shown.width - pad, where.min_size)
    if named.lines[0].endswith(ELLIPSIS):  # no room beside "time is up": the bar says enough
        named = Text(named.size, ("",))
    row = max(named.height, shown.height)
    bar_height = max(6, round(sizes["small"] * 0.5))

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        named.draw(surface, rect.x, rect.y + row - named.height, DIM_TEXT)
        shown.draw(surface, rect.x, rect.y, EXPIRED if timer.expired else TEXT, rect.width, "right")
        bar = pygame.Rect(rect.x, rect.y + row + pad // 2, rect.width, bar_height)
        if timer.expired:
            pygame.draw.rect(surface, EXPIRED, bar, border_radius=bar_height // 2)
            return
        pygame.draw.rect(surface, NEUTRAL, bar, border_radius=bar_height // 2)
        sand = bar.copy()
        sand.width = round(bar.width * timer.fraction)
        if sand.width:
            pygame.draw.rect(surface, SAND, sand, border_radius=bar_height // 2)
        if timer.mode is TimerMode.STRICT:  # strict: the end of the bar is a wall
            pygame.draw.rect(surface, EXPIRED, (bar.right - bar_height // 2, bar.y, bar_height // 2, bar_height))

    return _Block(TIMER, row + pad // 2 + bar_height, draw, texts=(named, shown))


def _agents(where: Layout, width: int, game: Game, tr: Translate) -> _Block:
    pad, sizes = _pad(where), where.sizes
    caption = fit(tr("display.agents_left"), sizes["small"], width, where.min_size)
    chip_width = (width - pad) // 2
    chips = []
    for team in (Team.RED, Team.BLUE):
        if game.variant == "duo" and team is game.shadow:
            name = tr("display.shadow")
        else:
            name = tr(f"team.{team.value}")
        number = fit(str(game.remaining(team)), sizes["large"], chip_width // 2, where.min_size)
        chips.append((team, fit(cap(name), sizes["small"], chip_width - number.width - 3 * pad, where.min_size), number))
    chip_height = max(number.height for _, _, number in chips) + pad

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        y = caption.draw(surface, rect.x, rect.y, DIM_TEXT)
        for index, (team, name, number) in enumerate(chips):
            chip = pygame.Rect(rect.x + index * (chip_width + pad), y, chip_width, chip_height)
            pygame.draw.rect(surface, TEAM_COLOURS[team], chip, border_radius=pad)
            name.draw(surface, chip.x + pad, chip.centery - name.height // 2, WHITE)
            number.draw(surface, chip.x, chip.centery - number.height // 2, WHITE, chip.width - pad, "right")

    texts = (caption, *(text for _, name, number in chips for text in (name, number)))
    return _Block(AGENTS, caption.height + chip_height, draw, texts=texts)


def _notices(where: Layout, width: int, ui: UiState, tr: Translate) -> _Block:
    # The two newest, each whole: a refusal says why in a sentence, and a cut sentence says nothing.
    texts = [fit(cap(notice.text(tr)), where.sizes["small"], width, where.min_size, NOTICE_LINES) for notice in ui.notices[-2:]]
    rule = max(1, where.gap // 3)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, NEUTRAL, (rect.x, rect.y, rect.width, rule))
        y = rect.y + 2 * rule
        for index, text in enumerate(texts):
            y = text.draw(surface, rect.x, y, TEXT if index == len(texts) - 1 else DIM_TEXT) + 2 * rule

    height = 2 * rule * len(texts) + sum(text.height for text in texts)  # a little space above each
    return _Block(MUST_READ, height, draw, bottom=True, texts=tuple(texts))
