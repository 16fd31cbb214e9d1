"""The spymaster display: reference images at the three screen sizes, and what must hold whatever the pixels.

Reference images live in tests/display/reference/. A missing one is created
(and its test skipped: look at it before committing it). After a deliberate
change of the picture, regenerate them all and look at every one:

    UPDATE_REFERENCES=1 .venv/bin/python -m pytest tests/display -q -k reference

A failing comparison writes expected | actual | difference side by side into
the test's tmp directory and names the file in the assertion.
"""

from __future__ import annotations

import copy
import dataclasses
import operator
import os
from pathlib import Path

import pygame
import pytest

from codenames_board.display import layout, render, tile_rect
from codenames_board.display.layout import (
    ASSASSIN_EDGE,
    BACKGROUND,
    EXPIRED,
    IDENTITY_COLOURS,
    TEAM_COLOURS,
    WARNING,
)
from codenames_board.display.panel import arrange
from codenames_board.engine import Identity, Key, Phase, Team, new_game
from codenames_board.i18n import COMMAND_VARIABLE, Translator, catalog
from codenames_board.ui import Confirm, Notice, SandTimer, UiState

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("UPDATE_REFERENCES") == "1"
TOLERANCE = 2.0  # mean absolute difference per channel, 0-255


def rendered(game, ui, tr, size=(480, 320), **options) -> pygame.Surface:
    surface = pygame.Surface(size)
    render(surface, game, ui, tr, **options)
    return surface


def mean_difference(expected: pygame.Surface, actual: pygame.Surface) -> float:
    if expected.get_size() != actual.get_size():
        return 255.0
    a, b = pygame.image.tobytes(expected, "RGB"), pygame.image.tobytes(actual, "RGB")
    return sum(map(abs, map(operator.sub, a, b))) / len(a)


def side_by_side(expected: pygame.Surface, actual: pygame.Surface, path: Path) -> None:
    """expected | actual | their difference, brightened eightfold."""
    width, height = actual.get_size()
    if expected.get_size() != actual.get_size():
        expected = pygame.transform.scale(expected, (width, height))
    plain = pygame.Surface((width, height))  # the two in one pixel format, for the blend
    plain.blit(expected, (0, 0))
    expected = plain
    difference = expected.copy()
    difference.blit(actual, (0, 0), special_flags=pygame.BLEND_SUB)
    other_way = actual.copy()
    other_way.blit(expected, (0, 0), special_flags=pygame.BLEND_SUB)
    difference.blit(other_way, (0, 0), special_flags=pygame.BLEND_ADD)
    for _ in range(3):
        difference.blit(difference, (0, 0), special_flags=pygame.BLEND_ADD)
    sheet = pygame.Surface((3 * width + 8, height))
    sheet.fill((255, 0, 255))
    for index, image in enumerate((expected, actual, difference)):
        sheet.blit(image, (index * (width + 4), 0))
    pygame.image.save(sheet, str(path))


def test_screen_matches_its_reference_image(reference_name, size, state, tr, tmp_path):
    game, ui = state(reference_name)
    surface = rendered(game, ui, tr, size)
    path = REFERENCE / f"{reference_name}-{size[0]}x{size[1]}.png"
    if UPDATE or not path.exists():
        REFERENCE.mkdir(exist_ok=True)
        pygame.image.save(surface, str(path))
        if not UPDATE:
            pytest.skip(f"created {path}: look at it, then commit it")
        return
    expected = pygame.image.load(str(path))
    difference = mean_difference(expected, surface)
    if difference >= TOLERANCE:
        sheet = tmp_path / f"{path.stem}-expected-actual-difference.png"
        side_by_side(expected, surface, sheet)
        pytest.fail(f"{path.name}: the screen differs by {difference:.2f} per channel on average; see {sheet}")


# --- the key


def fill_point(rect: pygame.Rect) -> tuple[int, int]:
    """A point in a cell's fill: above its letter, inside its edge, off the assassin's X."""
    return rect.centerx, rect.top + round(rect.height * 0.18)


def colour_at(surface: pygame.Surface, point) -> tuple[int, int, int]:
    return tuple(surface.get_at(point))[:3]


def distance(a, b) -> int:
    return sum(abs(x - y) for x, y in zip(a, b))


# Tile 0 (the operatives' top left) is the assassin, tile 24 (their bottom right) a red agent.
CORNER_KEY = Key.from_text("A" "RRRRRRRR" "BBBBBBBB" "NNNNNNN" "R" ":red")


@pytest.mark.parametrize("rotate, assassin_at, red_at", [(True, (4, 4), (0, 0)), (False, (0, 0), (4, 4))])
def test_the_spymasters_see_the_grid_rotated(rotate, assassin_at, red_at, size, tr):
    surface = rendered(new_game(CORNER_KEY), UiState(), tr, size, rotate=rotate)
    where = layout(size)
    assert colour_at(surface, fill_point(where.cell_at(*assassin_at))) == IDENTITY_COLOURS[Identity.ASSASSIN]
    assert colour_at(surface, fill_point(where.cell_at(*red_at))) == TEAM_COLOURS[Team.RED]
    assert tile_rect(size, 0, rotate) == where.cell_at(*assassin_at)


def cell_pixels(surface, rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def test_revealed_and_covered_tiles_look_different_from_hidden_ones(state, tiles, tr, size):
    game, ui = state("classic_cover")
    covered, guessed = game.covered[0], tiles.blue[1]
    hidden = next(tile for tile in tiles.blue if not game.is_revealed(tile))
    assert game.key[covered] is game.key[guessed] is game.key[hidden] is Identity.BLUE
    surface = rendered(game, ui, tr, size)
    looks = {cell_pixels(surface, tile_rect(size, tile)) for tile in (covered, guessed, hidden)}
    assert len(looks) == 3
    hidden_fill = colour_at(surface, fill_point(tile_rect(size, hidden)))
    assert hidden_fill == TEAM_COLOURS[Team.BLUE]
    for tile in (covered, guessed):  # dimmed: much darker than a hidden agent
        assert sum(colour_at(surface, fill_point(tile_rect(size, tile)))) < sum(hidden_fill) * 0.6


@pytest.mark.parametrize("marks", [True, False])
def test_the_assassin_is_unmistakable(marks, tiles, tr, size):
    surface = rendered(new_game(tiles.key), UiState(), tr, size, colour_blind_marks=marks)
    rect = tile_rect(size, tiles.assassin)
    fill = colour_at(surface, fill_point(rect))
    for identity in (Identity.RED, Identity.BLUE, Identity.BYSTANDER):
        assert distance(fill, IDENTITY_COLOURS[identity]) > 150
    assert distance(fill, BACKGROUND) > 30
    assert colour_at(surface, (rect.left + 1, rect.centery)) == ASSASSIN_EDGE  # a white edge
    assert colour_at(surface, rect.center) == ASSASSIN_EDGE  # the X, a shape for colour-blind eyes


def test_colour_blind_marks_put_the_board_letters_on_the_cells(tiles, tr):
    with_marks = rendered(new_game(tiles.key), UiState(), tr, colour_blind_marks=True)
    without = rendered(new_game(tiles.key), UiState(), tr, colour_blind_marks=False)
    for tile in (tiles.red[0], tiles.blue[0], tiles.bystanders[0]):
        rect = tile_rect((480, 320), tile)
        assert cell_pixels(with_marks, rect) != cell_pixels(without, rect)
        inside = rect.inflate(-rect.width // 4, -rect.height // 4)
        plain = region_count(without, inside, IDENTITY_COLOURS[tiles.key[tile]])
        assert plain == inside.width * inside.height  # without marks: colour only


@pytest.mark.parametrize("start", [Team.RED, Team.BLUE])
def test_the_frame_shows_the_start_team(start, tr, size):
    text = "RRRRRRRRR" "BBBBBBBB" "NNNNNNN" "A"
    if start is Team.BLUE:
        text = text.replace("R", "x").replace("B", "R").replace("x", "B")
    surface = rendered(new_game(Key.from_text(text)), UiState(), tr, size)
    where = layout(size)
    frame = pygame.Rect(where.frame)
    point = (frame.left + where.frame_width // 2, frame.top + frame.height // 5)
    assert colour_at(surface, point) == TEAM_COLOURS[start]


# --- the panel


class RecordingTranslator(Translator):
    """An English translator that remembers every message asked for, with its parameters."""

    def __init__(self) -> None:
        super().__init__("en")
        self.asked: dict[str, dict] = {}

    def __call__(self, msgid, **params):
        self.asked.setdefault(msgid, dict(params))
        return super().__call__(msgid, **params)


def said(game, ui, size=(800, 480)) -> dict[str, dict]:
    recorder = RecordingTranslator()
    rendered(game, ui, recorder, size)
    return recorder.asked


def test_an_undo_question_names_the_last_action(state, tiles, tr):
    game, ui = state("disconnected_undo")
    asked = said(game, ui)
    assert asked["display.confirm_undo"] == {"action": tr("action.touch", name="A3")}
    assert "display.press_confirm" in asked and "display.board_disconnected" in asked
    # The confirm button answers the question, so the clue number does not ask for it too.
    assert "display.clue_confirm" not in asked and "display.clue_dial" in asked


def test_a_dialed_clue_asks_for_confirm(tiles):
    asked = said(new_game(tiles.key), UiState(clue_draft=3))
    assert "display.clue_confirm" in asked and "display.clue_dial" not in asked


def test_a_new_game_question_warns_only_about_an_unfinished_game(state, tiles):
    game, _ = state("classic_guess")
    assert "display.confirm_unfinished" in said(game, UiState(confirm=Confirm.NEW_GAME))
    finished, _ = state("classic_assassin")
    asked = said(finished, UiState(confirm=Confirm.NEW_GAME))
    assert "display.confirm_new_game" in asked and "display.confirm_unfinished" not in asked


def test_a_penalty_question_names_the_team_whose_turn_ends(state):
    game, ui = state("classic_penalty_question")
    asked = said(game, ui)
    assert asked["display.confirm_penalty"] == {"team": "red"}
    assert "display.confirm_new_game" not in asked


def test_the_guessing_team_sees_its_clue_and_guesses_left(state):
    game, ui = state("classic_guess")
    asked = said(game, ui)
    assert asked["display.turn"] == {"team": "red"}
    assert asked["display.guesses_left"] == {"left": 2}
    assert "display.timer_advisory" in asked


def test_a_duo_win_shows_the_score_and_its_title(state):
    game, ui = state("duo_won")
    asked = said(game, ui)
    assert asked["display.duo_score"] == {"score": 6}
    assert "duo.title_6" in asked and "display.game_over" in asked


def test_a_classic_game_over_names_the_winner_and_why(state):
    game, ui = state("classic_assassin")
    asked = said(game, ui)
    assert asked["display.wins"] == {"winner": "blue"}
    assert asked["display.reason_assassin"] == {"loser": "red"}


def test_only_the_two_newest_notices_are_shown(tiles):
    notices = (Notice("error.no_clue"), Notice("error.clue_given"), Notice("error.game_over"))
    asked = said(new_game(tiles.key), UiState(notices=notices))
    assert "error.no_clue" not in asked and {"error.clue_given", "error.game_over"} <= set(asked)


def region_count(surface, rect, colour) -> int:
    mask = pygame.mask.from_threshold(surface.subsurface(rect), colour, (1, 1, 1, 255))
    return mask.count()


def test_an_unplugged_tile_board_is_shown_prominently(tiles, tr, size):
    panel = pygame.Rect(layout(size).panel)
    plugged = rendered(new_game(tiles.key), UiState(), tr, size)
    unplugged = rendered(new_game(tiles.key), UiState(board_connected=False), tr, size)
    assert region_count(plugged, panel, WARNING) == 0
    assert region_count(unplugged, panel, WARNING) > panel.width * panel.height * 0.08


def test_an_expired_sand_timer_looks_different(state, tr, size):
    game, ui = state("classic_guess")
    panel = pygame.Rect(layout(size).panel)
    running = rendered(game, ui, tr, size)
    expired = rendered(game, UiState(timer=SandTimer(90, 0)), tr, size)
    assert region_count(running, panel, EXPIRED) == 0
    assert region_count(expired, panel, EXPIRED) > panel.width * 3


def test_the_muted_icon_shows_in_the_header(state, tr):
    game, ui = state("classic_guess")
    where = layout((480, 320))
    header = next(rect for name, rect, _ in arrange(where, game, ui, tr) if name == "header")
    loud = rendered(game, ui, tr)
    muted = rendered(game, UiState(muted=True), tr)
    right = pygame.Rect(header.right - header.height, header.top, header.height, header.height)
    assert cell_pixels(loud, right) != cell_pixels(muted, right)


# --- whatever the state, size or language


def test_every_state_renders_in_every_language_without_overlaps(state_name, language, size, state):
    game, ui = state(state_name)
    tr = Translator(language)
    surface = rendered(game, ui, tr, size)
    assert surface.get_at((0, 0))[:3] == BACKGROUND
    where = layout(size)
    panel = pygame.Rect(where.panel)
    placed = [rect for _, rect, _ in arrange(where, game, ui, tr)]
    for index, rect in enumerate(placed):
        assert panel.contains(rect), (state_name, rect, panel)
        assert not any(rect.colliderect(other) for other in placed[index + 1 :])
    assert not panel.colliderect(where.frame)


def test_render_changes_neither_the_game_nor_the_ui(state_name, state, tr):
    game, ui = state(state_name)
    before, actions, ui_before = copy.deepcopy(game.state()), list(game.actions), copy.deepcopy(ui)
    rendered(game, ui, tr)
    assert game.state() == before and game.actions == actions and ui == ui_before


def test_the_same_state_gives_the_same_pixels(state, tr):
    game, ui = state("disconnected_undo")
    first = rendered(game, ui, tr)
    second = pygame.Surface((480, 320))
    second.fill((255, 0, 255))  # leftovers of an earlier frame must not show through
    render(second, game, ui, tr)
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(second, "RGB")


def test_odd_sizes_render_too(state, tr):
    game, ui = state("disconnected_undo")
    for size in [(240, 320), (1024, 600), (1920, 1080), (160, 128)]:
        rendered(game, ui, tr, size)


def test_an_undo_question_rings_the_touched_tile_on_the_key_where_the_spymasters_see_it(state, tr):
    from codenames_board.display.layout import CONFIRM, layout

    game, ui = state("disconnected_undo")
    last = game.actions[-1].tile
    for rotate in (True, False):
        asking = rendered(game, ui, tr, (480, 320), rotate=rotate)
        calm = rendered(game, dataclasses.replace(ui, confirm=None), tr, (480, 320), rotate=rotate)
        cell = layout((480, 320)).tile_rect(last, rotate)
        edge = (cell.centerx, cell.top - max(3, cell.width // 9) // 2 - 1)  # just outside the cell
        assert colour_at(asking, edge) == CONFIRM and colour_at(calm, edge) != CONFIRM
        others = [layout((480, 320)).tile_rect(tile, rotate) for tile in range(25) if tile != last]
        assert all(colour_at(asking, fill_point(rect)) == colour_at(calm, fill_point(rect)) for rect in others)


# --- every refusal, timeout and question stays readable


SENTINEL = (255, 0, 255)  # no block draws this colour: what is not it was drawn


def ink_outside(block, rect: pygame.Rect) -> list[pygame.Rect]:
    """Where a block's drawing leaves its rectangle: drawn alone on a canvas with as much room again
    all round, then its rectangle wiped; what is left was drawn outside."""
    room = max(rect.size)
    canvas = pygame.Surface((rect.width + 2 * room, rect.height + 2 * room))
    canvas.fill(SENTINEL)
    at = pygame.Rect(room, room, *rect.size)
    block.draw(canvas, at)
    canvas.fill(SENTINEL, at)
    drawn = pygame.mask.from_threshold(canvas, SENTINEL, (1, 1, 1, 255))
    drawn.invert()
    if not drawn.count():
        return []
    return [box.move(rect.x - room, rect.y - room) for box in drawn.get_bounding_rects()]


def must_read(game, ui) -> set[str]:
    """The blocks a player must be able to read in this state: never left out, never cut."""
    names = {"header"}
    if not ui.board_connected:
        names.add("disconnected")
    if ui.confirm is not None:
        names.add("confirm")
    if ui.notices:
        names.add("notices")
    if game.outcome is not None:
        names.add("outcome")
    return names


def says_the_phase(game, ui, shown: set[str]) -> bool:
    """What to do now is on the screen: the prompt, or while guessing or dialling, the clue block,
    which says the same with the number. While a question is open, the question says it (CONFIRM
    answers it, any other button puts it away)."""
    if game.outcome is not None or ui.confirm is not None:
        return True
    if "prompt" in shown:
        return True
    dialling = game.phase is Phase.CLUE and ui.clue_entry
    return "clue" in shown and (game.phase is Phase.GUESS or dialling)


def test_every_refusal_timeout_and_question_is_shown_whole(state_name, language, size, state, monkeypatch):
    monkeypatch.setenv(COMMAND_VARIABLE, "codenames-board")  # {cmd} as the Pi's table says it
    tr = Translator(language)
    game, ui = state(state_name, tr)
    where = layout(size)
    panel = pygame.Rect(where.panel)
    placed = {name: (rect, block) for name, rect, block in arrange(where, game, ui, tr)}
    shown = set(placed)
    wanted = must_read(game, ui)
    assert wanted <= shown, f"left out: {sorted(wanted - shown)}"
    assert says_the_phase(game, ui, shown), f"nothing says what to do now: {sorted(shown)}"
    problems = []
    for name, (rect, block) in placed.items():
        over = [other for other, (elsewhere, _) in placed.items() if other != name and rect.colliderect(elsewhere)]
        if over:
            problems.append(f"{name}: {rect} lies over {over}")
        if not panel.contains(rect):
            problems.append(f"{name}: {rect} is not inside the panel {panel}")
        outside = ink_outside(block, rect)
        if outside:
            problems.append(f"{name}: drawn outside its {rect} at {outside}")
        if name in wanted or name == "prompt":
            for text in block.texts:
                if text.cut:
                    problems.append(f"{name}: cut {text.lines}")
                if text.size < where.min_size:
                    problems.append(f"{name}: {text.size} px, below the floor {where.min_size}: {text.lines}")
    assert not problems, "\n".join(problems)


def test_every_notice_and_question_the_table_can_show_has_a_state(every_state, state):
    """The states above cover each notice in the catalog and each question: a new one needs its state."""
    shown, asked = set(), set()
    for name in every_state:
        game, ui = state(name)
        shown |= {notice.msgid for notice in ui.notices}
        asked.add(ui.confirm)
    notices = {msgid for msgid in catalog("en") if msgid.startswith("notice.") and not msgid.startswith("notice.why_")}
    assert notices | {"firmware_install.other_firmware", "evening.unsaved", "words.next_pack"} <= shown
    assert set(Confirm) <= asked


@pytest.mark.parametrize("name", ["new_evening_question", "classic_evening_tally", "duo_evening_tally"])
def test_tonights_score_stays_between_games_and_while_the_question_would_reset_it(state, name, size, language):
    game, ui = state(name)
    tr = Translator(language)
    placed = arrange(layout(size), game, ui, tr)
    shown = [block for block, _, _ in placed]
    if name == "new_evening_question":  # the question itself says the score it resets
        said = " ".join(" ".join(text.lines) for block, _, drawn in placed if block == "confirm" for text in drawn.texts)
        assert "4 : 3" in said.replace("\n", " "), said
        assert "tally_hint" not in shown  # the question says it
    else:
        assert "tally" in shown, shown
