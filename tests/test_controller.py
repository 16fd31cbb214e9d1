"""The whole runtime in one process: gpiozero mock pins, the virtual tile board, the display as PNG files."""

import os
import threading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from patience import PATIENCE_S  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from codenames_board.config import parse  # noqa: E402
from codenames_board.controller import Runtime  # noqa: E402
from codenames_board.display import PngOutput, SpymasterScreen  # noqa: E402
from codenames_board.engine import Identity, Phase  # noqa: E402
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.record import read_record  # noqa: E402
from codenames_board.sounds import SOUNDS  # noqa: E402
from codenames_board.tileboard import VirtualTileBoard  # noqa: E402


class Clock:
    def __init__(self):
        self.now = 5000.0

    def __call__(self):
        return self.now


@pytest.fixture
def table_running(tmp_path):
    runs = []

    def start(settings=""):
        config = parse(f'state_dir = "{tmp_path / "state"}"\n[controls]\nbounce_ms = 0\n{settings}')
        factory = MockFactory(pin_class=MockPWMPin)
        board = VirtualTileBoard(status_leds=12)
        screen = SpymasterScreen(PngOutput(tmp_path / "spymaster.png", (480, 320)), Translator("en"))
        clock = Clock()
        runtime = Runtime(config, Translator("en"), pin_factory=factory, tileboard=board, display=screen, clock=clock)
        runtime.start()
        thread = threading.Thread(target=runtime.controller.run)
        thread.start()
        run = Run(runtime, factory, board, clock, config, thread)
        runs.append(run)
        run.settle()
        return run

    yield start
    for run in runs:
        run.stop()


class Run:
    def __init__(self, runtime, factory, board, clock, config, thread):
        self.runtime, self.factory, self.board, self.clock, self.config, self.thread = (
            runtime, factory, board, clock, config, thread,
        )

    @property
    def game(self):
        return self.runtime.table.game

    def settle(self):
        """Wait until the controller has handled everything posted so far."""
        self.runtime.controller.queue.join()

    def press(self, name, hold=0.0):
        pin = self.factory.pin(getattr(self.config.pins, name))
        pin.drive_low()
        self.settle()
        if hold:
            self.clock.now += hold
            self.runtime.controller.post(None)  # time passed: wake the controller
            self.settle()
        pin.drive_high()
        self.settle()

    def tap(self, tile):
        self.board.tap(tile)
        self.settle()

    def unrevealed(self, identity):
        return [tile for tile, found in enumerate(self.game.key) if found is identity and not self.game.is_revealed(tile)]

    def stop(self):
        if self.thread.is_alive():
            self.runtime.controller.stop()
            self.thread.join(timeout=PATIENCE_S)
            self.runtime.close()


def test_a_full_game_with_buttons_and_touches(table_running, tmp_path):
    run = table_running()
    start = run.game.key.start
    run.press("clue_up")
    run.press("clue_confirm")  # clue 2
    assert (run.game.phase, run.game.clue) == (Phase.GUESS, 2)
    run.tap(run.unrevealed(start.identity)[0])
    run.tap(run.unrevealed(Identity.BYSTANDER)[0])  # the turn ends
    assert run.game.turn is start.other
    while not run.game.is_over:
        run.press("clue_confirm")  # clue 1: two guesses, both right
        for tile in run.unrevealed(run.game.turn.identity)[:2]:
            run.tap(tile)
        if not run.game.is_over and run.game.phase is Phase.GUESS:
            run.press("end_turn")
        if not run.game.is_over:
            run.press("clue_confirm")
            run.tap(run.unrevealed(Identity.BYSTANDER)[0] if run.unrevealed(Identity.BYSTANDER) else run.unrevealed(run.game.turn.identity)[0])
    assert run.game.outcome is not None
    record = read_record(run.runtime.table.writer.path)
    assert record.replay().state() == run.game.state()
    assert (tmp_path / "spymaster.png").stat().st_size > 0
    assert run.board.frames, "the LEDs were drawn"


def test_undo_and_new_game_ask_for_confirmation(table_running):
    run = table_running()
    first = run.runtime.table.writer.path
    run.press("clue_confirm")
    run.tap(run.unrevealed(Identity.ASSASSIN)[0])
    assert run.game.is_over
    run.press("undo")
    run.press("clue_confirm")
    assert not run.game.is_over
    run.press("new_game", hold=2.5)
    assert run.runtime.table.ui.confirm is not None and run.runtime.table.writer.path == first
    run.press("clue_confirm")
    assert run.runtime.table.writer.path != first


def test_the_strict_sand_timer_ends_the_turn(table_running):
    run = table_running('[timer]\nmode = "strict"\nguess_seconds = 20\n')
    team = run.game.turn
    run.press("clue_confirm")
    run.press("sand_timer")
    run.clock.now += 21
    run.runtime.controller.post(None)
    run.settle()
    assert run.game.turn is team.other
    assert [action.name for _, action in read_record(run.runtime.table.writer.path).actions][-1] == "timeout"


def test_the_buzzer_pin_sings_on_a_reveal(table_running):
    run = table_running()
    run.press("clue_confirm")
    run.tap(run.unrevealed(run.game.turn.identity)[0])
    assert run.factory.pin(run.config.pins.buzzer).frequency == pytest.approx(SOUNDS["reveal"][0][0])


def test_the_tile_board_unplugged_mid_turn_and_back(table_running):
    run = table_running()
    run.press("clue_confirm")
    tile = run.unrevealed(run.game.turn.identity)[0]
    run.board.unplug()
    run.settle()
    assert not run.runtime.table.ui.board_connected
    run.board.plug()
    run.settle()
    run.tap(tile)
    assert run.game.is_revealed(tile) and run.runtime.table.ui.board_connected


def test_the_status_led_is_lit_while_the_table_runs(table_running):
    run = table_running()
    assert run.factory.pin(run.config.pins.status_led).state


def test_closing_the_window_stops_the_table(tmp_path):
    import pygame

    from codenames_board.display import WindowOutput

    from codenames_board.screenworker import ScreenWorker

    config = parse(f'state_dir = "{tmp_path}"\n[pins]\nbuzzer = false\n')
    worker = ScreenWorker(lambda: SpymasterScreen(WindowOutput((320, 240)), Translator("en"))).start()
    assert worker.wait_open(10)
    runtime = Runtime(config, Translator("en"), pin_factory=MockFactory(), tileboard=VirtualTileBoard(status_leds=12), display=worker)
    runtime.start()
    assert worker.on_closed == runtime.controller.stop
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window's thread sees it at its next pump
    thread = threading.Thread(target=runtime.controller.run)
    thread.start()
    thread.join(timeout=PATIENCE_S)
    assert not thread.is_alive()
    runtime.close()


def test_a_storm_of_touches_is_coalesced_and_a_button_still_gets_through():
    from codenames_board.controller import Controller
    from codenames_board.table import ButtonDown
    from codenames_board.tileboard import TileTouched

    class Recorder:
        def __init__(self):
            self.handled = []

        def handle(self, event):
            self.handled.append(event)

    controller = Controller()
    controller.table = Recorder()

    def storm():  # a misbehaving board: 50,000 touch events as fast as a thread can post them
        for number in range(50_000):
            controller.post(TileTouched(number % 25, bool(number // 25 % 2)))

    threads = [threading.Thread(target=storm) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert controller.queue.qsize() <= 50  # one waiting event per tile and state at most
    assert controller.queue.coalesced >= 100_000 - 50
    controller.post(ButtonDown("end_turn"))
    controller.drain()
    handled = controller.table.handled
    assert handled[-1] == ButtonDown("end_turn") and len(handled) <= 51
    controller.post(TileTouched(3, True))  # once taken, a touch is queued again
    controller.drain()
    assert controller.table.handled[-1] == TileTouched(3, True)


def test_the_configuration_reaches_the_tile_board_leds_order_thresholds_and_tiles_own():
    from codenames_board.controller import configure_tileboard

    board = VirtualTileBoard()
    config = parse(
        '[tiles]\nbrightness = 80\nmax_current_ma = 1500\ntouch_threshold = 14\nrelease_threshold = 7\ntouch_debounce = 2\n'
        '[tiles.thresholds]\nC3 = [8, 4]\n[leds]\norder = "RGB"\n'
    )
    configure_tileboard(board, config)
    assert (board.brightness, board.max_ma, board.led_order) == (80, 1500, "RGB")
    assert board.tuning == (14, 7, 2) and board.pad_tuning == {12: (8, 4)}


def test_a_tile_board_refuses_thresholds_and_orders_the_firmware_would_not_take():
    board = VirtualTileBoard()
    with pytest.raises(ValueError, match="tile 25"):
        board.tune_pads({25: (8, 4)})
    with pytest.raises(ValueError, match="tile 3"):
        board.tune_pads({3: (4, 4)})
    with pytest.raises(ValueError, match="no colour order"):
        board.order("RGBW")
    assert board.pad_tuning == {} and board.led_order is None


def test_the_controller_wakes_while_idle_so_a_signal_caught_by_another_thread_is_acted_on():
    # Ctrl-C's SIGINT can land on any thread; its handler (stop()) runs only when the main thread wakes. An idle
    # table asks for no wake-up at all, and the controller still waits no longer than IDLE_WAKE, without an
    # update the table did not ask for
    from codenames_board import controller as module

    class IdleTable:
        updates = 0

        def next_wake(self):
            return None

        def update(self):
            self.updates += 1

    waits = []

    class Queue:
        def get(self, timeout=None):
            waits.append(timeout)
            if len(waits) < 3:
                raise module.queue.Empty
            return module.STOP

    controller = module.Controller(clock=Clock())
    controller.table = IdleTable()
    controller.queue = Queue()
    controller.run()
    assert waits == [module.IDLE_WAKE] * 3 and controller.table.updates == 0
    # a wake-up due sooner is waited for exactly, and then the table is updated
    clock = Clock()
    waits.clear()

    class DueTable(IdleTable):
        def next_wake(self):
            return clock.now + 0.1

    controller = module.Controller(clock=clock)
    controller.table = DueTable()
    controller.queue = Queue()
    controller.run()
    assert waits == [pytest.approx(0.1)] * 3 and controller.table.updates == 2
