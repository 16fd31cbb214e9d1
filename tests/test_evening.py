"""The evening's tally: counted from the records, published with the table's state, begun anew by hand or
after a long pause, kept across restarts, and read by ``evening`` and ``stats``."""

import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from codenames_board.config import ConfigErrors, parse
from codenames_board.engine import Key, Team, tile_name
from codenames_board.evening import EVENING_FILE, Tally, read_evening
from codenames_board.i18n import Translator
from codenames_board.published import Output, Outputs
from codenames_board.table import ButtonDown, ButtonUp, Table
from codenames_board.tileboard import TileTouched, VirtualTileBoard
from codenames_board.ui import Confirm

EIGHT_PM = datetime(2026, 11, 27, 20, 0, tzinfo=timezone.utc)


class Watch(Output):
    """The last published state."""

    def __init__(self):
        self.state = None

    def show(self, state, now):
        self.state = state


class Night:
    """A table on a folder, with a clock for the wall that the test moves on."""

    def __init__(self, folder, settings="", seeds=None, wall=EIGHT_PM):
        self.folder, self.settings = folder, settings
        self.wall = wall
        self.seeds = iter(seeds or range(100, 200))
        self.open()

    def open(self):
        config = parse(f'state_dir = "{self.folder}"\n{self.settings}')
        self.watch = Watch()
        self.now = 1000.0
        board = VirtualTileBoard(status_leds=config.tiles.timer_leds + config.tiles.turn_leds)
        self.table = Table(
            config, Translator("en"), board, lambda: self.now, new_seed=lambda: next(self.seeds),
            wall_clock=lambda: self.wall, outputs=Outputs([self.watch]),
        )
        board.on_event = self.table.handle
        self.table.start()

    @property
    def tally(self):
        return self.watch.state.evening

    def press(self, name, hold=0.0):
        self.table.handle(ButtonDown(name))
        if hold:
            self.now += hold
            self.table.update()
        self.table.handle(ButtonUp(name))

    def lose_on_assassin(self):
        """The team on turn gives a clue and touches the assassin: the other team wins."""
        game = self.table.game
        loser = game.turn
        self.press("clue_up")
        self.press("clue_confirm")
        self.table.handle(TileTouched(game.key.letters.index("A"), True))
        assert self.table.game.is_over
        return loser.other

    def next_game(self, minutes=30):
        self.wall += timedelta(minutes=minutes)
        self.press("new_game", hold=3)


def test_a_tally_counts_wins_and_the_duo_best_score_and_streak():
    tally = Tally("2026-11-27T20:00:00Z")
    assert (tally.wins, tally.games, tally.duo_best, tally.duo_streak) == ((0, 0), 0, None, 0)

    class Duo:
        variant, key = "duo", Key.generate(1)

        def __init__(self, won, score):
            from codenames_board.engine import Outcome, Reason

            winner = self.key.start if won else self.key.start.other
            self.outcome = Outcome(winner, Reason.AGENTS if won else Reason.ASSASSIN, score if won else None)

    for won, score in [(True, 3), (True, 5), (False, 0), (True, 2), (True, 4)]:
        tally = tally.plus(Duo(won, score))
    assert (tally.duo_played, tally.duo_won, tally.duo_best, tally.duo_streak) == (5, 4, 5, 2)


def test_the_table_publishes_tonights_tally_and_counts_each_game_once(tmp_path):
    night = Night(tmp_path)
    assert night.tally.games == 0 and night.tally.started == "2026-11-27T20:00:00Z"
    first = night.lose_on_assassin()
    assert night.tally.wins[first is Team.BLUE] == 1  # the game on the table counts once it is over
    assert night.watch.state.public.evening == night.tally  # everyone may see it
    night.next_game()
    assert night.tally.games == 1  # counted once, not again with the new game
    second = night.lose_on_assassin()
    night.next_game()
    wins = [0, 0]
    for winner in (first, second):
        wins[winner is Team.BLUE] += 1
    assert night.tally.wins == tuple(wins)
    headers = [json.loads(path.read_text().splitlines()[0]) for path in sorted((tmp_path / "games").glob("*.jsonl"))]
    assert {header["evening"] for header in headers} == {"2026-11-27T20:00:00Z"}


def test_an_undo_of_the_winning_touch_takes_the_win_back(tmp_path):
    night = Night(tmp_path)
    night.lose_on_assassin()
    assert night.tally.games == 1
    night.press("undo")
    assert night.table.prompts.question is Confirm.UNDO
    night.press("clue_confirm")
    assert not night.table.game.is_over and night.tally.games == 0


def test_a_restart_counts_tonights_games_from_the_records_and_resumes_the_one_in_play(tmp_path):
    night = Night(tmp_path)
    winner = night.lose_on_assassin()
    night.next_game()
    night.press("clue_up")
    night.press("clue_confirm")  # the second game is under way
    night.table.close()
    night.open()
    assert night.table.game.actions  # resumed
    assert night.tally.games == 1 and night.tally.wins[winner is Team.BLUE] == 1
    game = night.table.game
    night.table.handle(TileTouched(game.key.letters.index("A"), True))
    assert night.tally.games == 2


def test_end_turn_held_between_games_asks_and_begins_a_new_evening(tmp_path):
    night = Night(tmp_path, '[evening]\nred = "Owls"\nblue = "Foxes"\n')
    night.lose_on_assassin()
    night.wall += timedelta(minutes=5)
    night.press("end_turn", hold=3)
    assert night.table.prompts.question is Confirm.NEW_EVENING
    night.press("clue_confirm")
    assert night.tally.games == 0 and night.tally.started == "2026-11-27T20:05:00Z"
    assert night.tally.names == ("Owls", "Foxes")
    assert read_evening(tmp_path / "games") == ("2026-11-27T20:05:00Z", ("Owls", "Foxes"))
    night.next_game()  # the finished game stays in the evening it was played in
    assert night.tally.games == 0


def test_end_turn_held_during_a_game_still_asks_about_a_penalty(tmp_path):
    night = Night(tmp_path)
    night.press("end_turn", hold=3)
    assert night.table.prompts.question is Confirm.PENALTY


@pytest.mark.parametrize("hours, new", [(7.9, False), (8.1, True)])
def test_a_game_dealt_after_a_long_pause_begins_a_new_evening(tmp_path, hours, new):
    night = Night(tmp_path)
    night.lose_on_assassin()
    night.next_game(minutes=hours * 60)
    assert (night.tally.started != "2026-11-27T20:00:00Z") is new
    assert night.tally.games == (0 if new else 1)


def test_a_pause_after_a_restart_counts_from_the_records_names(tmp_path):
    night = Night(tmp_path)
    night.lose_on_assassin()
    night.table.close()
    night.wall += timedelta(days=6)  # next week: the finished game is not resumed, a new one is dealt
    night.open()
    assert night.tally.started == "2026-12-03T20:00:00Z" and night.tally.games == 0


def test_no_pause_rule_with_zero_hours(tmp_path):
    night = Night(tmp_path, "[evening]\nnew_after_hours = 0\n")
    night.lose_on_assassin()
    night.next_game(minutes=60 * 24 * 30)
    assert night.tally.games == 1


@pytest.mark.parametrize(
    "damage", [b"", b"{", b'{"started": "yesterday"}', b'{"started": 5}', b"[]", b'{"started": "2026-11-27T19:00:00Z", "red": "\\u0007"}', b"\xff" * 5000]
)
def test_a_damaged_evening_file_begins_a_new_evening_and_loses_no_game(tmp_path, damage):
    night = Night(tmp_path)
    night.lose_on_assassin()
    night.table.close()
    (tmp_path / "games" / EVENING_FILE).write_bytes(damage)
    night.open()  # the finished game is not resumed: a new one is dealt, in a new evening
    assert night.tally.games == 0
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 2
    assert read_evening(tmp_path / "games") is not None  # written afresh


def test_an_evening_file_that_is_a_fifo_is_not_waited_on(tmp_path):
    (tmp_path / "games").mkdir()
    os.mkfifo(tmp_path / "games" / EVENING_FILE)
    assert read_evening(tmp_path / "games") is None


def test_a_disk_that_refuses_the_evening_file_is_said_and_the_game_goes_on(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / (EVENING_FILE + ".tmp")).mkdir()  # the file cannot be written
    night = Night(tmp_path)
    notices = [notice.msgid for notice in night.watch.state.ui.notices]
    assert "evening.unsaved" in notices
    assert night.tally.games == 0 and night.table.game is not None
    night.lose_on_assassin()
    assert night.tally.games == 1  # kept in memory


def test_a_phone_names_the_teams_for_tonight(tmp_path):
    from codenames_board.gestures import Intent

    night = Night(tmp_path)
    night.table.handle(Intent(("set_names", "Owls", "Foxes")))
    assert night.tally.names == ("Owls", "Foxes")
    assert read_evening(tmp_path / "games")[1] == ("Owls", "Foxes")


@pytest.mark.parametrize("name", ["x" * 17, "a\nb", "\u200b\u0000", 5, ["Owls"]])
def test_a_bad_team_name_in_the_config_is_one_clear_line(name):
    value = json.dumps(name)
    with pytest.raises(ConfigErrors) as caught:
        parse(f"[evening]\nred = {value}\n")
    error = caught.value.errors[0]
    assert error.msgid == "evening.config_name" and error.key == "[evening] red"


def _play_evening(tmp_path, games=3):
    night = Night(tmp_path, wall=datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=2))  # tonight
    winners = []
    for _ in range(games):
        winners.append(night.lose_on_assassin())
        night.next_game()
    night.table.close()
    return winners


def test_the_evening_command_says_the_tally_and_begins_a_new_one(tmp_path, run_cli):
    winners = _play_evening(tmp_path / "state" / "codenames-board")
    red = winners.count(Team.RED)
    shown = run_cli("evening")
    assert shown.returncode == 0, shown.stderr
    assert str(tmp_path / "state" / "codenames-board" / "games") in shown.stdout
    assert f"Red {red} : {3 - red} Blue" in shown.stdout
    named = run_cli("evening", "--names", "Owls", "Foxes")
    assert f"Owls {red} : {3 - red} Foxes" in named.stdout
    fresh = run_cli("evening", "--new", "--json")
    data = json.loads(fresh.stdout)
    assert data["evening"]["wins"] == {"red": 0, "blue": 0} and data["evening"]["names"] == ["", ""]
    stats = run_cli("stats")
    assert "The last 1 of 1 evenings:" in stats.stdout  # the new evening has no game yet and f"Red {red} : {3 - red} Blue" in stats.stdout
    assert json.loads(run_cli("stats", "--json").stdout)["evenings"][0]["wins"] == {"red": red, "blue": 3 - red}


@pytest.mark.parametrize("name", ["x" * 17, "a\tb\x07"])
def test_the_evening_command_refuses_a_bad_name_in_one_line(run_cli, name):
    result = run_cli("evening", "--names", name, "Foxes")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "team's name" in result.stderr


def test_the_evening_of_a_folder_never_played_in(run_cli):
    result = run_cli("evening", "--games", "console")
    assert result.returncode == 0 and "No evening yet" in result.stdout


def test_a_scripted_simulator_keeps_its_games_and_evening_with_keep(tmp_path, run_cli):
    script = tmp_path / "evening.txt"
    lines = []
    for seed in (7, 8):
        lines += ["clue 1", f"touch {tile_name(Key.generate(seed).letters.index('A'))}", "wait 1", "hold new_game 3"]
    script.write_text("\n".join(lines) + "\n")
    kept = tmp_path / "kept"
    result = run_cli("sim", "--headless", "--seed", "7", "--script", script, "--keep", kept)
    assert result.returncode == 0, result.stderr
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{kept}"\n')
    shown = run_cli("evening", "--games", "sim", "--config", config)
    assert "(finished games: 2)" in shown.stdout
    assert run_cli("sim", "--headless", "--keep", kept).returncode == 2  # --keep without a script


def test_the_console_says_tonights_score_after_each_game_and_on_request(run_cli):
    lines = []
    for seed in (7, 8):
        lines += ["1", tile_name(Key.generate(seed).letters.index("A")), "new"]
    result = run_cli("console", "--seed", "7", input="\n".join([*lines, "score", "quit"]) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("finished games: ") == 3  # after each game, and asked for
    assert "finished games: 1)" in result.stdout and result.stdout.rstrip().count("finished games: 2)") == 2
    shown = run_cli("evening", "--games", "console", "--json")
    assert sum(json.loads(shown.stdout)["evening"]["wins"].values()) == 2


def test_a_table_dealt_without_a_start_carries_on_tonights_evening(tmp_path):
    night = Night(tmp_path)
    night.lose_on_assassin()
    night.table.close()
    config = parse(f'state_dir = "{tmp_path}"\n')
    watch = Watch()
    table = Table(config, Translator("en"), VirtualTileBoard(), lambda: 0.0, new_seed=lambda: 3,
                  wall_clock=lambda: EIGHT_PM + timedelta(hours=1), outputs=Outputs([watch]))
    table.deal()  # as `run --seed` and a seeded simulator do: no resume
    assert watch.state.evening.games == 1 and watch.state.evening.started == "2026-11-27T20:00:00Z"
    table.close()


def test_a_running_table_takes_up_a_new_evening_begun_from_the_command_line(tmp_path):
    from codenames_board.evening import Evening

    night = Night(tmp_path)
    night.lose_on_assassin()
    elsewhere = Evening(tmp_path / "games")  # `codenames-board evening --new --names ...` while the table runs
    elsewhere.load()
    elsewhere.begin(EIGHT_PM + timedelta(minutes=40))
    elsewhere.set_names("Owls", "Foxes")
    night.next_game()
    assert night.tally.started == "2026-11-27T20:40:00Z" and night.tally.games == 0
    assert night.tally.names == ("Owls", "Foxes")
    header = json.loads(night.table.writer.path.read_text().splitlines()[0])
    assert header["evening"] == "2026-11-27T20:40:00Z" and header["teams"] == ["Owls", "Foxes"]


def test_names_given_after_a_long_pause_name_the_new_evening(tmp_path, run_cli):
    folder = tmp_path / "state" / "codenames-board"
    night = Night(folder)  # last night
    night.lose_on_assassin()
    night.table.close()
    named = run_cli("evening", "--names", "Owls", "Foxes")
    assert "Owls 0 : 0 Foxes" in named.stdout  # tonight's, not last night's
    night.wall = datetime.now(timezone.utc)
    night.open()
    assert night.tally.names == ("Owls", "Foxes") and night.tally.games == 0
    night.lose_on_assassin()
    night.next_game()
    night.table.close()
    stats = run_cli("stats").stdout
    last_night = "Red 1 : 0 Blue" in stats or "Red 0 : 1 Blue" in stats
    tonight = "Owls 1 : 0 Foxes" in stats or "Owls 0 : 1 Foxes" in stats
    assert last_night and tonight, stats  # each evening with its own names


def test_a_new_evening_within_the_second_is_still_a_new_one(tmp_path):
    from codenames_board.evening import Evening

    evening = Evening(tmp_path)
    evening.begin(EIGHT_PM)
    first = evening.started
    evening.begin(EIGHT_PM)
    assert evening.started != first


def test_the_console_keeps_the_score_when_a_game_is_continued_with_record(tmp_path, run_cli):
    state = tmp_path / "state" / "codenames-board" / "console"
    key = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"
    first = run_cli("console", "--key", key, input="1\nE5\nquit\n")
    assert "Red 0 : 1 Blue" in first.stdout
    record = sorted(state.glob("*.jsonl"))[0]
    again = run_cli("console", "--record", record, input="score\nnew\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "Red 0 : 1 Blue" in again.stdout  # the record's folder's evening, not nothing
    newest = max(state.glob("*.jsonl"), key=lambda path: path.stat().st_mtime)
    assert json.loads(newest.read_text().splitlines()[0])["evening"] == json.loads(record.read_text().splitlines()[0])["evening"]


def test_two_teams_of_one_name_are_refused_in_the_config_and_the_command(run_cli):
    with pytest.raises(ConfigErrors) as caught:
        parse('[evening]\nred = "Owls"\nblue = "OWLS"\n')
    assert caught.value.errors[0].msgid == "evening.same_names_config"
    assert parse('[evening]\nred = ""\nblue = ""\n').evening.red == ""  # both by colour: fine
    refused = run_cli("evening", "--names", "Owls", "owls")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "for both teams" in refused.stderr
