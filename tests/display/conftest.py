"""Fixtures for the spymaster display tests: SDL without a screen, game states."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import dataclasses  # noqa: E402
import inspect  # noqa: E402

import pytest  # noqa: E402

from codenames_board.engine import (  # noqa: E402
    UNLIMITED,
    Clue,
    EndTurn,
    Key,
    Penalty,
    Timeout,
    Touch,
    new_game,
    tile_name,
)
from codenames_board.i18n import DEFAULT, Translator, catalog  # noqa: E402
from codenames_board.prompts import board_notice  # noqa: E402
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
    long = Notice("notice.guess_first")  # among the longest the table says
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


def classic_evening_tally():
    """Between games: tonight's score under the outcome, long names, duo games too."""
    from codenames_board.evening import Tally

    game, _ = classic_blue_wins()
    tally = Tally("2026-11-28T19:00:00Z", ("Nachteulen Nord", "Füchse vom Hof"), (4, 3), 3, 2, 7, 1)
    return game, UiState(evening=tally)


def classic_evening_tally_notice():
    """The same with a notice up: the score may give way (the notice may not)."""
    game, ui = classic_evening_tally()
    return game, dataclasses.replace(ui, notices=(Notice("notice.guess_first"),))


def duo_evening_tally():
    """A duo game lost, on a duo-only evening: no 0 : 0 line."""
    from codenames_board.evening import Tally

    game, _ = duo_assassin()
    return game, UiState(evening=Tally("2026-11-28T19:00:00Z", duo_played=2, duo_won=1, duo_best=5, duo_streak=0))


# A pairing as the web page's output sets it: the token is 128 bits in URL-safe base64, as the server makes it.
PAIRING = PairingCard("http://192.168.178.20:8080/pair#t=Zq3_xV8kP2mW9cR4tY6uJw", "482913", 2)


def pairing_card():
    """A new game, the web page on: the card sits in the panel, the sand timer runs for the first clue."""
    return new_game(KEY), UiState(pairing=PAIRING, timer=SandTimer(total=60, left=42.3))


def pairing_card_notice():
    """The same with a refusal to read: the notice stays whole, the card takes the room left (maybe as text)."""
    game, ui = pairing_card()
    return game, dataclasses.replace(ui, notices=(Notice("notice.clue_first"),))


def pairing_unpair():
    """Mid-game, UNDO held with the web page on: unpair every phone?"""
    game, ui = classic_guess()
    return game, UiState(confirm=Confirm.UNPAIR, pairing=PAIRING, timer=ui.timer)


# Every refusal, timeout, question and notice the table can show (table.py, prompts.py, shelf.py,
# recorded.py), each where it happens. A state that words a notice with the disk's reason in the
# players' language takes the translator: ``state(name, tr)``.


def _why(tr) -> str:
    """The longest reason a record could not be written, in this language (the disk's words, from ``tr.disk``)."""
    return max((tr(msgid) for msgid in catalog(DEFAULT) if msgid.startswith("notice.why_")), key=len)


def strict(left: float = 60) -> SandTimer:
    return SandTimer(total=60, left=left, mode=TimerMode.STRICT)


def clue_first():
    """A tile touched before the clue: the dial shows 2, the sand timer runs."""
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), Touch(BYSTANDERS[0]))
    return game, UiState(clue_draft=2, timer=SandTimer(90, 73), notices=(Notice("notice.clue_first"),))


def guess_first():
    """END TURN before any guess, on a clue of 3, strict timer running."""
    game = _play(new_game(KEY), Clue(3))
    return game, UiState(timer=strict(41), notices=(Notice("notice.guess_first"),))


def time_up():
    """The strict timer ran out while red guessed: blue's clue, its own countdown started at once."""
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), Timeout())
    return game, UiState(timer=strict(), notices=(Notice("notice.time_up", (("team", "red"),)),))


def time_up_expired():
    """The strict timer at zero, the time-up notice beside it (before the next countdown starts)."""
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), Timeout())
    return game, UiState(timer=strict(0), muted=True, notices=(Notice("notice.time_up", (("team", "red"),)),))


def duo_time_up():
    """Duo: the time ran out on the players' guesses; the shadow covers."""
    game = _play(new_game(KEY, "duo"), Clue(2), Touch(RED[0]), Timeout())
    return game, UiState(notices=(Notice("notice.time_up", (("team", "red"),)),))


def cover_own():
    """Red may cover one of its agents and touched a tile that is not one."""
    game, _ = classic_cover()
    return game, UiState(notices=(Notice("notice.cover_own", (("team", game.turn.value),)),))


def duo_cover_shadow():
    game = _play(new_game(KEY, "duo"), Clue(1), Touch(RED[0]), Touch(BYSTANDERS[0]))
    return game, UiState(notices=(Notice("notice.cover_shadow", (("team", game.turn.value),)),))


def two_notices():
    """Time ran out, then an operative touched a tile before the next clue."""
    game, ui = time_up()
    return game, dataclasses.replace(ui, notices=(*ui.notices, Notice("notice.clue_first")))


def two_notices_cover(tr):
    """A record that cannot be written, then a refused cover: two long notices under the cover prompt."""
    game, _ = classic_cover()
    notices = (Notice("notice.record_unsaved", (("why", _why(tr)),)), Notice("notice.cover_own", (("team", "red"),)))
    return game, UiState(notices=notices)


def penalty_with_notice():
    """END TURN refused before a guess, then held: the penalty question over the notice."""
    game, ui = guess_first()
    return game, dataclasses.replace(ui, confirm=Confirm.PENALTY)


def undo_clue():
    return _play(new_game(KEY), Clue(UNLIMITED)), UiState(confirm=Confirm.UNDO, timer=SandTimer(120, 99))


def undo_end_turn():
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), EndTurn())
    return game, UiState(confirm=Confirm.UNDO, clue_draft=1)


def undo_timeout():
    game, ui = time_up()
    return game, dataclasses.replace(ui, confirm=Confirm.UNDO)


def undo_penalty():
    game, ui = classic_cover()
    return game, dataclasses.replace(ui, confirm=Confirm.UNDO)


def undo_nothing():
    return new_game(KEY), UiState(confirm=Confirm.UNDO, clue_draft=2)


def duo_undo():
    game = _play(new_game(KEY, "duo"), Clue(1), Touch(RED[0]), Touch(BYSTANDERS[0]), Touch(BLUE[0]))
    return game, UiState(confirm=Confirm.UNDO)


def new_game_question():
    game, ui = classic_guess()
    return game, dataclasses.replace(ui, confirm=Confirm.NEW_GAME)


def duo_new_game_question():
    game = _play(new_game(KEY, "duo"), Clue(2), Touch(RED[0]))
    return game, UiState(confirm=Confirm.NEW_GAME, notices=(Notice("notice.record_saved"),))


def duo_penalty_question():
    return _play(new_game(KEY, "duo"), Clue(2)), UiState(confirm=Confirm.PENALTY, timer=strict(12))


def unplugged():
    """The tile board's cable came out mid-guess."""
    game, ui = classic_guess()
    return game, dataclasses.replace(ui, board_connected=False, notices=())


def unplugged_question_and_notices(tr):
    """The worst case: the board unplugged, the new-game question, a record that cannot be written and a refusal."""
    game = _play(new_game(KEY), Clue(2), Touch(RED[0]), Timeout())
    notices = (Notice("notice.record_unsaved", (("why", _why(tr)),)), Notice("notice.clue_first"))
    return game, UiState(confirm=Confirm.NEW_GAME, board_connected=False, timer=strict(), notices=notices)


def unpair_with_notice():
    game, ui = pairing_unpair()
    return game, dataclasses.replace(ui, notices=(Notice("notice.board_stuck", (("detail", "C3"),)),))


def _record_notice(msgid: str, base, **params):
    def state(tr):
        game, ui = base()
        spoken = {name: _why(tr) if value is WHY else value for name, value in params.items()}
        return game, dataclasses.replace(ui, notices=(Notice(msgid, tuple(spoken.items())),))

    state.__doc__ = f"{msgid} over the state {base.__name__}"
    return state


WHY = object()  # a record notice's reason: the language's longest

RECORD_NOTICES = {
    "record_damaged": _record_notice("notice.record_damaged", classic_no_clue_entry, name="20250131-201503-classic-12.jsonl"),
    "record_torn": _record_notice("notice.record_torn", classic_guess),
    "record_unwritable": _record_notice("notice.record_unwritable", classic_guess, why=WHY),
    "record_unsaved": _record_notice("notice.record_unsaved", classic_cover, why=WHY),
    "record_words_unsaved": _record_notice("notice.record_words_unsaved", classic_draft_unlimited, why=WHY),
    "record_saved": _record_notice("notice.record_saved", duo_cover),
    "record_no_new_game": _record_notice("notice.record_no_new_game", classic_blue_wins, why=WHY),
    "record_no_new_game_duo": _record_notice("notice.record_no_new_game", duo_won, why=WHY),
}
# What the tile board reports (prompts.board_notice), with details as the board sends them.
BOARD_NOTICES = [
    ("noisy", "C3"), ("quiet", "E5"), ("stuck", "A1"), ("pads", "2"), ("pads", "0,2"), ("pads", "-"), ("protocol", "3"),
    ("layout", "25 4"), ("other", "length 150 153"), ("firmware_tunepad", "TUNEPAD"), ("firmware_order", "ORDER"),
]  # fmt: skip


def _board_notice(code: str, detail: str):
    def state(tr):
        game, ui = classic_guess()
        return game, dataclasses.replace(ui, notices=(board_notice(code, detail, tr),))

    return state


NOTICE_STATES = {
    "clue_first": clue_first,
    "guess_first": guess_first,
    "time_up": time_up,
    "time_up_expired": time_up_expired,
    "duo_time_up": duo_time_up,
    "cover_own": cover_own,
    "duo_cover_shadow": duo_cover_shadow,
    "two_notices": two_notices,
    "two_notices_cover": two_notices_cover,
    "penalty_with_notice": penalty_with_notice,
    "undo_clue": undo_clue,
    "undo_end_turn": undo_end_turn,
    "undo_timeout": undo_timeout,
    "undo_penalty": undo_penalty,
    "undo_nothing": undo_nothing,
    "duo_undo": duo_undo,
    "new_game_question": new_game_question,
    "duo_new_game_question": duo_new_game_question,
    "duo_penalty_question": duo_penalty_question,
    "unplugged": unplugged,
    "unplugged_question_and_notices": unplugged_question_and_notices,
    "unpair_with_notice": unpair_with_notice,
    "other_firmware": lambda: (classic_guess()[0], UiState(notices=(Notice("firmware_install.other_firmware"),))),
    **RECORD_NOTICES,
    **{f"board_{code}_{detail}": _board_notice(code, detail) for code, detail in BOARD_NOTICES},
}

def _fresh():
    return new_game(KEY), UiState()


def new_evening_question():
    game, ui = classic_evening_tally_notice()
    return game, dataclasses.replace(ui, confirm=Confirm.NEW_EVENING)


WORD_NOTICES = {  # re-dealt words, word packs, the evening: said to the room (evening.unsaved: the spymasters)
    "redeal_done": _record_notice(
        "notice.redeal_done", _fresh, name="A1", word="Straßenbahnhaltestelle", old="Regenschirmständer", left=4
    ),
    "redeal_too_late": _record_notice("notice.redeal_too_late", classic_guess),
    "redeal_used_up": _record_notice("notice.redeal_used_up", _fresh, most=5),
    "redeal_no_word": _record_notice("notice.redeal_no_word", _fresh),
    "redeal_unsaved": _record_notice("notice.redeal_unsaved", _fresh, why=WHY),
    "next_pack": _record_notice("words.next_pack", classic_evening_tally, pack="standard"),
    "evening_unsaved": _record_notice("evening.unsaved", classic_evening_tally, why=WHY),
    "new_evening_question": new_evening_question,
}

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
    "classic_evening_tally": classic_evening_tally,
    "classic_evening_tally_notice": classic_evening_tally_notice,
    "duo_evening_tally": duo_evening_tally,
    "pairing_card": pairing_card,
    "pairing_unpair": pairing_unpair,
    "pairing_card_notice": pairing_card_notice,
    **NOTICE_STATES,
    **WORD_NOTICES,
}
SIZES = [(320, 240), (480, 320), (800, 480)]


def make_state(name: str, tr=None):
    """A fresh (game, ui) pair of a named situation; a state that words something in the players'
    language (a record notice's reason) takes ``tr`` (English by default)."""
    make = STATES[name]
    return make(tr or Translator("en")) if inspect.signature(make).parameters else make()


@pytest.fixture
def state():
    """``state(name)`` or ``state(name, tr)``: a fresh (game, ui) pair of a named situation."""
    return make_state


@pytest.fixture
def every_state():
    """The names of all the states, for a test that looks at them together."""
    return list(STATES)


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
