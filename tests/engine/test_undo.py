"""Undo: the action stack minus its top, even when that top ended the game.

Key (conftest): red starts; red agents 0-8, blue agents 9-16, bystanders 17-23, assassin 24.
"""

from __future__ import annotations

import pytest

from codenames_board.engine import (
    UNLIMITED,
    Clue,
    EndTurn,
    IllegalAction,
    NothingToUndo,
    Penalty,
    Timeout,
    Touch,
    Undo,
    Undone,
    new_game,
)

ASSASSIN = 24


def test_undo_removes_the_last_action(game):
    game.play(Clue(2))
    before_touch = game.state()
    game.play(Touch(0))
    events = game.undo()
    assert events == [Undone(Touch(0))]
    assert game.actions == [Clue(2)]
    assert game.state() == before_touch


def test_undo_via_play_is_the_same_as_undo(game, play_all):
    play_all(game, Clue(2), Touch(17))
    other = new_game(game.key)
    play_all(other, Clue(2), Touch(17))
    assert game.play(Undo()) == other.undo() == [Undone(Touch(17))]
    assert game.state() == other.state()


def test_undo_of_an_assassin_mis_tap_reopens_the_game(game, play_all):
    play_all(game, Clue(2), Touch(0))
    before = game.state()
    game.play(Touch(ASSASSIN))
    assert game.is_over and game.state()["winner"] == "blue"
    events = game.play(Undo())
    assert events == [Undone(Touch(ASSASSIN))]
    assert game.state() == before
    assert not game.is_over and game.outcome is None
    game.play(Touch(1))  # the game goes on
    assert game.state()["revealed"] == [0, 1]


def test_undo_of_a_winning_guess(game, play_all):
    play_all(game, Clue(UNLIMITED), *[Touch(tile) for tile in range(8)])
    before = game.state()
    game.play(Touch(8))
    assert game.state()["winner"] == "red"
    game.undo()
    assert game.state() == before


def test_several_undos_in_a_row(game):
    actions = [Clue(1), Touch(0), Touch(17), Clue(0), Touch(9), Touch(10), EndTurn(), Penalty(), Touch(11)]
    states = [game.state()]
    for action in actions:
        game.play(action)
        states.append(game.state())
    for action in reversed(actions):
        states.pop()
        assert game.undo() == [Undone(action)]
        assert game.state() == states[-1]
    assert game.actions == []
    assert game.state() == new_game(game.key).state()


def test_undo_with_nothing_to_undo(game, assert_rejected):
    error = assert_rejected(game, Undo(), NothingToUndo, "nothing_to_undo")
    assert isinstance(error, IllegalAction)
    with pytest.raises(NothingToUndo):
        game.undo()


def test_undo_everything_then_nothing_left(game, play_all):
    play_all(game, Clue(1), Touch(0))
    game.undo()
    game.undo()
    with pytest.raises(NothingToUndo):
        game.undo()


def test_undo_restores_the_guess_phase_after_a_turn_ending_guess(game, play_all):
    play_all(game, Clue(3), Touch(0))
    game.play(Touch(17))
    assert game.state()["turn"] == "blue"
    game.undo()
    state = game.state()
    assert state["phase"] == "guess" and state["turn"] == "red"
    assert state["clue"] == 3 and state["guesses_made"] == 1 and state["guesses_left"] == 3


def test_undo_restores_the_clue_phase(game):
    game.play(Clue(5))
    game.undo()
    state = game.state()
    assert state["phase"] == "clue" and state["clue"] is None and state["guesses_left"] is None


def test_undo_of_a_cover_restores_the_cover_phase(game, play_all):
    play_all(game, Penalty(), Touch(12))
    game.undo()
    state = game.state()
    assert state["phase"] == "cover" and state["turn"] == "blue"
    assert state["covered"] == [] and state["revealed"] == []
    assert state["remaining"]["blue"] == 8


def test_undo_of_a_cover_skip_restores_the_cover_phase(game, play_all):
    play_all(game, Penalty(), EndTurn())
    game.undo()
    assert game.state()["phase"] == "cover"


def test_undo_of_a_penalty_restores_the_guess(game, play_all):
    play_all(game, Clue(2), Touch(0))
    before = game.state()
    game.play(Penalty())
    game.undo()
    assert game.state() == before


def test_undo_of_a_timeout(game):
    before = game.state()
    game.play(Timeout())
    game.undo()
    assert game.state() == before


def test_undo_of_a_winning_cover(game, play_all):
    play_all(game, Clue(1), Touch(17), Clue(0), *[Touch(tile) for tile in range(9, 16)], EndTurn(), Penalty())
    before = game.state()
    game.play(Touch(16))
    assert game.state()["winner"] == "blue"
    game.undo()
    assert game.state() == before


def test_rejected_actions_are_not_undone(game, play_all):
    play_all(game, Clue(2), Touch(0))
    with pytest.raises(IllegalAction):
        game.play(Touch(0))
    assert game.undo() == [Undone(Touch(0))]  # the rejected touch left no trace


def test_undo_in_duo_restores_the_mandatory_cover(duo, play_all):
    play_all(duo, Clue(1), Touch(17))
    before = duo.state()
    duo.play(Touch(9))
    assert duo.state()["phase"] == "clue"
    duo.undo()
    assert duo.state() == before
    assert duo.state()["phase"] == "cover" and duo.state()["turn"] == "blue"


def test_undo_of_a_duo_win_removes_the_score(duo, play_all):
    play_all(duo, Clue(UNLIMITED), *[Touch(tile) for tile in range(8)])
    before = duo.state()
    duo.play(Touch(8))
    assert duo.state()["score"] == 8
    duo.undo()
    assert duo.state() == before
    assert duo.state()["score"] is None


def test_undo_then_a_different_action(game, play_all):
    play_all(game, Clue(2), Touch(ASSASSIN), Undo(), Touch(0))
    assert game.actions == [Clue(2), Touch(0)]
    assert game.state()["revealed"] == [0]
    assert not game.is_over


def test_undo_replays_nothing_however_long_the_game(game, monkeypatch):
    # A long evening of clues and timeouts: undo must restore the saved state, not replay the stack.
    for _ in range(2000):
        game.play(Clue(1))
        game.play(Timeout())
    state = game.state()
    game.play(Clue(3))
    calls = []
    for name in ("_clue", "_touch", "_timeout", "_end_turn", "_penalty", "_restart"):
        monkeypatch.setattr(game, name, lambda *args, _name=name: calls.append(_name))
    assert game.undo() == [Undone(Clue(3))]
    assert calls == []
    assert game.state() == state
    assert len(game.actions) == 4000


def test_every_change_counts_a_new_version(game):
    versions = [game.version]
    game.play(Clue(2))
    versions.append(game.version)
    with pytest.raises(IllegalAction):
        game.play(Clue(2))  # refused: no change
    versions.append(game.version)
    game.undo()
    versions.append(game.version)
    assert versions == [0, 1, 1, 2]


def test_a_copy_goes_its_own_way(game):
    game.play(Clue(2))
    game.play(Touch(0))
    twin = game.copy()
    game.play(Touch(17))  # the original goes on ...
    assert twin.state()["revealed"] == [0]  # ... the copy does not see it
    assert twin.version == 2
    assert twin.undo() == [Undone(Touch(0))]
    assert game.state()["revealed"] == [0, 17]
    assert type(twin) is type(game)
