"""The table's logic: touches and buttons in; records, LED frames, sounds and questions out."""

from datetime import datetime, timezone

import pytest

from codenames_board.config import parse
from codenames_board.engine import Identity, Phase, Team
from codenames_board.i18n import Translator
from codenames_board.outputs import LedOutput, ScreenOutput
from codenames_board.record import read_record
from codenames_board.sounds import SOUNDS, Sounder
from codenames_board.table import ButtonDown, ButtonUp, EncoderStep, Table
from codenames_board.tileboard import VirtualTileBoard
from codenames_board.ui import Confirm
from patience import PATIENCE_S

SEED = 7


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Buzzer:
    def __init__(self):
        self.calls = []

    def play(self, hz):
        self.calls.append(hz)

    def stop(self):
        self.calls.append(0)


@pytest.fixture
def make_table(tmp_path):
    tables = []

    def make(settings="", seed=SEED):
        config = parse(f'state_dir = "{tmp_path / "state"}"\n{settings}')
        clock = Clock()
        board = VirtualTileBoard(status_leds=config.tiles.timer_leds + config.tiles.turn_leds)
        sounder = Sounder(Buzzer())
        table = Table(
            config, Translator("en"), board, clock, sounder=sounder, new_seed=lambda: seed,
            wall_clock=lambda: datetime(2026, 11, 22, 20, 0, len(tables), tzinfo=timezone.utc),
        )
        board.on_event = table.handle
        table.start()
        tables.append(table)
        return table, board, clock

    yield make
    for table in tables:
        table.close()


def leds_of(table):
    """The table's LED output (the first of its outputs)."""
    return next(output for output in table.outputs if isinstance(output, LedOutput))


def press(table, name, clock=None, hold=0.0):
    table.handle(ButtonDown(name))
    if clock is not None and hold:
        clock.now += hold
        table.update()
    table.handle(ButtonUp(name))


def agents(table, team):
    return [tile for tile in table.game.key.agents(team) if not table.game.is_revealed(tile)]


def tiles_of(table, identity):
    return [tile for tile, found in enumerate(table.game.key) if found is identity and not table.game.is_revealed(tile)]


def give_clue(table, number):
    """Dial the number on the spymaster panel from the default 1, then confirm."""
    for _ in range(number - 1):
        press(table, "clue_up")
    press(table, "clue_confirm")


def pass_time(table, clock, seconds):
    """Let ``seconds`` pass, waking the table whenever it asked to; returns the wakes.

    Ends at that time, not when no wake is left: after a game the assassin's tile dips for ever."""
    end, wakes = clock.now + seconds, []
    while (wake := table.next_wake()) is not None and wake <= end:
        assert not wakes or wake > wakes[-1], f"the table asks to wake at {wake} again after {wakes[-1]}: no progress"
        clock.now = max(clock.now, wake)
        wakes.append(wake)
        table.update()
    clock.now = end
    table.update()
    return wakes


def recorded(table):
    return [action.name for _, action in read_record(table.writer.path).actions]


def test_a_whole_game_is_played_with_touches_and_buttons_and_recorded(make_table):
    table, board, clock = make_table()
    start = table.game.key.start
    give_clue(table, 2)
    assert (table.game.phase, table.game.clue, table.game.guesses_left) == (Phase.GUESS, 2, 3)
    for tile in agents(table, start)[:2]:
        board.tap(tile)
    press(table, "end_turn")
    assert table.game.turn is start.other
    while not table.game.is_over:  # the other team finds all of its agents with unlimited clues
        for _ in range(10):
            press(table, "clue_down")  # 1 -> 0 -> unlimited ...
            if table.ui.clue_draft == "unlimited":
                break
        press(table, "clue_confirm")
        for tile in agents(table, table.game.turn):
            board.tap(tile)
    assert (table.game.outcome.winner, table.game.outcome.reason.value) == (start.other, "agents")
    assert read_record(table.writer.path).replay().state() == table.game.state()
    assert "win" in table.sounder.played


def test_the_leds_show_what_was_revealed(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    tile = tiles_of(table, Identity.BYSTANDER)[0]
    board.tap(tile)
    clock.now += 1.0  # after the reveal animation
    table.update()
    assert board.tile_colour(tile) == table.config.colours.bystander


def test_a_touch_before_the_clue_is_refused_with_a_blink_and_a_notice(make_table):
    table, board, clock = make_table()
    tile = agents(table, table.game.turn)[0]
    board.tap(tile)
    assert not table.game.revealed and recorded(table) == []
    assert board.tile_colour(tile) == table.config.colours.refused
    assert table.ui.notices[-1].msgid == "notice.clue_first"
    assert table.sounder.played[-1] == "refused"
    clock.now += 1.0
    table.update()
    assert board.tile_colour(tile) != table.config.colours.refused


def test_undo_asks_first_and_any_other_button_says_no(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    board.tap(tiles_of(table, Identity.ASSASSIN)[0])
    assert table.game.is_over
    press(table, "undo")
    assert table.ui.confirm is Confirm.UNDO
    press(table, "sand_timer")  # anyone's button: it does not answer the spymaster's question
    assert table.ui.confirm is Confirm.UNDO
    press(table, "clue_down")
    assert table.ui.confirm is None and table.game.is_over
    press(table, "undo")
    press(table, "clue_confirm")
    assert not table.game.is_over and table.game.phase is Phase.GUESS
    assert recorded(table) == ["clue", "touch", "undo"]


def test_an_unanswered_question_goes_away(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    press(table, "undo")
    clock.now += 16
    table.update()
    assert table.ui.confirm is None


def test_new_game_needs_a_long_press_and_a_confirmation_while_a_game_is_unfinished(make_table):
    table, board, clock = make_table()
    first = table.writer.path
    give_clue(table, 1)
    press(table, "new_game", clock, hold=0.5)  # too short
    assert table.ui.confirm is None
    press(table, "new_game", clock, hold=2.0)
    assert table.ui.confirm is Confirm.NEW_GAME
    press(table, "clue_confirm")
    assert table.writer.path != first and table.game.actions == []
    assert recorded(table) == []
    assert read_record(first).replay().state()["phase"] == "guess"  # the old game is kept


def test_new_game_after_the_end_needs_no_confirmation(make_table):
    table, board, clock = make_table()
    first = table.writer.path
    give_clue(table, 1)
    board.tap(tiles_of(table, Identity.ASSASSIN)[0])
    press(table, "new_game", clock, hold=2.0)
    assert table.writer.path != first and table.ui.confirm is None


def test_holding_end_turn_asks_about_an_illegal_clue(make_table):
    table, board, clock = make_table()
    give_clue(table, 3)
    press(table, "end_turn", clock, hold=2.0)
    assert table.ui.confirm is Confirm.PENALTY and table.game.phase is Phase.GUESS
    press(table, "clue_confirm")
    assert table.game.phase is Phase.COVER and recorded(table) == ["clue", "penalty"]
    covering = table.game.turn
    board.tap(agents(table, covering)[0])
    assert table.game.phase is Phase.CLUE and table.game.turn is covering


def test_end_turn_before_a_guess_is_refused(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    press(table, "end_turn")
    assert table.game.phase is Phase.GUESS and table.sounder.played[-1] == "refused"
    assert [n.msgid for n in table.ui.notices] == ["notice.guess_first"]  # seen, with the sound off too


def test_the_encoder_dials_the_clue_number(make_table):
    table, board, clock = make_table(
        '[controls]\nclue_input = "encoder"\n'
    )
    for _ in range(3):
        table.handle(EncoderStep(1))
    table.handle(EncoderStep(-1))
    assert table.ui.clue_draft == 3
    press(table, "clue_confirm")
    assert table.game.clue == 3


def test_a_strict_timer_ends_the_turn_at_zero(make_table):
    table, board, clock = make_table('[timer]\nmode = "strict"\nguess_seconds = 30\n')
    give_clue(table, 2)
    team = table.game.turn
    press(table, "sand_timer")
    assert table.ui.timer.left == 30
    clock.now += 12.5
    table.update()
    assert table.ui.timer.left == 18  # whole seconds, rounded up
    clock.now = table.next_wake()
    assert clock.now == pytest.approx(1000 + 13)
    clock.now += 17.5
    table.update()
    assert table.game.turn is team.other and recorded(table)[-1] == "timeout"
    assert "timer" in table.sounder.played
    # Said on the display and the public page, not only shown by the turn passing.
    assert [(n.msgid, dict(n.params)) for n in table.ui.notices] == [("notice.time_up", {"team": team.value})]


def test_an_advisory_timer_only_beeps_and_flashes(make_table):
    table, board, clock = make_table("[timer]\nguess_seconds = 30\n")
    give_clue(table, 2)
    press(table, "sand_timer")
    clock.now += 31
    table.update()
    assert table.game.phase is Phase.GUESS and table.ui.timer.expired
    assert table.sounder.played[-1] == "timer"
    assert board.frames[-1][3 * 25 : 3 * 35] in (bytes([255, 0, 0]) * 10, bytes(30))  # the bar flashes


def test_auto_start_starts_the_timer_at_each_phase(make_table):
    table, board, clock = make_table("[timer]\nauto_start = true\nclue_seconds = 60\nguess_seconds = 45\n")
    assert table.ui.timer.total == 60
    give_clue(table, 1)
    assert table.ui.timer.total == 45


def test_without_clue_entry_every_touch_is_a_guess(make_table):
    table, board, clock = make_table("[game]\nclue_entry = false\n")
    assert table.game.phase is Phase.GUESS and table.game.guesses_left is None
    board.tap(agents(table, table.game.turn)[0])
    assert len(table.game.revealed) == 1


def test_an_unfinished_game_is_resumed_where_it_stopped(make_table):
    table, board, clock = make_table()
    give_clue(table, 2)
    board.tap(agents(table, table.game.turn)[0])
    state, path = table.game.state(), table.writer.path
    table.close()
    again, _, _ = make_table(seed=99)
    assert again.writer.path == path and again.game.state() == state


def test_a_finished_game_is_not_resumed(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    board.tap(tiles_of(table, Identity.ASSASSIN)[0])
    path = table.writer.path
    table.close()
    again, _, _ = make_table(seed=99)
    assert again.writer.path != path and not again.game.actions


def test_a_damaged_record_is_left_alone_and_a_new_game_starts(make_table, tmp_path):
    games = tmp_path / "state" / "games"
    games.mkdir(parents=True)
    damaged = games / "20991231-235959-classic.jsonl"
    damaged.write_text('{"format": "codenames-board/1"}\n')
    table, board, clock = make_table()
    assert table.writer.path != damaged and damaged.read_text() == '{"format": "codenames-board/1"}\n'
    assert table.ui.notices[-1].msgid == "notice.record_damaged"


def test_unplugging_the_tile_board_shows_and_replugging_resends_the_frame(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    board.unplug()
    assert not table.ui.board_connected
    board.plug()
    assert table.ui.board_connected
    assert board.frames[-1] == leds_of(table).last_frame


def test_every_action_is_on_disk_before_the_leds_show_it(make_table):
    table, board, clock = make_table()
    on_disk_when_shown = []
    show = board.show

    def checking_show(frame):
        on_disk_when_shown.append(len(read_record(table.writer.path).actions))
        show(frame)

    board.show = checking_show
    give_clue(table, 1)
    board.tap(agents(table, table.game.turn)[0])
    assert on_disk_when_shown[-1] == 2


def test_nothing_to_do_means_no_wake_up(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    clock.now += 5
    table.update()
    assert table.next_wake() is None  # no animation, no timer: the controller just waits for events


def test_the_buzzer_plays_the_sounds(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    board.tap(tiles_of(table, Identity.ASSASSIN)[0])
    assert table.sounder.played[-1] == "assassin"
    assert table.sounder.buzzer.calls[-1] == SOUNDS["assassin"][0][0]  # its first note, at once
    pass_time(table, clock, 10.0)  # far longer than the sound
    assert table.sounder.buzzer.calls[-1] == 0 and table.sounder.next_change() is None


def test_after_a_game_the_table_wakes_only_for_the_assassins_dip_and_a_new_game_stops_it(make_table):
    from codenames_board.compositor import DIP_PERIOD_S, STROBE_S, SWEEP_S

    table, board, clock = make_table()
    give_clue(table, 1)
    assassin = tiles_of(table, Identity.ASSASSIN)[0]
    board.tap(assassin)
    pass_time(table, clock, STROBE_S + SWEEP_S)  # the strobe, then the sweep: the sound is long over
    frames = len(board.frames)
    wakes = pass_time(table, clock, 10 * DIP_PERIOD_S)
    assert len(wakes) == 4 * 10 and min(b - a for a, b in zip(wakes, wakes[1:])) >= 0.1 - 1e-9
    shown = board.frames[frames:]
    assert len(shown) == 4 * 10  # one frame a wake, each different from the last
    changed = {led for before, after in zip(shown, shown[1:]) for led in range(37) if before[3 * led : 3 * led + 3] != after[3 * led : 3 * led + 3]}
    assert changed == {assassin}
    press(table, "new_game", clock, hold=3)
    assert not table.game.is_over
    pass_time(table, clock, 1.0)  # the new game's first frames
    assert table.next_wake() is None
    assert board.tile_colour(assassin) == table.config.colours.idle


def test_tile_board_problems_become_notices_with_tile_names(make_table):
    from codenames_board.tileboard import BoardProblem

    table, board, clock = make_table()
    table.handle(BoardProblem("stuck", "12"))
    table.handle(BoardProblem("pads", "1"))
    table.handle(BoardProblem("pads", "-"))
    table.handle(BoardProblem("weird", "x"))
    texts = [notice.text(table.tr) for notice in table.ui.notices]
    assert texts == [
        "Touch controller 2 (I2C0 0x5B) does not answer: its tiles are dead.",
        "All touch controllers answer again.",
        "The tile board reports: x",
    ]
    clock.now += 9
    table.update()
    assert table.ui.notices == ()


def test_silent_touch_controllers_are_named_as_the_build_guide_counts_them(make_table):
    """The firmware counts the MPR121s from 0; hardware/README.md's tables call 0x5A on I2C0 "MPR121 1"."""
    from codenames_board.tileboard import BoardProblem
    from codenames_firmware import board

    from codenames_board import prompts as table_module

    assert table_module.TOUCH_CONTROLLERS == tuple((bus, address) for bus, address, _ in board.MPR121S)
    table, _, _ = make_table()
    table.handle(BoardProblem("pads", "0,2"))
    assert table.ui.notices[-1].text(table.tr) == "Touch controllers 1 (I2C0 0x5A), 3 (I2C1 0x5A) do not answer: their tiles are dead."
    table.handle(BoardProblem("pads", "0"))
    assert table.ui.notices[-1].text(table.tr) == "Touch controller 1 (I2C0 0x5A) does not answer: its tiles are dead."


def test_a_new_or_resumed_game_is_shown_at_once_without_waiting_for_a_touch(make_table):
    table, board, clock = make_table()
    turn_leds = board.frames[-1][3 * 35 :]
    assert turn_leds == bytes(table.config.colours.red if table.game.turn is Team.RED else table.config.colours.blue) * 2
    table.close()
    again, board_again, _ = make_table()
    assert board_again.frames[-1][3 * 35 :] == turn_leds


class OrderLog:
    """A display and a buzzer that note, with the tile board's frames, in which order they were reached."""

    def __init__(self, table, board):
        self.events = []
        show = board.show

        def noting_show(frame):
            self.events.append("frame")
            show(frame)

        board.show = noting_show
        play = table.sounder.buzzer.play
        table.sounder.buzzer.play = lambda hz: (self.events.append("buzzer"), play(hz))
        table.outputs.add(ScreenOutput(self))  # the display: after the LEDs and the buzzer

    def update(self, game, ui):
        self.events.append("display")
        self.game = game


def test_a_touch_reaches_the_leds_before_the_buzzer_and_the_display(make_table):
    table, board, clock = make_table()
    give_clue(table, 1)
    log = OrderLog(table, board)
    board.tap(agents(table, table.game.turn)[0])
    assert log.events[:3] == ["frame", "buzzer", "display"]


def test_the_display_gets_a_copy_that_the_game_does_not_change_afterwards(make_table):
    table, board, clock = make_table()
    log = OrderLog(table, board)
    give_clue(table, 1)
    shown = log.game
    assert shown is not table.game and shown.phase is Phase.GUESS
    board.tap(agents(table, table.game.turn)[0])
    assert list(shown.revealed) == [] and list(log.game.revealed) == table.game.revealed


def test_the_record_is_written_on_the_touch_path_and_synced_off_it(make_table):
    table, board, clock = make_table()
    assert table.writer.background_sync
    give_clue(table, 1)
    board.tap(agents(table, table.game.turn)[0])
    assert recorded(table) == ["clue", "touch"]  # written at once: a killed process loses nothing
    assert table.writer.wait_synced(timeout=PATIENCE_S)


def failing_writes(table, monkeypatch):
    """The disk is full: every write to the record fails (the real writer, the real error)."""
    import os

    write = os.write

    def refuse(fd, data):
        if fd == table.writer._fd:
            raise OSError(28, "No space left on device")
        return write(fd, data)

    monkeypatch.setattr(os, "write", refuse)


def test_an_undo_that_cannot_be_written_takes_back_nothing(make_table, monkeypatch):
    table, board, clock = make_table()
    give_clue(table, 3)
    for tile in agents(table, table.game.turn)[:2]:
        board.tap(tile)
    state, actions = table.game.state(), list(table.game.actions)
    with monkeypatch.context() as patch:
        failing_writes(table, patch)
        press(table, "undo")
        press(table, "clue_confirm")  # yes, undo
    assert table.game.state() == state and table.game.actions == actions  # not two actions undone, not one
    assert table.ui.notices[-1].msgid == "notice.record_unwritable"
    assert read_record(table.writer.path).replay().state() == state  # memory and disk agree


def test_a_touch_that_cannot_be_written_is_never_shown(make_table, monkeypatch):
    table, board, clock = make_table()
    give_clue(table, 1)
    frames = len(board.frames)
    tile = agents(table, table.game.turn)[0]
    with monkeypatch.context() as patch:
        failing_writes(table, patch)
        board.tap(tile)
    assert not table.game.is_revealed(tile)
    assert board.tile_colour(tile) != table.config.colours.as_dict()[table.game.turn.value]
    assert all(frame[3 * tile : 3 * tile + 3] == board.frames[frames - 1][3 * tile : 3 * tile + 3] for frame in board.frames[frames:])
    assert recorded(table) == ["clue"]


def test_a_failed_background_fsync_shows_a_notice(make_table, monkeypatch):
    import os

    from codenames_board.table import RecordSyncFailed

    posted = []
    table, board, clock = make_table()
    table.post = posted.append
    table.writer.on_sync_error = table._sync_failed

    def failing(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    give_clue(table, 1)
    assert not table.writer.wait_synced(timeout=5)
    assert [type(event) for event in posted] == [RecordSyncFailed]
    table.handle(posted[0])  # as the controller's thread would
    assert table.ui.notices[-1].msgid == "notice.record_unsaved"
    assert dict(table.ui.notices[-1].params)["why"] == "the disk reports an error"


def test_after_a_failed_fsync_the_game_is_kept_and_written_out_when_the_disk_recovers(make_table, monkeypatch):
    import errno
    import os

    from codenames_board.recorded import REPAIR_SECONDS

    posted = []
    table, board, clock = make_table()
    table.post = posted.append
    table.writer.on_sync_error = table._sync_failed
    give_clue(table, 2)
    first = agents(table, table.game.turn)[0]
    board.tap(first)
    assert table.writer.wait_synced(timeout=PATIENCE_S)

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing)
        second = agents(table, table.game.turn)[0]
        board.tap(second)  # written, shown; its fsync fails: the kernel may have dropped it
        assert not table.writer.wait_synced(timeout=5)
        table.handle(posted.pop())
        assert table.ui.notices[-1].msgid == "notice.record_unsaved"
        state = table.game.state()
        board.tap(agents(table, table.game.turn)[0])  # refused while the record cannot be kept
        assert table.game.state() == state
        clock.now += REPAIR_SECONDS
        table.update()  # a retry that fails again: still kept, still said
        assert table.writer.fault is not None and table.game.state() == state
        assert table.next_wake() <= clock.now + REPAIR_SECONDS
    clock.now += REPAIR_SECONDS
    table.update()  # the disk works again: the record is written out whole
    assert table.writer.fault is None
    assert table.ui.notices[-1].msgid == "notice.record_saved"
    assert read_record(table.writer.path).replay().state() == state
    assert not list(table.games_dir.glob("*.rewrite"))
    board.tap(agents(table, table.game.turn)[0])  # and the game goes on, recorded
    assert table.writer.wait_synced(timeout=PATIENCE_S)
    assert read_record(table.writer.path).replay().state() == table.game.state()


def test_a_games_folder_removed_during_a_game_is_made_again_with_the_whole_game(make_table):
    import shutil

    from codenames_board.recorded import REPAIR_SECONDS

    posted = []
    table, board, clock = make_table()
    table.post = posted.append
    table.writer.on_sync_error = table._sync_failed
    give_clue(table, 2)
    assert table.writer.wait_synced(timeout=PATIENCE_S)
    shutil.rmtree(table.games_dir)  # someone tidies the SD card during the game
    board.tap(agents(table, table.game.turn)[0])  # written into a file no name points to
    assert not table.writer.wait_synced(timeout=5)
    table.handle(posted.pop())
    assert dict(table.ui.notices[-1].params)["why"] == "the games folder is gone"
    clock.now += REPAIR_SECONDS
    table.update()
    assert read_record(table.writer.path).replay().state() == table.game.state()
    assert recorded(table) == ["clue", "touch"]


def test_a_half_line_that_cannot_be_cut_off_is_replaced_by_the_whole_record(make_table, monkeypatch):
    import errno
    import os

    table, board, clock = make_table()
    give_clue(table, 2)
    state = table.game.state()
    write = os.write

    def short_then_full(fd, data):
        if fd == table.writer._fd and len(data) > 4:
            write(fd, bytes(data[:4]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return write(fd, data)

    def no_truncate(fd, size):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", short_then_full)
        patch.setattr(os, "ftruncate", no_truncate)
        board.tap(agents(table, table.game.turn)[0])
    assert table.game.state() == state
    assert dict(table.ui.notices[-1].params)["why"] == "the disk is full"
    assert table.writer.fault is not None  # four stray bytes on the disk
    board.tap(agents(table, table.game.turn)[0])  # space again: the record is rewritten, then the touch
    assert table.ui.notices[-1].msgid == "notice.record_saved"
    record = read_record(table.writer.path)
    assert record.torn_line is None and record.replay().state() == table.game.state()
    assert recorded(table) == ["clue", "touch"]


def test_closing_with_a_record_at_fault_writes_it_out_one_last_time(make_table, monkeypatch):
    import errno
    import os

    table, board, clock = make_table()
    give_clue(table, 2)
    path = table.writer.path

    def failing(fd):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing)
        board.tap(agents(table, table.game.turn)[0])
        assert not table.writer.wait_synced(timeout=5)
    state = table.game.state()
    os.truncate(path, 0)  # what a failed fsync may leave after a power cut, at worst
    table.close()  # the service stops: one last try, which works
    assert read_record(path).replay().state() == state


def test_the_key_is_never_logged_above_debug(make_table, caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="codenames_board"):
        table, board, clock = make_table()
        press(table, "new_game", clock, hold=3)
    assert table.game.key.letters not in caplog.text
    assert "new game" in caplog.text


def test_a_refused_touch_blinks_before_the_buzzer_sounds(make_table):
    table, board, clock = make_table()
    log = OrderLog(table, board)
    tile = agents(table, table.game.turn)[0]
    board.tap(tile)  # no clue yet: refused
    assert log.events[:2] == ["frame", "buzzer"]
    assert board.tile_colour(tile) == table.config.colours.refused


def test_new_game_on_a_full_disk_keeps_the_game_on_the_table(make_table, monkeypatch):
    import errno
    import os

    table, board, clock = make_table()
    give_clue(table, 1)
    board.tap(agents(table, table.game.turn)[0])
    game, writer = table.game, table.writer
    records = sorted(table.games_dir.glob("*.jsonl"))
    write = os.write

    def full(fd, data):
        if fd != writer._fd:  # the new record's header: no space left
            raise OSError(errno.ENOSPC, "No space left on device")
        return write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", full)
        press(table, "new_game", clock, hold=3)
        press(table, "clue_confirm")  # yes, a new game
    assert table.game is game and table.writer is writer and not writer.closed
    assert table.ui.notices[-1].msgid == "notice.record_no_new_game"
    assert sorted(table.games_dir.glob("*.jsonl")) == records  # no empty record left behind
    board.tap(agents(table, table.game.turn)[0])  # the game goes on, recorded
    assert recorded(table) == ["clue", "touch", "touch"]
    press(table, "new_game", clock, hold=3)  # space came back: a new game starts
    press(table, "clue_confirm")
    assert table.game is not game and recorded(table) == []


def test_a_line_cut_off_by_a_power_cut_is_said_at_resume(make_table, caplog):
    import logging

    table, board, clock = make_table()
    give_clue(table, 2)
    board.tap(agents(table, table.game.turn)[0])
    path = table.writer.path
    table.close()
    with open(path, "ab") as record:
        record.write(b'{"action": "touch", "ti')  # the power went off while this line was written
    with caplog.at_level(logging.WARNING, logger="codenames_board"):
        table, board, clock = make_table()
    assert table.writer.path == path and recorded(table) == ["clue", "touch"]
    assert table.ui.notices[-1].msgid == "notice.record_torn"
    assert "the last line is incomplete" in caplog.text


def test_an_unfinished_game_is_resumed_though_the_clock_went_back(tmp_path):
    # A Pi without a real-time clock: the second game was dealt while the clock was years behind.
    config = parse(f'state_dir = "{tmp_path / "state"}"\n')
    clocks = iter([datetime(2026, 11, 22, 20, 0, tzinfo=timezone.utc), datetime(2020, 1, 1, 0, 0, tzinfo=timezone.utc)])
    moment = [next(clocks)]
    board = VirtualTileBoard(status_leds=12)
    table = Table(config, Translator("en"), board, Clock(), new_seed=lambda: SEED, wall_clock=lambda: moment[0])
    board.on_event = table.handle
    table.start()
    first = table.writer.path
    give_clue(table, 1)
    board.tap(tiles_of(table, Identity.ASSASSIN)[0])  # the first game ends
    assert table.game.is_over
    moment[0] = next(clocks)
    press(table, "new_game", table.clock, hold=3)
    second = table.writer.path
    give_clue(table, 2)
    board.tap(agents(table, table.game.turn)[0])
    table.close()
    assert second.name < first.name  # by name, the unfinished game looks older
    resumed = Table(config, Translator("en"), VirtualTileBoard(status_leds=12), Clock(), new_seed=lambda: SEED)
    resumed.start()
    assert resumed.writer.path == second and len(resumed.game.actions) == 2
    resumed.close()


def test_a_wrong_tile_in_a_cover_tells_only_the_spymaster_display(make_table):
    table, board, clock = make_table()
    give_clue(table, 3)
    press(table, "end_turn", clock, hold=2.0)
    press(table, "clue_confirm")  # penalty: the other team's spymaster may cover an agent
    assert table.game.phase is Phase.COVER
    covering = table.game.turn
    wrong = agents(table, covering.other)[0]
    frames, sounds = len(board.frames), list(table.sounder.played)
    before = board.tile_colour(wrong)
    board.tap(wrong)
    assert table.game.phase is Phase.COVER and not table.game.is_revealed(wrong)
    assert all(frame[3 * wrong : 3 * wrong + 3] == bytes(before) for frame in board.frames[frames:])  # no blink
    assert table.sounder.played == sounds  # no sound either: the operatives learn nothing
    assert table.ui.notices[-1].msgid == "notice.cover_own"


def test_a_wrong_tile_in_a_duo_cover_asks_for_a_shadow_agent(make_table):
    table, board, clock = make_table('variant = "duo"\n')
    give_clue(table, 1)
    players = table.game.turn
    board.tap(next(t for t in range(25) if table.game.key[t].name == "BYSTANDER"))  # the turn ends: the cover
    assert table.game.phase is Phase.COVER and table.game.turn is players.other
    board.tap(agents(table, players)[0])  # one of the players' own: not a shadow agent
    notice = table.ui.notices[-1]
    assert (notice.msgid, dict(notice.params)) == ("notice.cover_shadow", {"team": players.other.value})


def test_an_event_meets_the_table_as_it_stands_at_its_time(make_table):
    """What fell due before an event (a question running out) happens first: no output sees it stale."""
    from codenames_board.prompts import CONFIRM_SECONDS

    table, board, clock = make_table()
    give_clue(table, 1)
    press(table, "undo")
    assert table.ui.confirm is Confirm.UNDO

    class Questions:
        def __init__(self):
            self.shown = []

        def update(self, game, ui):
            self.shown.append(ui.confirm)

    display = Questions()
    table.outputs.add(ScreenOutput(display))
    clock.now += CONFIRM_SECONDS + 0.5  # the controller's wake-up did not come in between
    board.tap(agents(table, table.game.turn)[0])
    assert display.shown == [None]  # one picture, the question already gone
    assert table.game.revealed  # and the touch counted
