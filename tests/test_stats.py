"""codenames-board stats: finished records summed up."""

import json

from codenames_board.engine import UNLIMITED, Clue, EndTurn, Key, Touch
from codenames_board.record import Header, RecordWriter

KEY = Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNNA:red")  # red 0-8, blue 9-16, bystanders 17-23, assassin 24


def write(folder, name, actions, variant="classic", minutes=10):
    header = Header(variant, KEY, None, "en", 1, "2026-11-22T20:00:00Z")
    with RecordWriter.create(folder / name, header) as writer:
        for number, action in enumerate(actions):
            end = 20 * 60 + minutes * (number + 1) / len(actions)
            writer.append(action, time=f"2026-11-22T{int(end // 60):02}:{int(end % 60):02}:00Z")


RED_WINS = [Clue(UNLIMITED)] + [Touch(tile) for tile in range(9)]
ASSASSIN = [Clue(1), Touch(24)]  # red touches it: blue wins
DUO_WIN = [Clue(UNLIMITED)] + [Touch(tile) for tile in range(9)]  # no shadow agent covered: score 8


def test_stats_add_up_wins_assassins_duo_scores_and_minutes(tmp_path, run_cli):
    write(tmp_path, "a.jsonl", RED_WINS, minutes=12)
    write(tmp_path, "b.jsonl", ASSASSIN, minutes=4)
    write(tmp_path, "c.jsonl", DUO_WIN, variant="duo", minutes=20)
    write(tmp_path, "d.jsonl", [Clue(2), Touch(0), EndTurn()])  # unfinished
    (tmp_path / "e.jsonl").write_text("not a record\n")
    result = run_cli("stats", "--folder", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Games in {tmp_path}",
        "Games finished: 3; unfinished: 1",
        "Records that could not be read (1): e.jsonl",
        "Two teams: red won 1, blue won 1; lost on the assassin: 1",
        "Two players: played 1, won 1",
        "Scores: 8; best: 8 (Legends of the trade)",
        "Minutes per game: 12 on average, shortest 4, longest 20",
    ]
    data = json.loads(run_cli("stats", "--folder", tmp_path, "--json").stdout)
    assert (data["finished"], data["wins"], data["duo_scores"]) == (3, {"red": 1, "blue": 1}, [8])
    assert data["folder"] == str(tmp_path)


def test_stats_of_an_empty_folder(tmp_path, run_cli):
    result = run_cli("stats", "--folder", tmp_path)
    assert result.stdout.splitlines() == [f"Games in {tmp_path}", "No games there yet."]


def test_stats_of_a_file_is_one_line_and_exit_2(tmp_path, run_cli):
    (tmp_path / "a.jsonl").write_text("")
    result = run_cli("stats", "--folder", tmp_path / "a.jsonl")
    assert (result.returncode, result.stderr.splitlines()) == (
        2, [f"{tmp_path / 'a.jsonl'} is not a folder: name the folder of the game records"]
    )
    missing = run_cli("stats", "--folder", tmp_path / "gmaes")  # a typo is not "no games"
    assert (missing.returncode, missing.stderr.splitlines()) == (
        2, [f"{tmp_path / 'gmaes'} is not a folder: name the folder of the game records"]
    )


def test_stats_read_the_state_folder_from_the_config(tmp_path, run_cli):
    (tmp_path / "state" / "games").mkdir(parents=True)
    write(tmp_path / "state" / "games", "a.jsonl", ASSASSIN)
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    assert run_cli("stats", "--config", config).stdout.splitlines()[:2] == [
        f"Games in {tmp_path / 'state' / 'games'}", "Games finished: 1; unfinished: 0"
    ]


def test_stats_after_playing_in_the_simulator_says_where_it_read_and_where_those_games_are(tmp_path, run_cli):
    # The simulator keeps its games in the state folder's sim/games, the console in console/:
    # `stats` reads the table's, names the folder it read, and says how to see the others.
    state = tmp_path / "state" / "codenames-board"  # run_cli's XDG_STATE_HOME
    (state / "sim" / "games").mkdir(parents=True)
    write(state / "sim" / "games", "a.jsonl", RED_WINS)
    write(state / "sim" / "games", "b.jsonl", ASSASSIN)
    (state / "console").mkdir()
    write(state / "console", "c.jsonl", [Clue(2), Touch(0)])
    result = run_cli("stats")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Games in {state / 'games'}",
        "No games there yet.",
        "The simulator's games (2): codenames-board stats --games sim",
        "The console's games (1): codenames-board stats --games console",
    ]
    sim = run_cli("stats", "--games", "sim")
    assert sim.stdout.splitlines()[:3] == [
        f"Games in {state / 'sim' / 'games'}",
        "Games finished: 2; unfinished: 0",
        "Two teams: red won 1, blue won 1; lost on the assassin: 1",
    ]
    assert run_cli("stats", "--games", "console").stdout.splitlines()[1] == "Games finished: 0; unfinished: 1"
    both = run_cli("stats", "--games", "sim", "--folder", tmp_path)
    assert both.returncode == 2 and "not allowed with" in both.stderr.splitlines()[-1]
