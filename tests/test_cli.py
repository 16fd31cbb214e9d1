"""`codenames-board replay` and the command line as a whole, run as real processes."""

import json

import pytest

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"  # red starts: red 0-8, blue 9-16, bystanders 17-23, assassin 24
HEADER = {"format": "codenames-board/1", "variant": "classic", "key": KEY, "start": "red"}


def record(tmp_path, *actions, header=None, name="game.jsonl"):
    path = tmp_path / name
    lines = [json.dumps(header or HEADER)] + [json.dumps(action) for action in actions]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def test_replay_json_prints_the_documented_state(tmp_path, run_cli):
    path = record(
        tmp_path,
        {"action": "clue", "count": 2},
        {"action": "touch", "tile": 0},
        {"action": "touch", "tile": 17},
        {"action": "clue", "count": "unlimited"},
        {"action": "touch", "tile": 9, "time": "2026-11-22T20:00:00Z"},
    )
    result = run_cli("replay", path, "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state == {
        "variant": "classic",
        "key": KEY,
        "start": "red",
        "turn": "blue",
        "phase": "guess",
        "clue": "unlimited",
        "guesses_made": 1,
        "guesses_left": None,
        "revealed": [0, 17, 9],
        "covered": [],
        "remaining": {"red": 8, "blue": 7},
        "winner": None,
        "reason": None,
        "score": None,
        "actions": 5,
    }
    assert result.stderr == ""


def test_replay_of_a_finished_duo_game_reports_the_score(tmp_path, run_cli):
    actions = [{"action": "clue", "count": "unlimited"}] + [{"action": "touch", "tile": tile} for tile in range(9)]
    path = record(tmp_path, *actions, header={**HEADER, "variant": "duo"})
    state = json.loads(run_cli("replay", path, "--json").stdout)
    assert (state["phase"], state["winner"], state["reason"], state["score"]) == ("over", "red", "agents", 8)


def test_replay_without_json_prints_a_readable_board(tmp_path, run_cli):
    words = [f"w{n:02}" for n in range(25)]
    path = record(tmp_path, {"action": "clue", "count": 1}, {"action": "touch", "tile": 24}, header={**HEADER, "words": words})
    result = run_cli("replay", path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5"]
    assert lines[1].startswith("A   r  w00")
    assert "[A] w24" in lines[5]
    assert "Game over: red touched the assassin, blue wins." in result.stdout


def test_replay_names_the_line_the_rules_reject(tmp_path, run_cli):
    path = record(tmp_path, {"action": "clue", "count": 1}, {"action": "touch", "tile": 3}, {"action": "touch", "tile": 3})
    result = run_cli("replay", path, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"{path}:4: the rules reject this action: tile A4 is already revealed"]


def test_replay_of_a_file_that_is_not_a_record_is_one_clear_line(tmp_path, run_cli):
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_cli("replay", path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f'{path}:1: not a codenames-board game record: its first line should be a JSON object with "format": "codenames-board/1"'
    ]


@pytest.mark.parametrize("name", ["missing.jsonl", "."])
def test_replay_of_a_missing_or_unreadable_file_is_one_clear_line(tmp_path, run_cli, name):
    path = tmp_path / name
    result = run_cli("replay", path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"{path}: cannot read the file: ")


def test_replay_of_a_torn_record_warns_and_keeps_the_rest(tmp_path, run_cli):
    path = record(tmp_path, {"action": "clue", "count": 2}, {"action": "touch", "tile": 0})
    with open(path, "ab") as file:
        file.write(b'{"action": "tou')
    result = run_cli("replay", path, "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["revealed"] == [0]
    assert result.stderr.splitlines() == [
        f"{path}:4: warning: the last line is incomplete (the power went off while it was written); "
        "it was skipped and everything before it is kept"
    ]


def test_replay_speaks_the_chosen_language(tmp_path, run_cli):
    path = record(tmp_path, {"action": "touch", "tile": 3})
    result = run_cli("replay", path, "--lang", "de")
    assert result.returncode == 2
    english = run_cli("replay", path).stderr
    assert result.stderr != english
    assert result.stderr.startswith(f"{path}:2: ")
    assert run_cli("replay", path, env={"LANG": "de_DE.UTF-8"}).stderr == result.stderr


def test_help_lists_the_commands(run_cli):
    result = run_cli("--help")
    assert result.returncode == 0
    assert "console" in result.stdout and "replay" in result.stdout
