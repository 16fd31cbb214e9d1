"""Fixtures for the spymaster display tests: SDL without a screen, game states."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from codenames_board.engine import (  # noqa: E402
    UNLIMITED,
    Clue,
    EndTurn,
    Key,
    Penalty,
    Touch,
    new_game,
    tile_name,
)
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.ui import Confirm, Notice, PairingCard, SandTimer, TimerMode, UiState  # noqa: E402

# Red starts. Row by row as the operatives see it (tile numbers 0-24):
#   R B N R B
#   B R A R N
#   R B R N B
#   N R B R N
#   B N R B N
KEY = Key.from_text("RBNRB" "BRARN" "RBRNB" "NRBRN" "BNRBN" ":red")
RED = [tile for tile, letter in enumerate(KEY.letters) if letter == "R"]  # 0 3 6 8 10 12 16 18 22
BLUE = [tile for tile, letter in enumerate(KEY.letters) if letter == "B"]  # 1 4 5 11 14 17 20 23
BYSTANDERS = [tile for tile, letter in enumerate(KEY.letters) if letter == "N"]  # 2 9 13 15 19 21 24
ASSASSIN = KEY.letters.index("A")  # 7


@pytest.fixture
def tr():
    return Translator("en")


def _play(game, *actions):
    for action in actions:
        game.play(action)
    return game


def classic_guess():
    """Mid-game: red found two agents, blue's turn ended on a bystander; red guesses on a clue of 2."""
    game = _play(
        new_game(KEY),
        Clue(3), Touch(RED[0]), Touch(RED[1]), Touch(BYSTANDERS[0]),
        Clue(2), Touch(BLUE[0]), Touch(RED[2]),
        Clue(2), Touch(RED[3]),
    )  # fmt: skip
    ui = UiState(
        timer=SandTimer(total=90, left=41.2, mode=TimerMode.ADVISORY),
        notices=(
            Notice("event.clue", (("team", "red"), ("left", 3))),
            Notice("event.revealed", (("name", tile_name(RED[3])), ("identity", "red agent"))),
        ),
    )
    return game, ui


def classic_cover():
    """Blue's clue was illegal: red may now cover one of its agents (blue covered one earlier)."""
    game = _play(
        new_game(KEY),
        Clue(1), Touch(RED[0]), Penalty(),
        Touch(BLUE[0]),  # blue covers one of its own agents
        Clue(2), Touch(BLUE[1]), Touch(BYSTANDERS[0]),
        Clue(1), Touch(RED[1]), EndTurn(),
        Penalty(),
    )  # fmt: skip
    ui = UiState(muted=True, notices=(Notice("event.turn_end_penalty", (("team", "blue"),)),))
    return game, ui


def duo_won():
    """Two players win in three turns with two shadow agents covered: score 6."""
    game = _play(
        new_game(KEY, "duo"),
        Clue(3), Touch(RED[0]), Touch(RED[1]), Touch(RED[2]), Touch(RED[3]),
        Touch(BLUE[0]),
        Clue(2), Touch(RED[4]), Touch(RED[5]), Touch(BYSTANDERS[0]),
        Touch(BLUE[1]),
        Clue(3), Touch(RED[6]), Touch(RED[7]), Touch(RED[8]),
    )  # fmt: skip
    assert game.outcome is not None and game.outcome.score == 6
    return game, UiState(notices=(Notice("event.covered", (("name", tile_name(BLUE[1])), ("team", "blue"))),))


def disconnected_undo():
    """The tile board is unplugged while the spymaster asks to undo a touch; a clue of 3 is being dialed."""
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), Touch(BLUE[0]), Clue(1), Touch(BYSTANDERS[0]))
    ui = UiState(
        clue_draft=3,
        confirm=Confirm.UNDO,
        board_connected=False,
        timer=SandTimer(total=60, left=0, mode=TimerMode.STRICT),
        notices=(Notice("error.no_guess_yet"),),
    )
    return game, ui


# Further states, for the checks that do not compare pixels.


def classic_assassin():
    return _play(new_game(KEY), Clue(1), Touch(ASSASSIN)), UiState(confirm=Confirm.NEW_GAME)


def classic_unlimited():
    game = _play(new_game(KEY), Clue(UNLIMITED), Touch(RED[0]))
    return game, UiState(timer=SandTimer(total=120, left=119.5, mode=TimerMode.STRICT), muted=True)


def classic_new_game_unfinished():
    game = _play(new_game(KEY), Clue(0), Touch(RED[0]))
    long = Notice("error.not_own_agent", (("name", "C3"), ("team", "blue")))
    return game, UiState(confirm=Confirm.NEW_GAME, notices=(long, long, long), board_connected=False)


def classic_penalty_question():
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]))
    return game, UiState(confirm=Confirm.PENALTY, timer=SandTimer(total=90, left=12.5))


def classic_draft_unlimited():
    return new_game(KEY), UiState(clue_draft=UNLIMITED)


def classic_no_clue_entry():
    return new_game(KEY), UiState(clue_entry=False, clue_draft=None)


def duo_cover():
    return _play(new_game(KEY, "duo"), Clue(1), Touch(RED[0]), Touch(BYSTANDERS[0])), UiState()


def duo_assassin():
    return _play(new_game(KEY, "duo"), Clue(1), Touch(ASSASSIN)), UiState(notices=(Notice("error.game_over"),))


def classic_blue_wins():
    game = new_game(KEY)
    _play(game, Clue(1), Touch(BYSTANDERS[0]), Clue(UNLIMITED), *[Touch(tile) for tile in BLUE])
    return game, UiState()


# A pairing as the web page's output sets it: the token is 128 bits in URL-safe base64, as the server makes it.
PAIRING = PairingCard("http://192.168.178.20:8080/pair#t=Zq3_xV8kP2mW9cR4tY6uJw", "482913", 2)


def pairing_card():
    """A new game, the web page on: the card sits in the panel, the sand timer runs for the first clue."""
    ui = UiState(pairing=PAIRING, timer=SandTimer(total=60, left=42.3), notices=(Notice("error.no_clue"),))
    return new_game(KEY), ui


def pairing_unpair():
    """Mid-game, UNDO held with the web page on: unpair every phone?"""
    game, ui = classic_guess()
    return game, UiState(confirm=Confirm.UNPAIR, pairing=PAIRING, timer=ui.timer)


REFERENCE_STATES = {
    "classic_guess": classic_guess,
    "classic_cover": classic_cover,
    "duo_won": duo_won,
    "disconnected_undo": disconnected_undo,
}
STATES = {
    **REFERENCE_STATES,
    "classic_assassin": classic_assassin,
    "classic_unlimited": classic_unlimited,
    "classic_new_game_unfinished": classic_new_game_unfinished,
    "classic_penalty_question": classic_penalty_question,
    "classic_draft_unlimited": classic_draft_unlimited,
    "classic_no_clue_entry": classic_no_clue_entry,
    "duo_cover": duo_cover,
    "duo_assassin": duo_assassin,
    "classic_blue_wins": classic_blue_wins,
    "pairing_card": pairing_card,
    "pairing_unpair": pairing_unpair,
}
SIZES = [(320, 240), (480, 320), (800, 480)]


@pytest.fixture
def state():
    """``state(name)``: a fresh (game, ui) pair of a named situation."""
    return lambda name: STATES[name]()


@pytest.fixture
def tiles():
    """The fixed key and its tiles by identity: tiles.key, tiles.red, tiles.blue, tiles.bystanders, tiles.assassin."""
    from types import SimpleNamespace

    return SimpleNamespace(key=KEY, red=RED, blue=BLUE, bystanders=BYSTANDERS, assassin=ASSASSIN)


def pytest_generate_tests(metafunc):
    """Parameters by name: ``state_name`` (every state), ``reference_name`` (the ones with
    reference images), ``size`` (the three screens) and ``language``."""
    from codenames_board.i18n import LANGUAGES

    for name, values, ids in (
        ("state_name", list(STATES), None),
        ("reference_name", list(REFERENCE_STATES), None),
        ("size", SIZES, [f"{width}x{height}" for width, height in SIZES]),
        ("language", list(LANGUAGES), None),
    ):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, values, ids=ids)
