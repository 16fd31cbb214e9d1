"""A whole game night (tests/gamenight.py), played through the simulator's scripts and through the console:
ten games, classic and duo, rematches, a word re-dealt, the easy pack and the group's own words, a strict
time-up and a penalty. The evening's score comes out right in ``evening`` and ``stats``, the records keep what
happened, and ``replay`` tells each game turn by turn."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gamenight  # noqa: E402

from codenames_board.evening import play_order  # noqa: E402
from codenames_board.record import read_record  # noqa: E402
from codenames_board.words import pack_words  # noqa: E402

EXPECTED = gamenight.expected(gamenight.evening())


def _score(run_cli, games, config):
    shown = run_cli("evening", "--games", games, "--config", config, "--json")
    assert shown.returncode == 0, shown.stderr
    evening = json.loads(shown.stdout)["evening"]
    return {"wins": evening["wins"], "duo": evening["duo"]}


def _records(folder):
    records = [(path, read_record(path)) for path in folder.glob("*.jsonl")]
    return sorted(records, key=lambda entry: play_order(*entry[0:1], entry[1].header))


@pytest.fixture(scope="module")
def sim_night(tmp_path_factory, run_cli_module):
    folder = tmp_path_factory.mktemp("night")
    state = folder / "state"
    for run, script, config in gamenight.write(folder, state):
        result = run_cli_module(*gamenight.sim_args(run, script, config, state), env={"SDL_VIDEODRIVER": "dummy"})
        assert result.returncode == 0, result.stderr
    return folder, state


def test_the_simulators_evening_adds_up(sim_night, run_cli_module):
    folder, _ = sim_night
    assert EXPECTED == {"wins": {"red": 5, "blue": 2}, "duo": {"played": 3, "won": 2, "best": 7, "streak": 1}}
    assert _score(run_cli_module, "sim", folder / "config-1-classic.toml") == EXPECTED
    stats = run_cli_module("stats", "--games", "sim", "--config", folder / "config-1-classic.toml")
    assert "Games finished: 10; unfinished: 0" in stats.stdout
    assert "Red 5 : 2 Blue" in stats.stdout and "Duo: 2 of 3 won, best 7, 1 in a row" in stats.stdout


def test_the_simulators_records_keep_the_redeal_the_packs_the_penalty_and_the_time_up(sim_night):
    _, state = sim_night
    records = _records(state / "sim" / "games")
    assert len(records) == 10
    headers = [record.header for _, record in records]
    assert headers[0].extra["redealt"] == 1
    assert [header.extra.get("pack") for header in headers] == ["standard"] * 4 + ["easy"] * 3 + ["file"] * 3
    assert set(headers[4].words) <= set(pack_words("en", "easy"))
    own = set(gamenight.OWN_WORDS.split("\n")[1:]) - {""}
    assert all(set(header.words) <= own for header in headers[7:])
    kinds = [type(action).__name__ for _, action in records[1][1].actions]
    assert "Penalty" in kinds
    assert "Timeout" in [type(action).__name__ for _, action in records[7][1].actions]


def test_replay_tells_each_game_of_the_evening_turn_by_turn(sim_night, run_cli_module):
    _, state = sim_night
    for index, (path, record) in enumerate(_records(state / "sim" / "games")):
        told = run_cli_module("replay", path)
        assert told.returncode == 0, told.stderr
        lines = [line for line in told.stdout.splitlines() if not line.startswith("Words dealt again")]
        assert lines[0].startswith("Words: ")
        assert lines[1].startswith("1. ") and ("Red: " in lines[1] or "Blue: " in lines[1])
        words = record.header.words
        assert any(word in told.stdout for word in words)  # the tiles by their words
        assert "Game over" in told.stdout or "You win" in told.stdout
        turns = json.loads(run_cli_module("replay", path, "--json").stdout)["turns"]
        assert turns and all("events" in turn for turn in turns)
    first = run_cli_module("replay", _records(state / "sim" / "games")[0][0]).stdout
    assert "Words dealt again before the first clue: 1" in first
    penalty = run_cli_module("replay", _records(state / "sim" / "games")[1][0]).stdout
    assert "penalty" in penalty
    timed = run_cli_module("replay", _records(state / "sim" / "games")[7][0]).stdout
    assert "time up" in timed


@pytest.mark.parametrize("name", ["evening-1-redealt.png", "evening-4-time-up.png", "evening-score-3-own-words.png"])
def test_the_evenings_pictures_in_the_readme_are_what_it_makes(sim_night, name):
    """The README's pictures of the evening; remade with: .venv/bin/python tests/gamenight.py DIR (then copy DIR/shots/...)."""
    import pygame
    from test_screenshots import TOLERANCE, mean_difference

    folder, _ = sim_night
    made = pygame.image.load(str(folder / "shots" / name))
    committed = pygame.image.load(str(Path(__file__).parent / "reference" / name))
    assert made.get_size() == committed.get_size() == (1280, 720)
    assert mean_difference(committed, made) < TOLERANCE, f"{name}: remake it with .venv/bin/python tests/gamenight.py DIR"


def test_the_consoles_evening_adds_up(tmp_path, run_cli):
    state = tmp_path / "state"
    folder = tmp_path / "night"
    for run, _, config in gamenight.write(folder, state):
        result = run_cli(*gamenight.console_args(run, folder, config), input=gamenight.console_input(run))
        assert result.returncode == 0, result.stderr
        assert "Not allowed" not in result.stdout and "Unknown" not in result.stdout, result.stdout
    assert _score(run_cli, "console", folder / "config-1-classic.toml") == EXPECTED
    records = _records(state / "console")
    assert len(records) == 10 and all(record.replay().is_over for _, record in records)
    told = run_cli("replay", records[7][0]).stdout
    assert "time up" in told
