"""The classic rules: phases, clues, guesses, turn ends, wins, penalty covers, rejections, events.

Key (conftest): red starts; red agents 0-8, blue agents 9-16, bystanders 17-23, assassin 24.
"""

from __future__ import annotations

import json

import pytest

from codenames_board.engine import (
    MAX_CLUE,
    UNLIMITED,
    AlreadyRevealed,
    Clue,
    ClueGiven,
    CoverSkipped,
    EndTurn,
    GameIsOver,
    GameOver,
    Identity,
    IllegalAction,
    NoClue,
    NotOwnAgent,
    Outcome,
    Penalty,
    Phase,
    Reason,
    Team,
    TileCovered,
    TileRevealed,
    Timeout,
    Touch,
    TurnEnd,
    TurnEnded,
    Undo,
    Undone,
    new_game,
)

RED = list(range(0, 9))
BLUE = list(range(9, 17))
BYSTANDERS = list(range(17, 24))
ASSASSIN = 24

RED_T, BLUE_T = Team.RED, Team.BLUE


def every_candidate_action():
    """Every action worth trying: all tiles, clue numbers in and out of range, the buttons."""
    return (
        [Touch(tile) for tile in range(25)]
        + [Clue(count) for count in range(-1, MAX_CLUE + 3)]
        + [Clue(UNLIMITED), EndTurn(), Timeout(), Penalty(), Undo()]
    )


# --- phases and clues


def test_new_game_starts_in_clue_phase_for_start_team(game):
    state = game.state()
    assert state["phase"] == "clue"
    assert state["turn"] == "red"
    assert state["variant"] == "classic"
    assert state["clue"] is None
    assert state["revealed"] == [] and state["covered"] == []
    assert state["remaining"] == {"red": 9, "blue": 8}
    assert state["winner"] is None and state["reason"] is None and state["score"] is None
    assert state["actions"] == 0
    assert game.phase is Phase.CLUE and not game.is_over


def test_blue_key_starts_with_blue(blue_key):
    game = new_game(blue_key)
    assert game.state()["turn"] == "blue"
    assert game.state()["remaining"] == {"red": 8, "blue": 9}


def test_state_is_plain_json(game, play_all):
    play_all(game, Clue(2), Touch(0))
    assert json.loads(json.dumps(game.state())) == game.state()


def test_clue_starts_the_guess_phase(game):
    events = game.play(Clue(2))
    assert events == [ClueGiven(RED_T, 2)]
    state = game.state()
    assert state["phase"] == "guess"
    assert state["turn"] == "red"
    assert state["clue"] == 2
    assert state["guesses_made"] == 0


@pytest.mark.parametrize("count", range(1, MAX_CLUE + 1))
def test_clue_n_allows_n_plus_one_guesses(game, count):
    game.play(Clue(count))
    assert game.state()["guesses_left"] == count + 1


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7])
def test_using_up_the_n_plus_one_guesses_ends_the_turn(game, count):
    game.play(Clue(count))
    for tile in RED[:count]:
        assert game.play(Touch(tile)) == [TileRevealed(tile, Identity.RED, RED_T)]
        assert game.state()["phase"] == "guess"
    last = RED[count]
    events = game.play(Touch(last))
    assert events == [TileRevealed(last, Identity.RED, RED_T), TurnEnded(RED_T, TurnEnd.LIMIT)]
    assert game.state()["turn"] == "blue"
    assert game.state()["phase"] == "clue"
    assert game.state()["guesses_left"] is None


@pytest.mark.parametrize("count", [0, UNLIMITED])
def test_clue_zero_and_unlimited_have_no_limit(game, play_all, count):
    game.play(Clue(count))
    assert game.state()["guesses_left"] is None
    play_all(game, *[Touch(tile) for tile in RED[:8]])  # eight right guesses, more than 0+1
    state = game.state()
    assert state["phase"] == "guess"
    assert state["turn"] == "red"
    assert state["guesses_made"] == 8
    assert state["guesses_left"] is None


@pytest.mark.parametrize("count", [0, UNLIMITED])
def test_clue_zero_and_unlimited_still_need_one_guess(game, assert_rejected, count):
    game.play(Clue(count))
    assert_rejected(game, EndTurn(), IllegalAction, "no_guess_yet")


@pytest.mark.parametrize("count", [10, 11, -1, "x", "9", True, False, 1.0, None, "UNLIMITED"])
def test_clue_out_of_range_rejected(game, assert_rejected, count):
    error = assert_rejected(game, Clue(count), IllegalAction, "clue_range")
    assert "0-9 or unlimited" in str(error)


def test_clue_during_guess_phase_rejected(game, assert_rejected):
    game.play(Clue(2))
    assert_rejected(game, Clue(3), IllegalAction, "clue_given")
    game.play(Touch(0))
    assert_rejected(game, Clue(1), IllegalAction, "clue_given")


# --- guesses


def test_end_turn_needs_at_least_one_guess(game, assert_rejected):
    game.play(Clue(2))
    error = assert_rejected(game, EndTurn(), IllegalAction, "no_guess_yet")
    assert "at least one guess" in str(error)


def test_end_turn_after_a_guess_passes_the_turn(game, play_all):
    play_all(game, Clue(2), Touch(0))
    events = game.play(EndTurn())
    assert events == [TurnEnded(RED_T, TurnEnd.END_TURN)]
    state = game.state()
    assert state["turn"] == "blue" and state["phase"] == "clue"
    assert state["clue"] is None and state["guesses_made"] == 0


def test_end_turn_in_clue_phase_rejected(game, assert_rejected):
    assert_rejected(game, EndTurn(), NoClue, "no_clue")


def test_own_agent_continues_the_turn(game):
    game.play(Clue(2))
    events = game.play(Touch(3))
    assert events == [TileRevealed(3, Identity.RED, RED_T)]
    state = game.state()
    assert state["phase"] == "guess" and state["turn"] == "red"
    assert state["guesses_made"] == 1
    assert state["guesses_left"] == 2
    assert state["revealed"] == [3]
    assert state["remaining"] == {"red": 8, "blue": 8}


def test_bystander_ends_the_turn(game):
    game.play(Clue(2))
    events = game.play(Touch(17))
    assert events == [TileRevealed(17, Identity.BYSTANDER, RED_T), TurnEnded(RED_T, TurnEnd.BYSTANDER)]
    state = game.state()
    assert state["turn"] == "blue" and state["phase"] == "clue"
    assert state["revealed"] == [17]
    assert state["remaining"] == {"red": 9, "blue": 8}


def test_opponents_agent_ends_the_turn(game):
    game.play(Clue(2))
    events = game.play(Touch(9))
    assert events == [TileRevealed(9, Identity.BLUE, RED_T), TurnEnded(RED_T, TurnEnd.OPPONENT)]
    state = game.state()
    assert state["turn"] == "blue" and state["phase"] == "clue"
    assert state["remaining"] == {"red": 9, "blue": 7}  # it counts for blue


def test_blue_team_plays_by_the_same_rules(game, play_all):
    play_all(game, Clue(1), Touch(17))  # red ends on a bystander
    assert game.play(Clue(1)) == [ClueGiven(BLUE_T, 1)]
    assert game.play(Touch(9)) == [TileRevealed(9, Identity.BLUE, BLUE_T)]
    events = game.play(Touch(0))
    assert events == [TileRevealed(0, Identity.RED, BLUE_T), TurnEnded(BLUE_T, TurnEnd.OPPONENT)]
    assert game.state()["turn"] == "red"


def test_assassin_ends_the_game_and_touching_team_loses(game):
    game.play(Clue(2))
    events = game.play(Touch(ASSASSIN))
    outcome = Outcome(BLUE_T, Reason.ASSASSIN)
    assert events == [TileRevealed(ASSASSIN, Identity.ASSASSIN, RED_T), GameOver(outcome)]
    assert game.outcome == outcome
    state = game.state()
    assert state["phase"] == "over"
    assert state["winner"] == "blue" and state["reason"] == "assassin" and state["score"] is None
    assert game.is_over


def test_assassin_on_blue_turn_makes_red_win(game, play_all):
    play_all(game, Clue(1), Touch(17), Clue(1))
    events = game.play(Touch(ASSASSIN))
    assert events[-1] == GameOver(Outcome(RED_T, Reason.ASSASSIN))
    assert game.state()["winner"] == "red"


def test_team_wins_the_moment_its_last_agent_is_revealed(game, play_all):
    game.play(Clue(UNLIMITED))
    play_all(game, *[Touch(tile) for tile in RED[:8]])
    assert not game.is_over
    events = game.play(Touch(RED[8]))
    assert events == [TileRevealed(RED[8], Identity.RED, RED_T), GameOver(Outcome(RED_T, Reason.AGENTS))]
    state = game.state()
    assert state["phase"] == "over" and state["winner"] == "red" and state["reason"] == "agents"
    assert state["remaining"]["red"] == 0


def test_last_agent_on_the_final_allowed_guess_wins_rather_than_ending_turn(game, play_all):
    play_all(game, Clue(7), *[Touch(tile) for tile in RED[:7]])
    play_all(game, EndTurn(), Clue(1), Touch(17))  # blue misses
    game.play(Clue(1))
    game.play(Touch(RED[7]))
    events = game.play(Touch(RED[8]))  # the second of 1+1 guesses and the last red agent
    assert TurnEnded(RED_T, TurnEnd.LIMIT) not in events
    assert events[-1] == GameOver(Outcome(RED_T, Reason.AGENTS))


def test_team_wins_when_the_other_team_reveals_its_last_agent(game, play_all):
    play_all(game, Clue(1), Touch(9))  # red touches a blue agent: 7 blue left
    play_all(game, Clue(0), *[Touch(tile) for tile in range(10, 16)], EndTurn())  # blue finds 6: 1 left
    assert game.state()["remaining"] == {"red": 9, "blue": 1}
    game.play(Clue(1))
    events = game.play(Touch(16))  # red touches blue's last agent on red's own turn
    assert events == [TileRevealed(16, Identity.BLUE, RED_T), GameOver(Outcome(BLUE_T, Reason.AGENTS))]
    assert game.state()["winner"] == "blue"
    assert game.state()["phase"] == "over"


def test_winning_by_a_cover(game, play_all):
    play_all(game, Clue(1), Touch(17))  # red misses
    play_all(game, Clue(0), *[Touch(tile) for tile in range(9, 16)], EndTurn())  # blue: 1 left
    game.play(Penalty())  # red's clue is illegal: blue may cover
    events = game.play(Touch(16))
    assert events == [TileCovered(16, Identity.BLUE, BLUE_T), GameOver(Outcome(BLUE_T, Reason.AGENTS))]
    state = game.state()
    assert state["winner"] == "blue" and state["reason"] == "agents" and state["phase"] == "over"
    assert state["covered"] == [16]


# --- the rulebook's worked example


def test_rulebook_example_clue_two_first_guess_bystander_ends_turn(game):
    game.play(Clue(2))
    events = game.play(Touch(17))
    assert events[-1] == TurnEnded(RED_T, TurnEnd.BYSTANDER)
    assert game.state()["turn"] == "blue"
    assert game.state()["revealed"] == [17]  # one guess only


def test_rulebook_example_clue_three_three_right_leaves_one_extra_guess(game, play_all):
    play_all(game, Clue(2), Touch(17))  # red: bystander at once
    play_all(game, Clue(1), Touch(18))  # blue: bystander
    play_all(game, Clue(3), Touch(0), Touch(1), Touch(2))
    state = game.state()
    assert state["phase"] == "guess" and state["turn"] == "red"
    assert state["guesses_made"] == 3
    assert state["guesses_left"] == 1


def test_rulebook_example_extra_guess_may_be_used(game, play_all):
    play_all(game, Clue(2), Touch(17), Clue(1), Touch(18), Clue(3), Touch(0), Touch(1), Touch(2))
    events = game.play(Touch(3))
    assert events == [TileRevealed(3, Identity.RED, RED_T), TurnEnded(RED_T, TurnEnd.LIMIT)]
    assert game.state()["turn"] == "blue"


def test_rulebook_example_extra_guess_may_be_left(game, play_all):
    play_all(game, Clue(2), Touch(17), Clue(1), Touch(18), Clue(3), Touch(0), Touch(1), Touch(2))
    events = game.play(EndTurn())
    assert events == [TurnEnded(RED_T, TurnEnd.END_TURN)]
    assert game.state()["turn"] == "blue"
    assert game.state()["remaining"]["red"] == 6


# --- the sand timer


def test_timeout_ends_the_guessing_turn_even_before_the_first_guess(game):
    game.play(Clue(2))
    events = game.play(Timeout())
    assert events == [TurnEnded(RED_T, TurnEnd.TIMEOUT)]
    state = game.state()
    assert state["turn"] == "blue" and state["phase"] == "clue" and state["revealed"] == []


def test_timeout_ends_the_guessing_turn_after_guesses(game, play_all):
    play_all(game, Clue(3), Touch(0))
    assert game.play(Timeout()) == [TurnEnded(RED_T, TurnEnd.TIMEOUT)]
    assert game.state()["turn"] == "blue"


def test_timeout_in_clue_phase_ends_the_turn(game):
    events = game.play(Timeout())
    assert events == [TurnEnded(RED_T, TurnEnd.TIMEOUT)]
    assert game.state()["turn"] == "blue" and game.state()["phase"] == "clue"


def test_timeout_in_cover_phase_rejected(game, assert_rejected):
    game.play(Penalty())
    assert_rejected(game, Timeout(), IllegalAction, "no_timer_in_cover")


# --- penalty and the cover


def test_penalty_in_clue_phase_ends_turn_and_other_team_covers(game):
    events = game.play(Penalty())
    assert events == [TurnEnded(RED_T, TurnEnd.PENALTY)]
    state = game.state()
    assert state["phase"] == "cover"
    assert state["turn"] == "blue"


def test_penalty_in_guess_phase_ends_turn_at_once(game, play_all):
    play_all(game, Clue(3), Touch(0))
    events = game.play(Penalty())
    assert events == [TurnEnded(RED_T, TurnEnd.PENALTY)]
    state = game.state()
    assert state["phase"] == "cover" and state["turn"] == "blue"
    assert state["clue"] is None and state["guesses_left"] is None and state["guesses_made"] == 0
    assert state["revealed"] == [0]


def test_cover_own_unrevealed_agent(game):
    game.play(Penalty())
    events = game.play(Touch(12))
    assert events == [TileCovered(12, Identity.BLUE, BLUE_T)]
    state = game.state()
    assert 12 in state["covered"] and 12 in state["revealed"]
    assert state["remaining"] == {"red": 9, "blue": 7}
    assert game.is_revealed(12)


def test_after_cover_the_covering_team_gives_its_clue(game, play_all):
    play_all(game, Penalty(), Touch(12))
    state = game.state()
    assert state["phase"] == "clue" and state["turn"] == "blue"
    assert game.play(Clue(1)) == [ClueGiven(BLUE_T, 1)]


def test_cover_may_be_skipped_with_end_turn(game):
    game.play(Penalty())
    events = game.play(EndTurn())
    assert events == [CoverSkipped(BLUE_T)]
    state = game.state()
    assert state["phase"] == "clue" and state["turn"] == "blue"
    assert state["revealed"] == [] and state["covered"] == []
    assert state["remaining"] == {"red": 9, "blue": 8}


def test_blue_penalty_lets_red_cover(game, play_all):
    play_all(game, Clue(1), Touch(17), Clue(2))
    assert game.play(Penalty()) == [TurnEnded(BLUE_T, TurnEnd.PENALTY)]
    assert game.play(Touch(4)) == [TileCovered(4, Identity.RED, RED_T)]
    assert game.state()["turn"] == "red" and game.state()["phase"] == "clue"


@pytest.mark.parametrize("tile", [0, 8, 17, 23, ASSASSIN])  # red agents, bystanders, the assassin
def test_cover_of_a_tile_that_is_not_own_agent_rejected(game, assert_rejected, tile):
    game.play(Penalty())
    error = assert_rejected(game, Touch(tile), NotOwnAgent, "not_own_agent")
    assert "blue" in str(error)


def test_cover_of_own_revealed_agent_rejected(game, play_all, assert_rejected):
    play_all(game, Clue(1), Touch(9))  # red reveals blue's agent 9
    play_all(game, Clue(1), Touch(17), Clue(1))  # blue misses, red gives a clue
    game.play(Penalty())  # ...which was illegal
    assert_rejected(game, Touch(9), AlreadyRevealed, "tile_revealed")


def test_penalty_in_cover_phase_rejected(game, assert_rejected):
    game.play(Penalty())
    assert_rejected(game, Penalty(), IllegalAction, "penalty_phase")


def test_clue_in_cover_phase_rejected(game, assert_rejected):
    game.play(Penalty())
    assert_rejected(game, Clue(2), IllegalAction, "cover_pending")


# --- rejections leave the game unchanged


def test_touching_a_revealed_tile_rejected(game, play_all, assert_rejected):
    play_all(game, Clue(3), Touch(0))
    error = assert_rejected(game, Touch(0), AlreadyRevealed, "tile_revealed")
    assert "A1" in str(error)


def test_touching_in_clue_phase_rejected(game, assert_rejected):
    assert_rejected(game, Touch(0), NoClue, "no_clue")


@pytest.mark.parametrize("tile", [-1, 25, 100, "3", 1.0, True, None])
def test_tile_out_of_range_rejected(game, assert_rejected, tile):
    game.play(Clue(2))
    assert_rejected(game, Touch(tile), IllegalAction, "tile_range")


def test_not_an_action_raises_type_error(game):
    with pytest.raises(TypeError):
        game.play("touch 3")
    assert game.actions == []


def test_rejected_action_is_not_recorded(game, assert_rejected):
    game.play(Clue(2))
    assert_rejected(game, Clue(5), IllegalAction)
    assert game.actions == [Clue(2)]


@pytest.mark.parametrize(
    "action", [Clue(1), Clue(UNLIMITED), Touch(0), Touch(17), Touch(24), EndTurn(), Timeout(), Penalty()]
)
def test_everything_after_game_over_rejected_except_undo(game, assert_rejected, action):
    game.play(Clue(1))
    game.play(Touch(ASSASSIN))
    error = assert_rejected(game, action, GameIsOver, "game_over")
    assert "game is over" in str(error)
    assert game.play(Undo()) == [Undone(Touch(ASSASSIN))]  # undo is still allowed ...
    assert game.state()["phase"] == "guess"  # ... and reopens the game


# --- events of a whole sequence


def test_events_of_a_sequence_of_turns(game, play_all):
    events = play_all(game, Clue(1), Touch(0), Touch(9))
    assert events == [
        ClueGiven(RED_T, 1),
        TileRevealed(0, Identity.RED, RED_T),
        TileRevealed(9, Identity.BLUE, RED_T),
        TurnEnded(RED_T, TurnEnd.OPPONENT),
    ]
    events = play_all(game, Clue(UNLIMITED), Touch(10), Touch(18))
    assert events == [
        ClueGiven(BLUE_T, UNLIMITED),
        TileRevealed(10, Identity.BLUE, BLUE_T),
        TileRevealed(18, Identity.BYSTANDER, BLUE_T),
        TurnEnded(BLUE_T, TurnEnd.BYSTANDER),
    ]
    events = play_all(game, Penalty(), Touch(11), Clue(0), Touch(24))
    assert events == [
        TurnEnded(RED_T, TurnEnd.PENALTY),
        TileCovered(11, Identity.BLUE, BLUE_T),
        ClueGiven(BLUE_T, 0),
        TileRevealed(24, Identity.ASSASSIN, BLUE_T),
        GameOver(Outcome(RED_T, Reason.ASSASSIN)),
    ]
    assert game.state()["revealed"] == [0, 9, 10, 18, 11, 24]
    assert game.state()["covered"] == [11]


# --- legal actions


POSITIONS = {  # actions reaching each kind of position on the fixed key
    "new game": [],
    "guess before first guess": [Clue(2)],
    "guess after a guess": [Clue(2), Touch(0)],
    "guess, no limit": [Clue(UNLIMITED), Touch(0), Touch(1)],
    "blue clue": [Clue(1), Touch(17)],
    "cover": [Penalty()],
    "cover with revealed agents": [Clue(1), Touch(9), Clue(1), Touch(10), Touch(17), Penalty()],
    "after cover": [Penalty(), Touch(12)],
    "over, assassin": [Clue(1), Touch(24)],
    "over, agents": [Clue(UNLIMITED)] + [Touch(tile) for tile in RED],
}


@pytest.mark.parametrize("position", list(POSITIONS))
def test_legal_actions_are_exactly_the_accepted_ones(key, play_all, position):
    actions = POSITIONS[position]
    game = new_game(key)
    play_all(game, *actions)
    legal = game.legal_actions()
    assert legal, "there is always something to do (at least undo)"
    for action in every_candidate_action():
        copy = new_game(key)
        play_all(copy, *actions)
        before = copy.state()
        if action in legal:
            copy.play(action)  # accepted
        else:
            with pytest.raises(IllegalAction):
                copy.play(action)
            assert copy.state() == before


def test_legal_actions_by_phase(game, play_all):
    assert EndTurn() not in game.legal_actions()
    assert Undo() not in game.legal_actions()
    assert all(not isinstance(action, Touch) for action in game.legal_actions())
    game.play(Clue(2))
    assert EndTurn() not in game.legal_actions()
    assert {a.tile for a in game.legal_actions() if isinstance(a, Touch)} == set(range(25))
    game.play(Touch(0))
    assert EndTurn() in game.legal_actions()
    assert Touch(0) not in game.legal_actions()
    play_all(game, EndTurn(), Penalty())  # blue's illegal clue: red covers
    assert set(game.legal_actions()) == {Touch(tile) for tile in RED[1:]} | {EndTurn(), Undo()}
    play_all(game, EndTurn(), Clue(1), Touch(24))
    assert game.legal_actions() == [Undo()]
