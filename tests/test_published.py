"""The published state: immutable snapshots, and a public part from which no key can be reached."""

import dataclasses
import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codenames_board.engine import Clue, GameView, Identity, Key, Team, TileRevealed, Touch, new_game
from codenames_board.published import (
    Output,
    Outputs,
    PublicState,
    Publisher,
    TableState,
    TouchRefused,
    public_state,
)
from codenames_board.ui import UiState

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"


def reachable(root):
    """Every object reachable from ``root`` (through attributes, tuples, dicts ...), modules aside."""
    seen, stack = {}, [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type) or type(item).__name__ == "module":
            continue
        seen[id(item)] = item
        stack += gc.get_referents(item)
    return list(seen.values())


def played(key, choices, variant="classic"):
    """A game on ``key`` after a run of legal actions picked by ``choices`` (indexes into the legal ones)."""
    game = new_game(key, variant)
    game.history = []  # every action played, undos included
    for choice in choices:
        legal = game.legal_actions()
        if not legal or game.is_over:
            break
        game.history.append(legal[choice % len(legal)])
        game.play(game.history[-1])
    return game


def twin_key(key, game):
    """Another valid key that agrees with ``key`` on every tile ever touched: two untouched tiles of
    different identities swapped (None when no such pair is left)."""
    touched = {action.tile for action in game.history if isinstance(action, Touch)}
    hidden = [tile for tile in range(25) if tile not in touched]
    for first in hidden:
        for second in hidden:
            if key[first] is not key[second]:
                identities = list(key.identities)
                identities[first], identities[second] = identities[second], identities[first]
                return Key(tuple(identities), key.start)
    return None


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 60), max_size=40), variant=st.sampled_from(["classic", "duo"]))
def test_two_keys_that_agree_on_the_revealed_tiles_publish_the_same_public_state(seed, choices, variant):
    key = Key.generate(seed)
    game = played(key, choices, variant)
    other_key = twin_key(key, game)
    if other_key is None:
        return
    # The same actions on the other key: clues, ends of turn, undos and the same (revealed) touches.
    twin = new_game(other_key, variant)
    for action in game.history:
        twin.play(action)
    ui = UiState()
    mine, theirs = (public_state(GameView.of(g), ui, None, 3) for g in (game, twin))
    if game.is_over:  # the tiles then show the whole key: so does the public state, and only that differs
        assert mine.key_after_game == key.letters and theirs.key_after_game == other_key.letters
        mine, theirs = (dataclasses.replace(state, key_after_game=None) for state in (mine, theirs))
    assert mine == theirs
    assert repr(mine) == repr(theirs)  # byte for byte, whatever a public output prints of it


def test_no_key_is_reachable_from_a_public_state_while_the_game_runs():
    key = Key.from_text(KEY)
    game = played(key, [0, 3, 5, 7])
    assert game.revealed and not game.is_over
    state = TableState(GameView.of(game), UiState(), tuple(f"w{i}" for i in range(25)), 1, 1)
    found = reachable(state.public)
    assert not [item for item in found if isinstance(item, Key)]
    hidden = [tile for tile in range(25) if not game.is_revealed(tile)]
    identities_of_hidden = {(tile, key[tile]) for tile in hidden}
    assert not identities_of_hidden & set(state.public.revealed)
    assert [item for item in reachable(state) if isinstance(item, Key)]  # the private part has it: the walk finds it


def test_public_outputs_get_only_the_public_state_and_private_ones_the_whole():
    got = {"private": [], "public": []}

    class Taking(Output):
        def __init__(self, side):
            self.side = side

        def show(self, state, now):
            got[self.side].append(state)

    outputs = Outputs()
    outputs.add_public(Taking("public"))
    outputs.add(Taking("private"))
    publisher = Publisher(outputs)
    game = new_game(Key.from_text(KEY))
    publisher.publish(game, UiState(), None, 1, now=0.0)
    assert type(got["public"][0]) is PublicState and type(got["private"][0]) is TableState
    assert not [item for item in reachable(got["public"][0]) if isinstance(item, Key)]


def test_a_snapshot_does_not_change_when_the_game_goes_on():
    game = new_game(Key.from_text(KEY))
    view = GameView.of(game)
    game.play(Clue(2))
    game.play(Touch(0))
    assert view.revealed == () and view.phase.value == "clue" and view.version == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.revealed = (1,)  # type: ignore[misc]
    assert GameView.of(game).revealed == (0,) and GameView.of(game).remaining(Team.RED) == 8


def test_a_state_is_published_on_change_and_events_once_and_time_alone_only_updates():
    calls = []

    class Noting(Output):
        def show(self, state, now):
            calls.append(("show", state.events, state.game.version))

        def update(self, now):
            calls.append(("update", now))

    publisher = Publisher(Outputs([Noting()]))
    game = new_game(Key.from_text(KEY))
    publisher.publish(game, UiState(), None, 1, 0.0)
    publisher.publish(game, UiState(), None, 1, 0.5)  # nothing changed: time passes
    publisher.events.append(TouchRefused(3))
    publisher.publish(game, UiState(), None, 1, 1.0)  # a cue alone is news
    publisher.publish(game, UiState(clue_draft=2), None, 1, 1.5)  # so is the panel
    assert calls == [
        ("show", (), 0), ("update", 0.5), ("show", (TouchRefused(3),), 0), ("show", (), 0),
    ]


def test_the_public_state_names_revealed_tiles_with_what_they_were():
    game = new_game(Key.from_text(KEY))
    game.play(Clue(1))
    events = game.play(Touch(17))  # a bystander
    assert events[0] == TileRevealed(17, Identity.BYSTANDER, Team.RED)
    public = public_state(GameView.of(game), UiState(), None, 4)
    assert public.revealed == ((17, Identity.BYSTANDER),) and public.turn is Team.BLUE
    assert public.agents_left == (9, 8) and public.key_after_game is None and public.number == 4
