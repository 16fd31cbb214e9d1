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
    result = run_cli("stats", "--dir", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Games finished: 3; unfinished: 1",
        "Records that could not be read (1): e.jsonl",
        "Two teams: red won 1, blue won 1; lost on the assassin: 1",
        "Two players: played 1, won 1",
        "Scores: 8; best: 8 (Legends of the trade)",
        "Minutes per game: 12 on average, shortest 4, longest 20",
    ]
    data = json.loads(run_cli("stats", "--dir", tmp_path, "--json").stdout)
    assert (data["finished"], data["wins"], data["duo_scores"]) == (3, {"red": 1, "blue": 1}, [8])


def test_stats_of_an_empty_folder(tmp_path, run_cli):
    result = run_cli("stats", "--dir", tmp_path)
    assert result.stdout.splitlines() == ["Games finished: 0; unfinished: 0"]


def test_stats_read_the_state_folder_from_the_config(tmp_path, run_cli):
    (tmp_path / "state" / "games").mkdir(parents=True)
    write(tmp_path / "state" / "games", "a.jsonl", ASSASSIN)
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    assert run_cli("stats", "--config", config).stdout.startswith("Games finished: 1;")
