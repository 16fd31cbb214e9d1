"""Fixtures for the engine tests.

The fixed key used throughout reads, row by row (tile numbers 0-24, row-major):

    R R R R R     tiles  0- 4  red agents
    R R R R B     tiles  5- 8  red agents, 9 blue
    B B B B B     tiles 10-14  blue agents
    B B N N N     tiles 15-16  blue agents, 17-19 bystanders
    N N N N A     tiles 20-23  bystanders, 24 the assassin

so red (9 agents) starts: red agents 0-8, blue agents 9-16, bystanders 17-23,
assassin 24. Helpers are fixtures (no importable helper module).
"""

from __future__ import annotations

import pytest

from codenames_board.engine import IllegalAction, Key, new_game

RED_START_TEXT = "RRRRR" "RRRRB" "BBBBB" "BBNNN" "NNNNA" ":red"
BLUE_START_TEXT = "BBBBB" "BBBBR" "RRRRR" "RRNNN" "NNNNA" ":blue"


@pytest.fixture
def key() -> Key:
    """Red starts; red 0-8, blue 9-16, bystanders 17-23, assassin 24."""
    return Key.from_text(RED_START_TEXT)


@pytest.fixture
def blue_key() -> Key:
    """Blue starts; blue 0-8, red 9-16, bystanders 17-23, assassin 24."""
    return Key.from_text(BLUE_START_TEXT)


@pytest.fixture
def game(key):
    """A classic game on the red-start key, nothing played yet."""
    return new_game(key)


@pytest.fixture
def duo(key):
    """A duo game on the red-start key: red plays, blue is the shadow team."""
    return new_game(key, "duo")


@pytest.fixture
def play_all():
    """play_all(game, *actions) -> every event, in order. Each action must be accepted."""

    def _play_all(game, *actions):
        events = []
        for action in actions:
            events += game.play(action)
        return events

    return _play_all


@pytest.fixture
def rebuild():
    """rebuild(game) -> a fresh game of the same variant and key with game.actions replayed."""

    def _rebuild(game):
        copy = new_game(game.key, game.variant)
        for action in game.actions:
            copy.play(action)
        return copy

    return _rebuild


@pytest.fixture
def assert_rejected():
    """assert_rejected(game, action, error, msgid=None) -> the error; checks that nothing changed."""

    def _assert_rejected(game, action, error=IllegalAction, msgid=None):
        before = game.state()
        actions_before = list(game.actions)
        with pytest.raises(error) as caught:
            game.play(action)
        assert isinstance(caught.value, IllegalAction)
        if msgid is not None:
            assert caught.value.msgid == msgid
        assert str(caught.value)  # a readable message
        assert game.state() == before
        assert game.actions == actions_before
        return caught.value

    return _assert_rejected
