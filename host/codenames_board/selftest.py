"""``codenames-board selftest``: bring the hardware up step by step, on the console and the display.

1. the tile board answers (firmware version, tile and LED counts);
2. every LED lights in turn, in tile order: A1 to E5, the bar, the turn LEDs (the maker watches); then every
   tile lights red, green and blue in turn, each named: a strip whose colour
   order is not the configured [leds] order shows the wrong ones;
3. every tile, lit in turn, is touched: a touch on another tile is a miswired
   pad, no touch within the time is a dead one;
4. every button the config names is pressed;
5. the buzzer plays its sounds;
6. the display shows a test pattern;
then a summary. The exit code is 0 only if every step passed.
"""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass
from typing import Callable

from .config import BUTTON_PINS, Config
from .engine import TILES, tile_name
from .sounds import SOUNDS, Sounder
from .gestures import ButtonDown
from .tileboard import BoardConnected, BoardProblem, TileTouched

WHITE = (60, 60, 60)
TARGET = (0, 90, 255)
PRIMARIES = (("red", (200, 0, 0)), ("green", (0, 200, 0)), ("blue", (0, 0, 200)))
COLOUR_SECONDS = 1.0  # each primary, for the maker's eyes


@dataclass
class Result:
    step: str  # message id of the step's name
    ok: bool
    details: list[tuple[str, dict]]  # (message id, params): what was found


class SelfTest:
    def __init__(
        self,
        config: Config,
        tr,
        tileboard,
        controls,
        events: queue.Queue,
        screen=None,
        say: Callable[[str], None] = print,
        ask: Callable[[str], bool] | None = None,
        timeout: float = 15.0,
        led_seconds: float = 0.25,
        colour_seconds: float = COLOUR_SECONDS,
        on_step: Callable[[str, object], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.tr = tr
        self.board = tileboard
        self.controls = controls
        self.events = events
        self.screen = screen
        self.say = say
        self.ask = ask or (lambda question: True)
        self.timeout = timeout
        self.led_seconds = led_seconds
        self.colour_seconds = colour_seconds
        self.on_step = on_step or (lambda name, target: None)
        self.sleep = sleep  # for the maker's eyes and ears only: the LED walk and the sounds
        self.leds = 25 + config.tiles.timer_leds + config.tiles.turn_leds
        self.results: list[Result] = []
        self.firmware_problems: list[str] = []  # what the board's firmware is too old for (BoardProblem firmware_*)

    # --- helpers

    def _prompt(self, msgid: str, **params) -> None:
        text = self.tr(msgid, **params)
        self.say(text)
        if self.screen is not None:
            self.screen.message(text)

    def _wait(self, accept: Callable[[object], bool], seconds: float):
        """The next event that ``accept`` takes, or None after ``seconds``; other events are dropped."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if accept(event):
                return event
            if isinstance(event, BoardProblem) and event.code.startswith("firmware_") and event.code not in self.firmware_problems:
                self.firmware_problems.append(event.code)

    def _frame(self, lit: dict[int, tuple[int, int, int]]) -> bytes:
        frame = bytearray(3 * self.leds)
        for index, colour in lit.items():
            frame[3 * index : 3 * index + 3] = bytes(colour)
        return bytes(frame)

    # --- the steps

    def run(self) -> bool:
        for step in (self.tile_board, self.led_order, self.led_colours, self.tiles, self.buttons, self.buzzer, self.display):
            self.results.append(step())
            if step == self.tile_board and not self.results[-1].ok:
                break  # without the board, the LED and tile steps cannot run
        self.board.show(self._frame({}))
        self.summary()
        return all(result.ok for result in self.results)

    def tile_board(self) -> Result:
        self._prompt("selftest.board_wait")
        self.on_step("board", None)
        if getattr(self.board, "connected", False) and getattr(self.board, "info", None) is not None:
            info = self.board.info
        else:
            info = self._wait(lambda event: isinstance(event, BoardConnected), self.timeout)
            if info is None and getattr(self.board, "connected", False):
                info = BoardConnected("virtual", 1, "virtual", self.board.tiles, self.board.status_leds)
        if info is None:
            return Result("selftest.step_board", False, [("selftest.board_missing", {})])
        details = [("selftest.board_found", {"firmware": info.firmware, "tiles": info.tiles, "leds": info.tiles + info.status_leds})]
        if info.other_firmware:
            details.append(("firmware_install.other_firmware", {}))
        return Result("selftest.step_board", True, details)

    def led_order(self) -> Result:
        self._prompt("selftest.leds_watch", count=self.leds)
        for index in range(self.leds):
            self.on_step("led", index)
            self.board.show(self._frame({index: WHITE}))
            if self.led_seconds:
                self.sleep(self.led_seconds)
        ok = self.ask(self.tr("selftest.leds_question"))
        return Result("selftest.step_leds", ok, [] if ok else [("selftest.leds_wrong", {})])

    def led_colours(self) -> Result:
        """Every tile red, then green, then blue, each named as it comes: a wrong [leds] order shows."""
        self._prompt("selftest.colours_watch")
        for name, colour in PRIMARIES:
            self.on_step("colour", name)
            self.board.show(self._frame({tile: colour for tile in range(TILES)}))
            self._prompt("selftest.colour_show", colour=self.tr(f"selftest.colour_{name}"))
            if self.colour_seconds:
                self.sleep(self.colour_seconds)
        ok = self.ask(self.tr("selftest.colours_question"))
        if ok:
            return Result("selftest.step_colours", True, [])
        order = self.config.leds.order
        swap = order.translate(str.maketrans("RG", "GR"))
        return Result("selftest.step_colours", False, [("selftest.colours_wrong", {"order": order, "swap": swap})])

    def tiles(self) -> Result:
        problems = []
        for tile in range(TILES):
            self.board.show(self._frame({tile: TARGET}))
            self._prompt("selftest.touch", name=tile_name(tile))
            self.on_step("tile", tile)
            touched = self._wait(lambda event: isinstance(event, TileTouched) and event.down, self.timeout)
            if touched is None:
                problems.append(("selftest.tile_dead", {"name": tile_name(tile)}))
            elif touched.tile != tile:
                problems.append(("selftest.tile_miswired", {"name": tile_name(tile), "other": tile_name(touched.tile)}))
        return Result("selftest.step_tiles", not problems, problems)

    def buttons(self) -> Result:
        names = ["sand_timer", "end_turn", "undo", "new_game"]
        if self.config.controls.clue_input == "buttons":
            names += list(BUTTON_PINS)
        else:
            names += ["clue_confirm"]  # the encoder's push
        problems = []
        for name in names:
            self._prompt("selftest.press", button=self.tr(f"sim.{name}"))
            self.on_step("button", name)
            pressed = self._wait(lambda event: isinstance(event, ButtonDown) and event.name == name, self.timeout)
            if pressed is None:
                pin = getattr(self.config.pins, "encoder_push" if name == "clue_confirm" and self.config.controls.clue_input == "encoder" else name)
                problems.append(("selftest.button_dead", {"button": self.tr(f"sim.{name}"), "pin": pin}))
        return Result("selftest.step_buttons", not problems, problems)

    def buzzer(self) -> Result:
        buzzer = getattr(self.controls, "buzzer", None)
        if buzzer is None:
            return Result("selftest.step_buzzer", True, [("selftest.buzzer_none", {})])
        self._prompt("selftest.buzzer_listen")
        self.on_step("buzzer", None)
        sounder = Sounder(buzzer)
        now = 0.0
        for name in SOUNDS:
            sounder.play(name, now)
            while sounder.next_change() is not None:
                step = sounder.next_change()
                self.sleep(step - now)
                now = step
                sounder.update(now)
            self.sleep(0.3)
            now += 0.3
        ok = self.ask(self.tr("selftest.buzzer_question"))
        return Result("selftest.step_buzzer", ok, [] if ok else [("selftest.buzzer_silent", {"pin": self.config.pins.buzzer})])

    def display(self) -> Result:
        if self.screen is None:
            return Result("selftest.step_display", True, [("selftest.display_none", {})])
        self.screen.pattern(self.tr("selftest.pattern"))
        self.on_step("display", None)
        ok = self.ask(self.tr("selftest.display_question"))
        return Result("selftest.step_display", ok, [] if ok else [("selftest.display_wrong", {})])

    def summary(self) -> None:
        board = next((result for result in self.results if result.step == "selftest.step_board"), None)
        if board is not None:  # the configured thresholds or colour order are not in force: say the fix
            board.details += [(f"notice.board_{code}", {}) for code in self.firmware_problems]
        self.say("")
        self.say(self.tr("selftest.summary"))
        for result in self.results:
            status = self.tr("selftest.ok" if result.ok else "selftest.fail")
            self.say(f"  {status:6} {self.tr(result.step)}")
            for msgid, params in result.details:
                self.say(f"         {self.tr(msgid, **params)}")


class PatternScreen:
    """The display during the self test: a line of text, or the test pattern."""

    def __init__(self, output) -> None:
        self.output = output

    def message(self, text: str) -> None:
        from .display.layout import fit, font

        surface = self.output.surface
        surface.fill((16, 18, 24))
        width, height = surface.get_size()
        fitted = fit(text, max(16, height // 9), width - 24, 12, max_lines=4)
        face = font(fitted.size)
        y = (height - len(fitted.lines) * face.get_linesize()) // 2
        for line in fitted.lines:
            image = face.render(line, True, (235, 235, 235))
            surface.blit(image, ((width - image.get_width()) // 2, y))
            y += face.get_linesize()
        self.output.show()

    def pattern(self, caption: str) -> None:
        """Colour bars, a 5x5 grid and the size: a glance tells colours, edges and orientation."""
        import pygame

        from .display.layout import font

        surface = self.output.surface
        width, height = surface.get_size()
        bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255), (0, 0, 0)]
        for index, colour in enumerate(bars):
            surface.fill(colour, pygame.Rect(index * width // len(bars), 0, width // len(bars) + 1, height // 2))
        surface.fill((30, 30, 30), pygame.Rect(0, height // 2, width, height - height // 2))
        cell = min(width, height // 2) // 6
        for row in range(5):
            for column in range(5):
                pygame.draw.rect(surface, (200, 200, 200), (10 + column * cell, height // 2 + 10 + row * (cell // 2), cell - 4, cell // 2 - 4), 1)
        pygame.draw.rect(surface, (255, 255, 255), surface.get_rect(), 2)
        label = font(max(12, height // 14)).render(f"{caption}  {width}x{height}", True, (255, 255, 255))
        surface.blit(label, (width - label.get_width() - 10, height - label.get_height() - 10))
        self.output.show()

    def close(self) -> None:
        self.output.close()
