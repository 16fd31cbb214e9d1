"""Layout and text fitting of the spymaster display, and the display's messages."""

from __future__ import annotations

import ast
from pathlib import Path

import pygame
import pytest

from codenames_board import display
from codenames_board.display import DisplayError, layout
from codenames_board.display.layout import ELLIPSIS, fit, font
from codenames_board.i18n import catalog

PACKAGE = Path(display.__file__).parent
LONG = "the operatives make at least one guess before they end the turn, as the rulebook says"


def test_the_key_is_square_and_beside_the_panel(size):
    where = layout(size)
    frame, panel = pygame.Rect(where.frame), pygame.Rect(where.panel)
    screen = pygame.Rect((0, 0), size)
    assert screen.contains(frame) and screen.contains(panel)
    assert not frame.colliderect(panel) and panel.left > frame.right
    cells = [pygame.Rect(cell) for cell in where.cells]
    assert all(cell.width == cell.height == cells[0].width for cell in cells)
    assert all(frame.inflate(-2 * where.frame_width, -2 * where.frame_width).contains(cell) for cell in cells)
    assert cells[0].width >= 24  # a letter fits even on 320x240


def test_fonts_grow_with_the_screen_and_stay_legible():
    small, medium, large = (layout(size) for size in [(320, 240), (480, 320), (800, 480)])
    assert small.min_size >= 14
    for role in ("small", "medium", "large", "huge"):
        assert small.sizes[role] < medium.sizes[role] < large.sizes[role]


def test_a_portrait_screen_stacks_the_panel_below_the_key():
    where = layout((240, 320))
    assert pygame.Rect(where.panel).top > pygame.Rect(where.frame).bottom


def test_text_that_fits_keeps_its_size():
    text = fit("Clue", 30, 200, 12)
    assert text.size == 30 and text.lines == ("Clue",)


def test_text_shrinks_before_it_is_cut():
    width = font(30).size("Tile board disconnected")[0] - 20
    text = fit("Tile board disconnected", 30, width, 12)
    assert 12 <= text.size < 30 and text.lines == ("Tile board disconnected",)
    assert text.width <= width


@pytest.mark.parametrize("max_lines", [1, 2, 3])
def test_text_too_long_is_cut_with_an_ellipsis(max_lines):
    text = fit(LONG, 20, 120, 14, max_lines)
    assert text.size == 14 and len(text.lines) == max_lines
    assert text.lines[-1].endswith(ELLIPSIS)
    assert text.width <= 120


def test_text_wraps_at_words():
    text = fit("Start a new game? The current game is not finished.", 20, 160, 20, 4)
    assert len(text.lines) > 1
    assert " ".join(text.lines) == "Start a new game? The current game is not finished."


def test_a_word_longer_than_the_line_is_cut():
    text = fit("Spielleiterinnenhinweisnummer", 24, 60, 14, 2)
    assert all(font(text.size).size(line)[0] <= 60 for line in text.lines)


def test_a_cut_text_says_so_and_a_whole_one_does_not():
    assert fit(LONG, 20, 120, 14, 2).cut
    assert not fit(LONG, 20, 120, 14, 12).cut and not fit("Clue", 30, 200, 12).cut


def test_a_file_name_too_long_for_a_line_breaks_after_a_dash_or_dot_not_cut():
    name = "20250131-201503-classic-12.jsonl"
    width = font(14).size(name)[0] * 2 // 3
    text = fit(f"Saved game {name} is unreadable.", 14, width, 14, 4)
    assert not text.cut and "".join(text.lines).replace(" ", "") == f"Savedgame{name}isunreadable."
    assert any(line.endswith("-") for line in text.lines) and text.width <= width


def test_a_text_is_as_high_as_its_lowest_ink():
    """An accent or a descender may reach below the font's line height: the text's height covers it."""
    text = fit("Ägypten…", 14, 200, 14)
    image = text.font.render(text.lines[0], True, (255, 255, 255))
    lowest = max(box.bottom for box in pygame.mask.from_surface(image).get_bounding_rects())
    assert text.height >= lowest


# --- messages


def _ids_in_display_code() -> set[str]:
    found = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name == "tr":
                    found.add(node.args[0].value)
                elif name == "DisplayError":
                    found.add(f"error.{node.args[0].value}")
    return found


def test_every_message_the_display_names_is_in_the_catalog():
    used = _ids_in_display_code()
    assert {"display.turn", "board.letter_red", "error.framebuffer_depth"} <= used
    assert sorted(msgid for msgid in used if msgid not in catalog("en")) == []


def test_display_errors_say_the_catalogs_words():
    english = catalog("en")
    for msgid, text in DisplayError.MESSAGES.items():
        assert english[f"error.{msgid}"] == text


def test_a_word_too_long_for_its_tile_goes_on_two_lines_at_a_syllable_not_cut():
    from codenames_board.display.layout import ELLIPSIS, fit, fit_word

    word = "STRASSENBAHNHALTESTELLE"
    assert fit(word, 22, 60, 10).lines[0].endswith(ELLIPSIS)  # one line: cut
    text = fit_word(word, 22, 60, 10)
    assert text.lines == ("STRASSENBAHN-", "HALTESTELLE") and not any(ELLIPSIS in line for line in text.lines)
    assert fit_word("WHALE", 22, 60, 10).lines == ("WHALE",)  # a word that fits stays whole, on one line
