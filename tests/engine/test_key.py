"""The key card: identities, text form, validation, generation, tile names."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from codenames_board.engine import TILES, BadKey, Identity, Key, Team, parse_tile, tile_name

RED_START = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"
BLUE_START = "BBBBBBBBBRRRRRRRRNNNNNNNA:blue"
MIXED = "ANRBR" "BRNBR" "NRBNR" "BBRNB" "RNBNR:red"  # 9 R, 8 B, 7 N, 1 A, scattered


# --- identities


def test_key_has_25_identities_in_row_major_order():
    key = Key.from_text(MIXED)
    assert len(key.identities) == TILES == 25
    assert key.letters == MIXED.split(":")[0]
    assert key[0] is Identity.ASSASSIN  # A1, top left
    assert key[1] is Identity.BYSTANDER  # A2, same row, next column
    assert key[5] is Identity.BLUE  # B1, second row
    assert key[12] is Identity.BLUE  # C3, the centre
    assert key[24] is Identity.RED  # E5, bottom right
    assert list(key) == list(key.identities)


def test_start_team_has_nine_agents_and_other_team_eight():
    red = Key.from_text(RED_START)
    assert red.start is Team.RED
    assert red.agents(Team.RED) == list(range(0, 9))
    assert red.agents(Team.BLUE) == list(range(9, 17))
    blue = Key.from_text(BLUE_START)
    assert blue.start is Team.BLUE
    assert len(blue.agents(Team.BLUE)) == 9
    assert len(blue.agents(Team.RED)) == 8


def test_seven_bystanders_letter_n_and_one_assassin_letter_a():
    key = Key.from_text(MIXED)
    counts = Counter(key)
    assert counts[Identity.BYSTANDER] == 7
    assert counts[Identity.ASSASSIN] == 1
    assert Identity("N") is Identity.BYSTANDER
    assert Identity("A") is Identity.ASSASSIN
    assert key.letters.count("N") == 7
    assert key.letters.count("A") == 1


def test_identity_team():
    assert Identity.RED.team is Team.RED
    assert Identity.BLUE.team is Team.BLUE
    assert Identity.BYSTANDER.team is None
    assert Identity.ASSASSIN.team is None
    assert Team.RED.other is Team.BLUE and Team.BLUE.other is Team.RED


# --- text form


@pytest.mark.parametrize("text", [RED_START, BLUE_START, MIXED])
def test_text_form_round_trips(text):
    key = Key.from_text(text)
    assert key.text() == text
    assert str(key) == text
    assert Key.from_text(key.text()) == key


def test_generated_keys_round_trip_through_text():
    for seed in range(50):
        key = Key.generate(seed)
        assert Key.from_text(key.text()) == key


@pytest.mark.parametrize("text,start", [(RED_START, Team.RED), (BLUE_START, Team.BLUE), (MIXED, Team.RED)])
def test_start_team_derived_from_counts_when_team_omitted(text, start):
    letters = text.split(":")[0]
    key = Key.from_text(letters)
    assert key.start is start
    assert key == Key.from_text(text)


def test_lowercase_and_surrounding_space_accepted():
    assert Key.from_text("  " + RED_START.lower() + "\n") == Key.from_text(RED_START)
    assert Key.from_text(RED_START.replace(":red", ":RED")).start is Team.RED


def test_bad_key_is_a_value_error():
    assert issubclass(BadKey, ValueError)


@pytest.mark.parametrize("letters", ["", "R" * 24, RED_START[:24], RED_START[:25] + "N"])
def test_bad_length_raises_bad_key(letters):
    with pytest.raises(BadKey) as caught:
        Key.from_text(letters + ":red")
    assert caught.value.msgid == "key_length"
    assert "25 letters" in str(caught.value)
    assert f"this one has {len(letters)}" in str(caught.value)


@pytest.mark.parametrize("bad", ["X", "G", "1", "?"])
def test_bad_letter_raises_bad_key(bad):
    text = bad + RED_START[1:]
    with pytest.raises(BadKey) as caught:
        Key.from_text(text)
    assert caught.value.msgid == "key_letter"
    assert f'"{bad}"' in str(caught.value)
    assert "R, B, N and A" in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "RRRRRRRRBBBBBBBBBNNNNNNNA:red",  # 8 red, 9 blue but red claims the start
        "RRRRRRRRRBBBBBBBBNNNNNNNA:blue",  # blue claims the start with 8 agents
        "RRRRRRRRRRBBBBBBBNNNNNNNA:red",  # 10 red, 7 blue
        "RRRRRRRRRBBBBBBBBNNNNNNAA:red",  # two assassins
        "RRRRRRRRRBBBBBBBBNNNNNNNN:red",  # no assassin
        "RRRRRRRRBBBBBBBBNNNNNNNNA",  # 8 and 8, no start derivable
    ],
)
def test_bad_counts_raise_bad_key(text):
    with pytest.raises(BadKey) as caught:
        Key.from_text(text)
    assert caught.value.msgid == "key_counts"
    message = str(caught.value)
    assert "9 agents of the start team" in message
    assert "7 bystanders and 1 assassin" in message


def test_bad_counts_message_gives_the_counts():
    with pytest.raises(BadKey) as caught:
        Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNAA:red")
    assert "this one has: red 9, blue 8, bystanders 6, assassins 2" in str(caught.value)


@pytest.mark.parametrize("start", ["green", "r", "1"])
def test_bad_start_raises_bad_key(start):
    with pytest.raises(BadKey) as caught:
        Key.from_text(RED_START.split(":")[0] + ":" + start)
    assert caught.value.msgid == "key_start"
    assert f'"{start}"' in str(caught.value)
    assert "red or blue" in str(caught.value)


def test_key_constructor_validates_too():
    with pytest.raises(BadKey):
        Key((Identity.RED,) * 25, Team.RED)
    with pytest.raises(BadKey):
        Key(Key.from_text(RED_START).identities[:24], Team.RED)
    with pytest.raises(BadKey):
        Key(Key.from_text(RED_START).identities, Team.BLUE)


# --- generation


def test_generate_is_deterministic_per_seed():
    for seed in [0, 1, 42, 2**40, "table-7"]:
        assert Key.generate(seed) == Key.generate(seed)
    assert Key.generate(random.Random(7)) == Key.generate(7)


def test_generate_differs_between_seeds():
    keys = {Key.generate(seed) for seed in range(100)}
    assert len(keys) == 100


def test_generated_keys_have_valid_counts():
    for seed in range(200):
        key = Key.generate(seed)
        counts = Counter(key)
        assert counts[key.start.identity] == 9
        assert counts[key.start.other.identity] == 8
        assert counts[Identity.BYSTANDER] == 7
        assert counts[Identity.ASSASSIN] == 1


def test_generate_start_team_roughly_uniform():
    starts = Counter(Key.generate(seed).start for seed in range(2000))
    for team in Team:
        assert 0.40 <= starts[team] / 2000 <= 0.60


def test_generate_puts_the_assassin_on_every_tile():
    tiles = {Key.generate(seed).letters.index("A") for seed in range(2000)}
    assert tiles == set(range(TILES))


def test_generate_positions_roughly_uniform():
    # each tile is a start-team agent with probability 9/25 = 0.36
    agent_counts = Counter()
    for seed in range(2000):
        key = Key.generate(seed)
        agent_counts.update(key.agents(key.start))
    for tile in range(TILES):
        assert 0.28 <= agent_counts[tile] / 2000 <= 0.44


# --- tile names


def test_c3_is_the_centre_tile_12():
    assert parse_tile("C3") == 12
    assert tile_name(12) == "C3"


@pytest.mark.parametrize("text", ["C3", "c3", " C3 ", "3 3", "3,3", "#12"])
def test_parse_tile_accepts_each_form(text):
    assert parse_tile(text) == 12


def test_tile_names_are_row_letter_and_column():
    assert tile_name(0) == "A1"
    assert tile_name(4) == "A5"
    assert tile_name(5) == "B1"
    assert tile_name(24) == "E5"


def test_parse_tile_round_trips_every_tile():
    for tile in range(TILES):
        row, column = divmod(tile, 5)
        assert parse_tile(tile_name(tile)) == tile
        assert parse_tile(tile_name(tile).lower()) == tile
        assert parse_tile(f"{row + 1} {column + 1}") == tile
        assert parse_tile(f"#{tile}") == tile


@pytest.mark.parametrize(
    "text", ["F1", "A6", "A0", "C", "C33", "6 1", "1 6", "0 3", "#25", "#-1", "#", "", "hello", "1 2 3"]
)
def test_parse_tile_rejects_out_of_range(text):
    with pytest.raises(ValueError):
        parse_tile(text)
