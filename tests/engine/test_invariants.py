"""Property tests: random games (legal and arbitrary actions) keep the engine's invariants."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenames_board.engine import (
    UNLIMITED,
    Clue,
    EndTurn,
    Identity,
    IllegalAction,
    Key,
    Penalty,
    Team,
    Timeout,
    Touch,
    Undo,
    Undone,
    new_game,
)

ARBITRARY_ACTIONS = st.one_of(
    st.builds(Touch, st.integers(0, 24)),
    st.builds(Clue, st.one_of(st.integers(-1, 11), st.just(UNLIMITED))),
    st.sampled_from([EndTurn(), Timeout(), Penalty(), Undo()]),
)


def helpful_actions(game):
    """Legal actions that move the game towards a win by agents (so random games also end that way)."""
    legal = game.legal_actions()
    own = [Touch(tile) for tile in game.key.agents(game.turn) if Touch(tile) in legal]
    if game.phase.value == "clue":
        return [Clue(UNLIMITED)]
    return own or legal


def rebuild(game):
    """A fresh game of the same variant and key with the standing actions replayed."""
    copy = new_game(game.key, game.variant)
    for action in game.actions:
        copy.play(action)
    return copy


def check_invariants(game):
    state = game.state()
    key = game.key
    assert state["key"] == key.letters
    assert state["variant"] == game.variant
    assert state["actions"] == len(game.actions)

    revealed = state["revealed"]
    assert len(revealed) == len(set(revealed)), "revealed has duplicates"
    assert all(0 <= tile < 25 for tile in revealed)
    assert set(state["covered"]) <= set(revealed), "covered is not a subset of revealed"
    assert len(state["covered"]) == len(set(state["covered"]))

    for team in Team:
        shown = sum(1 for tile in revealed if key[tile] is team.identity)
        remaining = state["remaining"][team.value]
        assert remaining >= 0
        assert remaining == len(key.agents(team)) - shown

    over = state["phase"] == "over"
    assert over == (game.outcome is not None) == (state["winner"] is not None)
    assert (state["reason"] is None) == (state["winner"] is None)
    assassin_shown = any(key[tile] is Identity.ASSASSIN for tile in revealed)
    if over:
        winner, loser = Team(state["winner"]), Team(state["winner"]).other
        if state["reason"] == "assassin":
            assert assassin_shown
        else:
            assert state["reason"] == "agents"
            assert not assassin_shown
            # exactly one team has no agents left: at most one winner
            zero = [team for team in Team if state["remaining"][team.value] == 0]
            assert len(zero) == 1
            if game.variant == "classic" or winner is key.start:
                assert zero == [winner]
            else:  # duo: the shadow team wins when its own agents are all gone
                assert zero == [winner] and state["remaining"][loser.value] > 0
        assert game.legal_actions() == [Undo()]
    else:
        assert not assassin_shown
        assert all(state["remaining"][team.value] > 0 for team in Team)

    if state["phase"] == "guess":
        assert state["clue"] is not None
        assert state["guesses_left"] is None or state["guesses_left"] >= 1
    elif state["phase"] in ("clue", "cover"):
        assert state["clue"] is None and state["guesses_made"] == 0
        assert state["guesses_left"] is None
    else:  # over: the last clue may still show, but no guess is left
        assert state["guesses_left"] is None

    if game.variant == "duo":
        players = key.start
        if state["phase"] in ("clue", "guess"):
            assert state["turn"] == players.value
        if state["phase"] == "cover":
            assert state["turn"] == players.other.value
        if over and state["winner"] == players.value:
            assert state["score"] in range(1, 9)
            assert state["score"] == state["remaining"][players.other.value]
        else:
            assert state["score"] is None
    else:
        assert state["score"] is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["classic", "duo"]),
    steps=st.integers(0, 60),
    data=st.data(),
)
def test_random_games_keep_the_invariants(seed, variant, steps, data):
    key = Key.generate(seed)
    game = new_game(key, variant)
    history = [game.state()]  # history[i]: the state after i standing actions
    check_invariants(game)
    for _ in range(steps):
        legal = game.legal_actions()
        kind = data.draw(st.sampled_from(["arbitrary", "legal", "legal", "helpful"]), label="kind")
        if kind == "arbitrary":
            action = data.draw(ARBITRARY_ACTIONS, label="arbitrary action")
        elif kind == "legal":
            action = data.draw(st.sampled_from(legal), label="legal action")
        else:
            action = data.draw(st.sampled_from(helpful_actions(game)), label="helpful action")
        before = game.state()
        actions_before = list(game.actions)
        try:
            events = game.play(action)
        except IllegalAction:
            assert action not in legal, f"{action} was listed as legal but rejected"
            assert game.state() == before, "a rejected action changed the state"
            assert game.actions == actions_before
            continue
        assert action in legal, f"{action} was accepted but not listed as legal"

        if isinstance(action, Undo):
            assert events == [Undone(actions_before[-1])]
            history.pop()
            assert game.state() == history[-1], "undo did not restore the previous state"
        else:
            assert game.actions == actions_before + [action]
            history.append(game.state())
            # undo on a rebuilt copy restores the exact previous state
            copy = rebuild(game)
            assert copy.undo() == [Undone(action)]
            assert copy.state() == before

        check_invariants(game)
        assert rebuild(game).state() == game.state(), "replaying the actions gives another state"
        assert len(history) == len(game.actions) + 1


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_generated_keys_round_trip(seed):
    key = Key.generate(seed)
    assert Key.from_text(key.text()) == key
    assert Key.from_text(key.letters) == key
