"""The two-player variant: the players (the start team) against a shadow team.

Key (conftest): red starts, so red plays; red agents 0-8, shadow (blue) agents 9-16,
bystanders 17-23, assassin 24.
"""

from __future__ import annotations

import pytest

from codenames_board.engine import (
    DUO_SCORES,
    UNLIMITED,
    AlreadyRevealed,
    Clue,
    ClueGiven,
    DuoGame,
    EndTurn,
    GameIsOver,
    GameOver,
    Identity,
    IllegalAction,
    NotOwnAgent,
    Outcome,
    Penalty,
    Reason,
    Team,
    TileCovered,
    TileRevealed,
    Timeout,
    Touch,
    TurnEnd,
    TurnEnded,
    Undo,
    new_game,
)

RED = list(range(0, 9))  # the players' agents
SHADOW = list(range(9, 17))  # the shadow team's agents
BYSTANDERS = list(range(17, 24))
ASSASSIN = 24
PLAYERS_T, SHADOW_T = Team.RED, Team.BLUE

# Ways a players' turn can end (actions from the players' clue phase).
TURN_ENDINGS = {
    "bystander": ([Clue(2), Touch(17)], TurnEnd.BYSTANDER),
    "shadow agent": ([Clue(2), Touch(9)], TurnEnd.OPPONENT),
    "limit": ([Clue(1), Touch(0), Touch(1)], TurnEnd.LIMIT),
    "end turn": ([Clue(3), Touch(0), EndTurn()], TurnEnd.END_TURN),
    "timeout in guess": ([Clue(3), Timeout()], TurnEnd.TIMEOUT),
    "timeout in clue": ([Timeout()], TurnEnd.TIMEOUT),
    "penalty in clue": ([Penalty()], TurnEnd.PENALTY),
    "penalty in guess": ([Clue(3), Touch(0), Penalty()], TurnEnd.PENALTY),
}


def test_new_game_duo_is_a_duo_game(duo):
    assert isinstance(duo, DuoGame)
    assert duo.variant == "duo"
    state = duo.state()
    assert state["variant"] == "duo"
    assert state["phase"] == "clue" and state["turn"] == "red"


def test_players_are_the_start_team(duo, blue_key):
    assert duo.players is PLAYERS_T and duo.shadow is SHADOW_T
    blue = new_game(blue_key, "duo")
    assert blue.players is Team.BLUE and blue.shadow is Team.RED
    assert blue.state()["turn"] == "blue"


@pytest.mark.parametrize("ending", list(TURN_ENDINGS))
def test_after_every_players_turn_the_shadow_team_is_covered(duo, play_all, ending):
    actions, reason = TURN_ENDINGS[ending]
    events = play_all(duo, *actions)
    assert events[-1] == TurnEnded(PLAYERS_T, reason)
    state = duo.state()
    assert state["phase"] == "cover"
    assert state["turn"] == "blue"
    assert state["clue"] is None and state["guesses_left"] is None


def test_cover_is_mandatory_end_turn_rejected(duo, assert_rejected):
    duo.play(Timeout())
    error = assert_rejected(duo, EndTurn(), IllegalAction, "duo_cover_pending")
    assert "blue" in str(error)


def test_timeout_in_duo_cover_rejected(duo, assert_rejected):
    duo.play(Timeout())
    assert_rejected(duo, Timeout(), IllegalAction, "no_timer_in_cover")


def test_clue_in_duo_cover_rejected(duo, assert_rejected):
    duo.play(Timeout())
    assert_rejected(duo, Clue(2), IllegalAction, "duo_cover_pending")


def test_penalty_in_duo_cover_rejected(duo, assert_rejected):
    duo.play(Timeout())
    assert_rejected(duo, Penalty(), IllegalAction, "penalty_phase")


@pytest.mark.parametrize("tile", [0, 8, 17, ASSASSIN])  # players' agents, a bystander, the assassin
def test_cover_must_be_an_unrevealed_shadow_agent(duo, assert_rejected, tile):
    duo.play(Timeout())
    assert_rejected(duo, Touch(tile), NotOwnAgent, "not_own_agent")


def test_cover_of_a_revealed_shadow_agent_rejected(duo, play_all, assert_rejected):
    play_all(duo, Clue(1), Touch(9))  # players touch shadow agent 9
    assert_rejected(duo, Touch(9), AlreadyRevealed, "tile_revealed")


def test_cover_then_players_give_the_next_clue(duo, play_all):
    play_all(duo, Clue(2), Touch(17))
    events = duo.play(Touch(12))
    assert events == [TileCovered(12, Identity.BLUE, SHADOW_T)]
    state = duo.state()
    assert state["phase"] == "clue" and state["turn"] == "red"
    assert state["covered"] == [12] and 12 in state["revealed"]
    assert state["remaining"] == {"red": 9, "blue": 7}
    assert duo.play(Clue(1)) == [ClueGiven(PLAYERS_T, 1)]


def test_duo_legal_actions_in_cover(duo, play_all):
    play_all(duo, Clue(1), Touch(9))
    assert set(duo.legal_actions()) == {Touch(tile) for tile in SHADOW[1:]} | {Undo()}


def test_touching_a_shadow_agent_ends_the_turn(duo, play_all):
    events = play_all(duo, Clue(3), Touch(0), Touch(10))
    assert events[-2:] == [TileRevealed(10, Identity.BLUE, PLAYERS_T), TurnEnded(PLAYERS_T, TurnEnd.OPPONENT)]
    assert duo.state()["phase"] == "cover"
    assert duo.state()["remaining"] == {"red": 8, "blue": 7}


def test_penalty_in_duo_just_ends_the_turn_then_the_usual_cover(duo, play_all):
    events = play_all(duo, Clue(3), Touch(0), Penalty())
    assert events[-1] == TurnEnded(PLAYERS_T, TurnEnd.PENALTY)
    state = duo.state()
    assert state["phase"] == "cover" and state["turn"] == "blue"
    assert state["revealed"] == [0]  # no other penalty
    assert duo.play(Touch(9)) == [TileCovered(9, Identity.BLUE, SHADOW_T)]
    assert duo.state()["phase"] == "clue" and duo.state()["turn"] == "red"


def test_players_win_when_their_last_agent_is_revealed(duo, play_all):
    duo.play(Clue(UNLIMITED))
    events = play_all(duo, *[Touch(tile) for tile in RED])
    assert events[-1] == GameOver(Outcome(PLAYERS_T, Reason.AGENTS, score=8))
    state = duo.state()
    assert state["phase"] == "over"
    assert state["winner"] == "red" and state["reason"] == "agents" and state["score"] == 8


def test_score_is_the_shadow_agents_still_unrevealed(duo, play_all):
    play_all(duo, Clue(1), Touch(9), Touch(10))  # players touch a shadow agent; cover another
    play_all(duo, Timeout(), Touch(11))  # another cover
    play_all(duo, Clue(UNLIMITED), *[Touch(tile) for tile in RED])
    assert duo.outcome == Outcome(PLAYERS_T, Reason.AGENTS, score=5)
    assert duo.state()["score"] == 5


def test_lowest_winning_score_is_one(duo, play_all):
    for tile, shadow in zip(RED[:7], SHADOW[:7]):  # seven turns of one guess, seven covers
        play_all(duo, Clue(1), Touch(tile), EndTurn(), Touch(shadow))
    assert duo.state()["remaining"] == {"red": 2, "blue": 1}
    events = play_all(duo, Clue(1), Touch(7), Touch(8))
    assert events[-1] == GameOver(Outcome(PLAYERS_T, Reason.AGENTS, score=1))
    assert duo.state()["score"] in DUO_SCORES
    assert list(DUO_SCORES) == list(range(1, 9))


def test_players_lose_on_the_assassin(duo, play_all):
    events = play_all(duo, Clue(2), Touch(0), Touch(ASSASSIN))
    assert events[-2:] == [
        TileRevealed(ASSASSIN, Identity.ASSASSIN, PLAYERS_T),
        GameOver(Outcome(SHADOW_T, Reason.ASSASSIN)),
    ]
    state = duo.state()
    assert state["phase"] == "over"
    assert state["winner"] == "blue" and state["reason"] == "assassin" and state["score"] is None


def test_players_lose_when_every_shadow_agent_is_covered(duo, play_all):
    for shadow in SHADOW[:7]:
        play_all(duo, Timeout(), Touch(shadow))
    duo.play(Timeout())
    events = duo.play(Touch(SHADOW[7]))
    assert events == [TileCovered(SHADOW[7], Identity.BLUE, SHADOW_T), GameOver(Outcome(SHADOW_T, Reason.AGENTS))]
    state = duo.state()
    assert state["winner"] == "blue" and state["reason"] == "agents" and state["score"] is None
    assert state["covered"] == SHADOW
    assert state["phase"] == "over"


def test_players_lose_when_they_reveal_the_last_shadow_agent(duo, play_all):
    for shadow in SHADOW[:7]:
        play_all(duo, Timeout(), Touch(shadow))
    duo.play(Clue(2))
    events = duo.play(Touch(SHADOW[7]))
    assert events == [
        TileRevealed(SHADOW[7], Identity.BLUE, PLAYERS_T),
        GameOver(Outcome(SHADOW_T, Reason.AGENTS)),
    ]
    assert duo.state()["winner"] == "blue"
    assert duo.state()["score"] is None


def test_shadow_agents_revealed_and_covered_both_count(duo, play_all):
    # four turns: the players touch shadow agent 9, 10, 11, 12; the spymaster covers 13, 14, 15, 16
    for touched, covered in zip(SHADOW[:4], SHADOW[4:]):
        assert not duo.is_over
        play_all(duo, Clue(1), Touch(touched), Touch(covered))
    assert duo.outcome == Outcome(SHADOW_T, Reason.AGENTS)
    assert duo.state()["covered"] == SHADOW[4:]
    assert duo.state()["remaining"]["blue"] == 0


def test_nothing_after_duo_game_over_but_undo(duo, play_all, assert_rejected):
    play_all(duo, Clue(1), Touch(ASSASSIN))
    for action in [Clue(1), Touch(0), EndTurn(), Timeout(), Penalty()]:
        assert_rejected(duo, action, GameIsOver, "game_over")
    duo.play(Undo())
    assert duo.state()["phase"] == "guess"


def test_duo_with_blue_players(blue_key, play_all):
    # blue_key: blue agents 0-8 (players), red 9-16 (shadow)
    game = new_game(blue_key, "duo")
    events = play_all(game, Clue(1), Touch(0), Touch(9))
    assert events[-1] == TurnEnded(Team.BLUE, TurnEnd.OPPONENT)
    assert game.state()["turn"] == "red" and game.state()["phase"] == "cover"
    assert game.play(Touch(10)) == [TileCovered(10, Identity.RED, Team.RED)]
    assert game.state()["turn"] == "blue" and game.state()["phase"] == "clue"
