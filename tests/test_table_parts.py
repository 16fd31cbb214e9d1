"""The table's parts, each alone with a settable clock: gestures, prompts, the sand timer's run,
the recorded game and the LED output's fast path."""

import errno

import pytest

from codenames_board.compositor import Compositor, Layout
from codenames_board.engine import Clue, EndTurn, GameView, IllegalAction, Key, Phase, Touch, Undo, new_game
from codenames_board.gestures import ButtonDown, ButtonUp, EncoderStep, Gestures
from codenames_board.i18n import Translator
from codenames_board.outputs import LedOutput, sound_for
from codenames_board.prompts import CONFIRM_SECONDS, NOTICE_SECONDS, Prompts
from codenames_board.published import Refused, TableState, TimerExpired, TouchRefused
from codenames_board.recorded import CANNOT_SAVE, REPAIR_SECONDS, RecordedGame, play_recorded
from codenames_board.sandtimer import TimerRun
from codenames_board.ui import Confirm, Notice, UiState

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA:red"


def gestures():
    return Gestures({"new_game": 3.0, "end_turn": 2.0})


def test_a_click_a_hold_and_a_release_after_a_hold():
    hands = gestures()
    assert hands.event(ButtonDown("end_turn"), 0.0, asking=False) is None  # decided on release
    assert hands.event(ButtonUp("end_turn"), 0.5, asking=False) == ("end_turn",)
    hands.event(ButtonDown("end_turn"), 1.0, asking=False)
    assert hands.next_wake() == 3.0 and hands.due(2.9) == []
    assert hands.due(3.0) == [("ask_penalty",)] and hands.due(9.0) == []  # once per press
    assert hands.event(ButtonUp("end_turn"), 9.5, asking=False) is None  # the release after a hold means nothing
    hands.event(ButtonDown("new_game"), 10.0, asking=False)
    assert hands.due(13.0) == [("new_game",)] and hands.next_wake() is None


def test_while_a_question_waits_confirm_says_yes_and_any_other_button_no():
    hands = gestures()
    assert hands.event(ButtonDown("clue_confirm"), 0.0, asking=True) == ("confirm",)
    assert hands.event(ButtonDown("clue_up"), 0.0, asking=True) == ("dismiss",)
    hands.event(ButtonDown("end_turn"), 0.0, asking=True)
    assert hands.event(ButtonUp("end_turn"), 0.1, asking=True) == ("dismiss",)
    assert hands.event(ButtonDown("sand_timer"), 0.0, asking=True) == ("start_timer",)  # the timer is no answer


def test_buttons_and_the_encoder_without_a_question():
    hands = gestures()
    assert hands.event(ButtonDown("clue_down"), 0.0, asking=False) == ("step", -1)
    assert hands.event(EncoderStep(3), 0.0, asking=False) == ("step", 3)
    assert hands.event(ButtonDown("undo"), 0.0, asking=False) == ("ask_undo",)
    assert hands.event(ButtonUp("undo"), 0.1, asking=False) is None
    assert hands.event(ButtonUp("end_turn"), 0.1, asking=False) is None  # never went down here


def test_a_question_and_notices_go_away_on_their_own():
    prompts = Prompts()
    prompts.ask(Confirm.UNDO, 10.0)
    for number in range(4):
        prompts.notice(Notice(f"notice.n{number}"), 10.0 + number)
    assert [notice.msgid for notice in prompts.notices] == ["notice.n1", "notice.n2", "notice.n3"]  # the last three
    assert prompts.next_wake() == 11.0 + NOTICE_SECONDS
    prompts.update(11.0 + NOTICE_SECONDS)
    assert [notice.msgid for notice in prompts.notices] == ["notice.n2", "notice.n3"]
    prompts.update(10.0 + CONFIRM_SECONDS)
    assert prompts.question is None and prompts.notices == ()
    assert prompts.next_wake() is None


def test_forgotten_notices_leave_the_others_with_their_times():
    prompts = Prompts()
    prompts.notice(Notice("notice.record_unsaved"), 0.0)
    prompts.notice(Notice("notice.other"), 1.0)
    assert prompts.showing(CANNOT_SAVE)
    prompts.forget(CANNOT_SAVE)
    assert [notice.msgid for notice in prompts.notices] == ["notice.other"] and not prompts.showing(CANNOT_SAVE)
    assert prompts.next_wake() == 1.0 + NOTICE_SECONDS


def test_the_sand_timer_counts_whole_seconds_and_runs_out_once():
    run = TimerRun(clue_seconds=0, guess_seconds=5, mode="strict")
    assert not run.start(Phase.CLUE, 0.0) and run.shown is None  # no clue timer configured
    assert run.start(Phase.GUESS, 100.0) and run.shown.left == 5.0
    assert not run.tick(100.2) and run.shown.left == 5.0  # rounded up
    assert run.next_wake(100.2) == pytest.approx(101.0)
    assert not run.tick(104.5) and run.shown.left == 1.0
    assert run.tick(105.0) and run.shown.expired
    assert not run.tick(106.0) and run.next_wake(106.0) is None
    run.stop()
    assert run.shown is None


class Writer:
    """A record writer whose disk fails while ``failing`` is set."""

    def __init__(self):
        self.lines, self.failing, self.fault, self.synced = [], None, None, []

    def write(self, action, time):
        if self.failing:
            self.fault = self.failing
            raise self.failing
        self.lines.append(action)

    def append(self, action, time):
        self.write(action, time)
        self.synced.append(action)

    def repair(self):
        if self.failing:
            raise self.failing
        self.fault = None

    def close(self):
        pass


def test_an_action_the_record_refuses_is_taken_back_and_said():
    prompts = Prompts()
    recorded = RecordedGame(prompts, Translator("en"), lambda: "2026-11-28T08:00:00Z")
    writer = Writer()
    recorded.take(new_game(Key.from_text(KEY)), writer)
    assert recorded.play(Clue(2), 0.0) is not None
    before = recorded.game.state()
    writer.failing = OSError(errno.EIO, "I/O error")
    assert recorded.play(Touch(0), 1.0) is None
    assert recorded.game.state() == before and writer.lines == [Clue(2)]  # what is not on disk did not happen
    assert prompts.notices[-1].msgid == "notice.record_unwritable" and recorded.repair_at == 1.0 + REPAIR_SECONDS
    recorded.update(1.0 + REPAIR_SECONDS)  # still failing: tried again later
    assert recorded.repair_at == 1.0 + 2 * REPAIR_SECONDS
    writer.failing = None
    recorded.update(1.0 + 2 * REPAIR_SECONDS)
    assert [notice.msgid for notice in prompts.notices] == ["notice.record_saved"] and not recorded.unsaved
    assert recorded.play(Touch(0), 20.0) is not None and writer.lines == [Clue(2), Touch(0)]


def test_a_refused_undo_brings_the_undone_action_back_and_illegal_actions_change_nothing():
    game, writer = new_game(Key.from_text(KEY)), Writer()
    play_recorded(game, writer, Clue(1), "t", durable=True)
    assert writer.synced == [Clue(1)]  # the console's: synced before it returns
    writer.failing = OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(OSError):
        play_recorded(game, writer, Undo(), "t")
    assert game.actions == [Clue(1)] and game.phase is Phase.GUESS
    with pytest.raises(IllegalAction):
        play_recorded(game, writer, EndTurn(), "t")  # no guess yet: refused before the record is asked
    assert game.actions == [Clue(1)]


class Board:
    def __init__(self):
        self.frames = []

    def show(self, frame):
        self.frames.append(frame)


def test_the_led_output_lights_the_touched_tile_first_then_the_whole_frame():
    board = Board()
    leds = LedOutput(board, Compositor(Layout(25, 10, 2)))
    game = new_game(Key.from_text(KEY))
    game.play(Clue(1))
    leds.show(TableState(GameView.of(game), UiState(), None, 1, 1), 0.0)
    before = board.frames[-1]
    events = tuple(game.play(Touch(17)))  # a bystander: the turn passes too
    leds.show(TableState(GameView.of(game), UiState(), None, 1, 1, events), 1.0)
    fast, whole = board.frames[-2:]
    changed = [led for led in range(37) if fast[3 * led : 3 * led + 3] != before[3 * led : 3 * led + 3]]
    assert changed == [17]  # only the touched tile in the first frame
    assert whole[3 * 35 :] != before[3 * 35 :]  # the turn LEDs follow in the next
    assert leds.next_wake(1.0) is not None  # the reveal's flash runs


def test_every_cue_has_its_sound():
    assert [sound_for(cue) for cue in (TouchRefused(3), Refused(), TimerExpired())] == ["refused", "refused", "timer"]


def test_undo_held_asks_to_unpair_when_the_page_is_on_and_a_click_still_asks_to_undo():
    hands = Gestures({"new_game": 2.0, "end_turn": 2.0, "undo": 2.0})  # the web page on
    assert hands.event(ButtonDown("undo"), 0.0, asking=False) is None  # decided on release or when held
    assert hands.event(ButtonUp("undo"), 0.3, asking=False) == ("ask_undo",)
    hands.event(ButtonDown("undo"), 1.0, asking=False)
    assert hands.next_wake() == 3.0
    assert hands.due(2.9) == [] and hands.due(3.0) == [("ask_unpair",)]
    assert hands.event(ButtonUp("undo"), 3.5, asking=True) is None  # the hold counted: its release is nothing
    hands.event(ButtonDown("undo"), 4.0, asking=True)
    assert hands.event(ButtonUp("undo"), 4.1, asking=True) == ("dismiss",)  # a click says no to the question


def test_the_clue_dial_steps_through_the_numbers_and_rests_outside_the_clue_phase():
    from codenames_board.gestures import CLUE_STEPS, ClueDial

    dial = ClueDial()
    dial.follow(Phase.CLUE)
    assert dial.draft == 1
    dial.step(-1)
    assert dial.draft == 0 == CLUE_STEPS[-1]
    dial.step(2)
    assert dial.draft == 2
    dial.follow(Phase.GUESS)
    assert dial.draft is None and dial.count == 1


@pytest.mark.parametrize("seconds", [1, 3, 60, 0.5, 2.25, 7.1])
@pytest.mark.parametrize("start", [0.0, 1000.0, 12.3, 5000.000001])
def test_the_sand_timers_wakes_always_move_on_and_it_runs_out_once(seconds, start):
    run = TimerRun(seconds, seconds, "advisory", False)
    run.start(Phase.CLUE, start)
    now, wakes, shown, ran_out = start, 0, [], 0
    while (wake := run.next_wake(now)) is not None:
        assert wake > now, f"a wake at {wake} from {now}: a loop going there would never move on"
        now, wakes = wake, wakes + 1
        ran_out += run.tick(now)
        shown.append(run.shown.left)
        assert wakes < 1000
    assert ran_out == 1 and shown[-1] == 0.0
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == len(shown)  # each second once, down to 0


@pytest.mark.parametrize("seconds", [5, 1])  # whole seconds, as the configuration takes them
def test_a_scripted_game_with_the_sand_timer_running_ends(tmp_path, seconds, run_cli):
    script = tmp_path / "timer.script"
    script.write_text("clue 2\npress sand_timer\nwait 0.01\nwait 3\n")
    config = tmp_path / "config.toml"
    config.write_text(f"[timer]\nclue_seconds = 0\nguess_seconds = {seconds}\n")
    done = run_cli("sim", "--headless", "--config", config, "--script", script, "--json", env={"SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
