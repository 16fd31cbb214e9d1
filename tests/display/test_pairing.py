"""The pairing card on the spymaster display: the QR code on the screen is the URL's, the PIN is shown,
and nothing the spymasters need for the first clue gives way to it.

Screenshots of both cases at the three sizes, to look at:
    CODENAMES_PAIRING_SHOTS=/tmp/pairing-shots .venv/bin/python -m pytest tests/display/test_pairing.py -q -k shots
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from pathlib import Path

import pygame
import pytest
import segno

from codenames_board.display import layout, render
from codenames_board.display.layout import ELLIPSIS
from codenames_board.display.pairing import qr_matrix
from codenames_board.display.panel import arrange
from codenames_board.engine import Clue
from codenames_board.i18n import Translator
from codenames_board.ui import Confirm, UiState

BLACK, WHITE = (0, 0, 0), (255, 255, 255)
layout_module = importlib.import_module("codenames_board.display.layout")  # the package's `layout` is the function


def rendered(game, ui, tr, size) -> pygame.Surface:
    surface = pygame.Surface(size)
    render(surface, game, ui, tr)
    return surface


def pixels(surface: pygame.Surface, rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def placed(game, ui, tr, size) -> dict[str, pygame.Rect]:
    return {name: rect for name, rect, _ in arrange(layout(size), game, ui, tr)}


def asked(game, ui, size=(800, 480)) -> dict[str, dict]:
    """The messages a render asks for, with their parameters."""
    english, seen = Translator("en"), {}

    def tr(msgid, **params):
        seen.setdefault(msgid, params)
        return english(msgid, **params)

    rendered(game, ui, tr, size)
    return seen


def the_urls_modules(url: str) -> list[list[bool]]:
    """The QR code of ``url`` straight from segno, not through the display's cache."""
    return [[bool(module) for module in row] for row in segno.make(url, error="m", micro=False).matrix]


def assert_shows_qr_code(surface: pygame.Surface, area: pygame.Rect, url: str) -> int:
    """The black modules in ``area`` are the QR code of ``url`` (checked at every module's centre), in whole
    pixels per module, with a white quiet zone of at least two modules; returns the pixels per module."""
    modules = the_urls_modules(url)
    count = len(modules)
    mask = pygame.mask.from_threshold(surface.subsurface(area), BLACK, (1, 1, 1, 255))
    first, *others = mask.get_bounding_rects()
    box = first.unionall(others)  # the finder patterns reach three corners: the box is the whole code
    assert box.width == box.height and box.width % count == 0, (box, count)
    module = box.width // count
    assert module >= 2
    box.move_ip(area.topleft)
    for row in range(count):
        for column in range(count):
            centre = (box.x + column * module + module // 2, box.y + row * module + module // 2)
            assert tuple(surface.get_at(centre))[:3] == (BLACK if modules[row][column] else WHITE), (row, column)
    quiet = box.inflate(4 * module, 4 * module)
    assert area.contains(quiet)
    ring = pygame.mask.from_threshold(surface.subsurface(quiet), WHITE, (1, 1, 1, 255)).count()
    assert ring == quiet.width * quiet.height - mask.count()  # all white but the dark modules
    return module


class DrawnText:
    """Every string the display renders, recorded through the font cache (layout.font)."""

    def __init__(self, monkeypatch):
        self.lines: list[str] = []
        real = layout_module.font
        recorder = self

        class Recording:
            def __init__(self, face):
                self.face = face

            def render(self, text, *args):
                recorder.lines.append(text)
                return self.face.render(text, *args)

            def __getattr__(self, name):
                return getattr(self.face, name)

        monkeypatch.setattr(layout_module, "font", lambda size: Recording(real(size)))


@pytest.fixture
def drawn(monkeypatch):
    return DrawnText(monkeypatch)


@pytest.fixture
def pairing(state):
    """The pairing card of the test states (conftest.PAIRING)."""
    return state("pairing_card")[1].pairing


# --- the card in the panel, before the first clue


def test_the_card_shows_the_urls_qr_code(size, tr, state, pairing):
    game, ui = state("pairing_card")
    surface = rendered(game, ui, tr, size)
    card = placed(game, ui, tr, size)["pairing"]
    assert_shows_qr_code(surface, card, pairing.url)


def test_the_card_draws_the_pin_in_two_groups_and_how_many_phones_are_paired(size, tr, drawn, state):
    game, ui = state("pairing_card")
    rendered(game, ui, tr, size)
    shown = " ".join(drawn.lines)
    assert "482 913" in shown or ("482" in drawn.lines and "913" in drawn.lines)
    assert tr("display.paired_many", count=2) in shown
    assert "192.168.178.20:8080/pair" in drawn.lines  # what to type; never the token
    assert not any("Zq3_" in line for line in drawn.lines)


def test_another_pin_draws_other_pixels_beside_the_same_qr_code(tr, state, pairing):
    game, ui = state("pairing_card")
    other = dataclasses.replace(ui, pairing=dataclasses.replace(pairing, pin="105837"))
    card = placed(game, ui, tr, (480, 320))["pairing"]
    first, second = rendered(game, ui, tr, (480, 320)), rendered(game, other, tr, (480, 320))
    assert pixels(first, card) != pixels(second, card)
    assert_shows_qr_code(second, card, pairing.url)


@pytest.mark.parametrize("when", ["no web page", "a clue was given", "a question is open"])
def test_no_card_without_a_pairing_after_the_first_action_or_under_a_question(when, tr, size, state):
    game, ui = state("pairing_card")
    if when == "no web page":
        ui = dataclasses.replace(ui, pairing=None)
    elif when == "a clue was given":
        game.play(Clue(2))
    else:
        ui = dataclasses.replace(ui, confirm=Confirm.NEW_GAME)
    assert "pairing" not in placed(game, ui, tr, size)
    without = dataclasses.replace(ui, pairing=None)
    screen = (0, 0, *size)
    assert pixels(rendered(game, ui, tr, size), screen) == pixels(rendered(game, without, tr, size), screen)


def test_the_key_whose_turn_and_the_clue_dial_stay_as_they_were(size, tr, state, pairing):
    game, ui = state("pairing_card")
    without = dataclasses.replace(ui, pairing=None)
    with_card, plain = rendered(game, ui, tr, size), rendered(game, without, tr, size)
    where = layout(size)
    assert pixels(with_card, where.frame) == pixels(plain, where.frame)  # the key, untouched
    shown, before = placed(game, ui, tr, size), placed(game, without, tr, size)
    for name in ("header", "clue", "timer"):  # drawn alike; the blocks below the header may move up
        assert shown[name].size == before[name].size
        assert pixels(with_card, shown[name]) == pixels(plain, before[name])
    assert not shown["pairing"].colliderect(where.frame)


def test_a_card_too_big_for_its_room_becomes_text(tr, drawn, state):
    """Below a legible QR code the card still gives the PIN and the address: never a cut or blurred code."""
    game, ui = state("pairing_card")
    size = (320, 185)
    surface = rendered(game, ui, tr, size)
    card = placed(game, ui, tr, size)["pairing"]
    assert pygame.mask.from_threshold(surface.subsurface(card), BLACK, (1, 1, 1, 255)).count() == 0
    assert {"482 913", "192.168.178.20:8080/pair"} <= set(drawn.lines)
    assert tr("display.pair_open") in " ".join(drawn.lines)


# --- the unpair question


def test_the_unpair_question_puts_the_qr_code_in_the_keys_square(size, state, tr, drawn, pairing):
    game, ui = state("pairing_unpair")
    surface = rendered(game, ui, tr, size)
    where = layout(size)
    module = assert_shows_qr_code(surface, pygame.Rect(where.frame), pairing.url)
    blocks = placed(game, ui, tr, size)
    assert "confirm" in blocks and "pairing" in blocks and "header" in blocks
    assert "482 913" in drawn.lines and tr("display.paired_many", count=2) in drawn.lines
    game, ui = state("pairing_card")
    small = assert_shows_qr_code(rendered(game, ui, tr, size), placed(game, ui, tr, size)["pairing"], pairing.url)
    assert module > small  # large: a phone reads it from further away


def test_the_unpair_question_says_what_confirm_does_and_that_any_other_button_says_no(state):
    game, ui = state("pairing_unpair")
    said = asked(game, ui)
    assert {"display.confirm_unpair", "display.confirm_unpair_no", "display.paired_many"} <= set(said)
    assert said["display.paired_many"] == {"count": 2}
    assert "display.confirm_new_game" not in said and "display.press_confirm" not in said


def test_without_a_pairing_the_unpair_question_keeps_the_key(state, tr, size):
    game, ui = state("pairing_unpair")
    ui = dataclasses.replace(ui, pairing=None)
    where = layout(size)
    key_only = rendered(game, UiState(), tr, size)
    assert pixels(rendered(game, ui, tr, size), where.frame) == pixels(key_only, where.frame)
    assert "confirm" in placed(game, ui, tr, size)


@pytest.mark.parametrize(
    "devices, msgid", [(0, "display.paired_none"), (1, "display.paired_one"), (3, "display.paired_many")]
)
def test_the_count_of_phones_reads_right(devices, msgid, state, pairing):
    game, ui = state("pairing_card")
    ui = dataclasses.replace(ui, pairing=dataclasses.replace(pairing, devices=devices))
    assert msgid in asked(game, ui)


# --- every language, every size


@pytest.mark.parametrize("name", ["pairing_card", "pairing_unpair"])
def test_no_pairing_text_is_cut_in_any_language(name, language, size, state, drawn):
    game, ui = state(name)
    tr = Translator(language)
    rendered(game, ui, tr, size)
    cut = [line for line in drawn.lines if line.endswith(ELLIPSIS)]
    assert cut == []
    assert "482 913" in drawn.lines or {"482", "913"} <= set(drawn.lines)


def test_the_qr_matrix_is_made_once_per_url(tr, state, pairing):
    qr_matrix.cache_clear()
    game, ui = state("pairing_card")
    for size in ((320, 240), (800, 480)):
        rendered(game, ui, tr, size)
    info = qr_matrix.cache_info()
    assert info.misses == 1 and info.hits >= 1 and info.maxsize <= 8
    assert qr_matrix(pairing.url) == tuple(tuple(row) for row in the_urls_modules(pairing.url))


@pytest.mark.skipif(not os.environ.get("CODENAMES_PAIRING_SHOTS"), reason="set CODENAMES_PAIRING_SHOTS=folder")
@pytest.mark.parametrize("shot_language", ["en", "de"])
def test_save_shots(shot_language, state):
    folder = Path(os.environ["CODENAMES_PAIRING_SHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("pairing_card", "pairing_unpair"):
        for width, height in ((320, 240), (480, 320), (800, 480)):
            game, ui = state(name)
            surface = rendered(game, ui, Translator(shot_language), (width, height))
            pygame.image.save(surface, str(folder / f"{name}-{shot_language}-{width}x{height}.png"))
