"""The console game: typed commands, the record it writes, resuming."""

import json

from codenames_board.console import Console
from codenames_board.engine import Key
from codenames_board.i18n import Translator
from codenames_board.record import read_record

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"  # red 0-8 (A1-B4), blue 9-16 (B5-D2), bystanders 17-23, assassin E5


def console(tmp_path, variant="classic", language="en"):
    output = []
    game_console = Console(Translator(language), tmp_path / "games", variant, seed=11, out=output.append)
    return game_console, output


def type_lines(game_console, *lines):
    for line in lines:
        assert game_console.handle(line)


def test_a_whole_game_played_by_typing_ends_in_a_win_and_is_recorded(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "4", "A1", "A2", "3 3", "D3")  # two agents, "3 3" is C3: blue; ends the turn
    assert game_console.game.turn.value == "blue"
    type_lines(game_console, "u", "B5", "C1", "C2", "C3", "C4", "C5", "D1", "D2")
    text = "\n".join(output)
    assert "Game over: blue wins, all of its agents are found." in text
    record = read_record(game_console.writer.path)
    assert record.replay().state() == game_console.game.state()
    assert record.replay().state()["winner"] == "blue"
    assert record.header.seed is None and record.header.key.text() == KEY


def test_refused_actions_say_why_and_are_not_recorded(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "A1", "2", "end", "A1", "A1", "12", "juggle")
    assert "Not allowed: waiting for the spymaster's clue number first." in output
    assert "Not allowed: the operatives make at least one guess before they end the turn." in output
    assert "Not allowed: tile A1 is already revealed." in output
    assert "Not allowed: this turn already has its clue." in output
    assert '"juggle" is not a command: type help for the list.' in output
    assert [action.name for _, action in read_record(game_console.writer.path).actions] == ["clue", "touch"]


def test_undo_takes_back_an_assassin(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "1", "E5")
    assert game_console.game.is_over
    type_lines(game_console, "undo")
    assert not game_console.game.is_over
    assert "Taken back: touch E5." in output
    assert read_record(game_console.writer.path).replay().state()["phase"] == "guess"


def test_the_key_is_shown_only_when_asked(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    assert " r " not in output[1]
    type_lines(game_console, "key")
    assert output[-1].splitlines()[1].startswith("A   r     r     r")
    type_lines(game_console, "key")
    assert " r " not in output[-1]


def test_duo_asks_for_a_cover_after_each_turn(tmp_path):
    game_console, output = console(tmp_path, variant="duo")
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "1", "E1")  # a bystander
    assert "Type a shadow agent to cover it (e.g. C3); key shows the key." in output
    type_lines(game_console, "end", "A1", "B5")
    assert "Not allowed: the spymaster first covers one agent of the shadow team (blue)." in output
    assert "Not allowed: only one of the blue team's own unrevealed agents can be covered (key shows them to the spymaster)." in output
    assert not [line for line in output if "A1" in line and "not" in line]  # what A1 is not stays unsaid
    assert "B5 is covered (a blue agent)." in output
    assert game_console.game.phase.value == "clue"


def test_new_starts_another_record_with_another_key(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new()
    first_path, first_key = game_console.writer.path, game_console.game.key
    type_lines(game_console, "new")
    assert game_console.writer.path != first_path
    assert game_console.game.key != first_key
    assert read_record(first_path).header.seed == 11
    assert read_record(game_console.writer.path).header.seed == 12


def test_console_process_plays_saves_and_resumes(tmp_path, run_cli):
    path = tmp_path / "evening.jsonl"
    first = run_cli("console", "--key", KEY, "--record", path, input="2\nA1\nquit\n")
    assert first.returncode == 0, first.stderr
    assert f"The game is saved in {path}" in first.stdout
    second = run_cli("console", "--record", path, input="A2\nend\n")  # input ends: saved as well
    assert second.returncode == 0, second.stderr
    assert f"Resumed {path}; actions so far: 2." in second.stdout
    state = json.loads(run_cli("replay", path, "--json").stdout)
    assert (state["revealed"], state["turn"], state["phase"]) == ([0, 1], "blue", "clue")


def test_console_resumes_after_a_power_cut_mid_line(tmp_path, run_cli):
    path = tmp_path / "evening.jsonl"
    run_cli("console", "--key", KEY, "--record", path, input="2\nA1\n")
    with open(path, "ab") as file:
        file.write(b'{"action": "touch", "ti')
    result = run_cli("console", "--record", path, input="A2\n")
    assert result.returncode == 0
    assert f"{path}:4: warning: the last line is incomplete" in result.stdout
    assert json.loads(run_cli("replay", path, "--json").stdout)["revealed"] == [0, 1]


def test_console_without_a_record_option_writes_into_the_state_folder(tmp_path, run_cli):
    result = run_cli("console", "--seed", "5", "--variant", "duo", input="quit\n")
    assert result.returncode == 0
    assert not (tmp_path / "state" / "codenames-board" / "games").exists()  # the table's games: kept apart
    records = list((tmp_path / "state" / "codenames-board" / "console").glob("*-duo.jsonl"))
    assert len(records) == 1
    assert read_record(records[0]).header.key == Key.generate(5)


def test_console_bad_key_option_is_one_line_and_exit_2(run_cli):
    result = run_cli("console", "--key", "RRRR")
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["--key: a key has 25 letters, this one has 4"]


def test_console_refuses_a_damaged_record_without_touching_it(tmp_path, run_cli):
    path = tmp_path / "damaged.jsonl"
    content = '{"format": "codenames-board/1", "variant": "classic", "key": "%s", "start": "red"}\nnot json\n{"action": "undo"}\n' % KEY[:25]
    path.write_text(content)
    result = run_cli("console", "--record", path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"{path}:2: this line is not valid JSON")
    assert path.read_text() == content


def test_console_cannot_write_says_where_and_how_to_fix(tmp_path, run_cli):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_cli("console", "--record", blocker / "game.jsonl")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "cannot write the game record" in result.stderr and "--record" in result.stderr


def test_colour_paints_only_revealed_tiles_and_keeps_the_layout(tmp_path):
    import re

    from codenames_board.textboard import grid

    game_console, _ = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "1", "A1", "E5")
    tr, game = game_console.tr, game_console.game
    plain, painted = grid(game, tr), grid(game, tr, colour=True)
    assert re.sub(r"\033\[[0-9;]*m", "", painted) == plain
    assert painted.count("\033[0m") == 2  # A1 and E5, nothing else
    assert "\033[1;97;41m[R]" in painted and "\033[1;5;97;40m[A]" in painted


def test_an_action_the_disk_cannot_keep_is_taken_back_and_said(tmp_path, monkeypatch):
    import errno
    import os

    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "3", "A1")
    state = game_console.game.state()
    write = os.write

    def full(fd, data):
        if fd == game_console.writer._fd:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", full)
        type_lines(game_console, "A2", "undo")  # neither a touch nor an undo: nothing happened
    assert game_console.game.state() == state
    assert output.count("Cannot save (the disk is full): the last action was taken back.") == 2
    type_lines(game_console, "A2")  # space again: play goes on, recorded
    assert read_record(game_console.writer.path).replay().state() == game_console.game.state()


def test_a_clue_with_its_word_is_recorded_and_a_tile_is_still_a_tile(tmp_path):
    game_console, output = console(tmp_path)
    game_console.start_new(Key.from_text(KEY))
    type_lines(game_console, "river 2")
    assert game_console.game.clue == 2 and game_console.game.clues[-1][2] == "river"
    assert '"word": "river"' in game_console.writer.path.read_text()
    type_lines(game_console, "3 3")  # row 3, column 3: a touch, never a clue "3" of 3
    assert game_console.game.is_revealed(12)


def test_the_pack_the_words_came_from_goes_into_each_record(tmp_path):
    from codenames_board.deal import Deal

    words = [f"card{n}" for n in range(60)]
    game_console = Console(Translator("en"), tmp_path / "games", deal=Deal(4, words), pack="hard", out=[].append)
    game_console.start_new()
    first = read_record(game_console.writer.path).header
    game_console.start_new()  # NEW: the next game, from the same pack
    second = read_record(game_console.writer.path).header
    assert (first.extra["pack"], second.extra["pack"]) == ("hard", "hard")
    assert (first.extra["number"], second.extra["number"]) == (1, 2)  # the order played
    assert set(first.words) <= set(words) and not set(first.words) & set(second.words)
    game_console.close()
    plain = Console(Translator("en"), tmp_path / "plain", seed=4, pack="hard", out=[].append)  # no words dealt: no pack
    plain.start_new()
    assert "pack" not in read_record(plain.writer.path).header.extra
    plain.close()


def test_a_clue_word_on_the_board_is_said_so_not_called_an_unknown_command(tmp_path):
    from codenames_board.deal import Deal

    words = [f"card{n}" for n in range(30)]
    said = []
    game_console = Console(Translator("en"), tmp_path / "games", deal=Deal(4, words), out=said.append)
    game_console.start_new()
    on_board = game_console.words[3]
    type_lines(game_console, f"{on_board.upper()} 2")
    assert said[-1] == f'"{on_board.upper()}" is on the board: a clue may not be one of its words.'
    assert game_console.game.clue is None
    game_console.close()
