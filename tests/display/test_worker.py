"""The spymaster display on its own thread: hand-over returns at once, the newest state wins."""

from __future__ import annotations

import threading

import pygame
import pytest

from codenames_board.display import DisplayError, PngOutput, SpymasterScreen
from codenames_board.screenworker import ScreenWorker
from codenames_board.engine import Clue, Key, Timeout, new_game
from codenames_board.i18n import Translator
from codenames_board.ui import UiState
from patience import PATIENCE_S

KEY = Key.from_text("RBNRBBRARNRBRNBNRBRNBNRBN:red")


class SlowScreen:
    """Records what it drew; its first draw waits for the test."""

    def __init__(self):
        self.drawn = []
        self.gate = threading.Event()
        self.drawing = threading.Event()
        self.closed = False
        self.thread = None

    def update(self, game, ui):
        self.thread = threading.current_thread()
        self.drawing.set()
        self.gate.wait(PATIENCE_S)
        self.drawn.append((len(game.actions), ui))

    def close(self):
        self.closed = True


def test_update_returns_at_once_and_states_coalesce_to_the_newest():
    screen = SlowScreen()
    worker = ScreenWorker(lambda: screen).start()
    assert worker.wait_open(5)
    game = new_game(KEY)
    worker.update(game.copy(), UiState())
    assert screen.drawing.wait(PATIENCE_S)  # the first draw is stuck at the gate ...
    for count in range(1, 6):  # ... while five more states come, and update never waits for it
        game.play(Clue(1) if count % 2 else Timeout())
        worker.update(game.copy(), UiState(clue_draft=count))
    screen.gate.set()
    assert worker.wait_idle(5)
    assert screen.drawn == [(0, UiState()), (len(game.actions), UiState(clue_draft=5))]
    assert screen.thread is worker._thread and screen.thread is not threading.current_thread()
    worker.close()
    worker.close()
    assert screen.closed and "closed" in repr(worker)


def test_a_display_that_cannot_open_says_why_to_whoever_waits():
    def broken():
        raise DisplayError("framebuffer_missing", device="/dev/fb9")

    worker = ScreenWorker(broken).start()
    with pytest.raises(DisplayError, match="/dev/fb9"):
        worker.wait_open(5)
    worker.update(new_game(KEY), UiState())  # harmless afterwards
    worker.close()


def test_a_draw_that_fails_is_logged_and_the_next_one_still_comes(caplog):
    calls = []

    class Flaky:
        def update(self, game, ui):
            calls.append(ui)
            if len(calls) == 1:
                raise RuntimeError("a bad font")

        def close(self):
            pass

    worker = ScreenWorker(Flaky).start()
    worker.update(new_game(KEY), UiState(clue_draft=1))
    assert worker.wait_idle(5)
    worker.update(new_game(KEY), UiState(clue_draft=2))
    assert worker.wait_idle(5)
    worker.close()
    assert [ui.clue_draft for ui in calls] == [1, 2]
    assert "failed to draw" in caplog.text


def test_it_draws_the_real_display_into_a_png(tmp_path):
    path = tmp_path / "spymaster.png"
    worker = ScreenWorker(lambda: SpymasterScreen(PngOutput(path, (480, 320)), Translator("en"))).start()
    game = new_game(KEY)
    game.play(Clue(2))
    worker.update(game.copy(), UiState())
    assert worker.wait_open(10) and worker.wait_idle(10)
    worker.close()
    assert worker.rendered == 1
    assert pygame.image.load(str(path)).get_size() == (480, 320)
