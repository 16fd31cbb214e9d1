"""What the simulator window shows: a plain value, drawn by ``view.draw``.

The simulator only draws what the hardware would show: each tile's colour is
the colour its LED has in the last frame the (virtual) tile board received,
the status LEDs likewise, and the spymaster display is the very surface the
Pi's display would get (or None while it is hidden from the operatives).
"""

from __future__ import annotations

from dataclasses import dataclass, field

RGB = tuple[int, int, int]

BUTTONS = ("sand_timer", "end_turn", "clue_down", "clue_up", "clue_confirm", "undo", "new_game")
# Keyboard shortcuts (pygame key names), shown in the help overlay.
SHORTCUTS = {
    "sand_timer": "space",
    "end_turn": "e",
    "clue_down": "down",
    "clue_up": "up",
    "clue_confirm": "return",
    "undo": "u",
    "new_game": "n",
}
TOGGLE_SPYMASTER = "s"
TOGGLE_HELP = "h"
QUIT = "escape"


@dataclass(frozen=True)
class SimScene:
    words: tuple[str, ...]  # 25, row by row as the operatives see the grid
    tiles: tuple[RGB, ...]  # each tile's LED colour
    timer_leds: tuple[RGB, ...]
    turn_leds: tuple[RGB, ...]
    spymaster: object = None  # a pygame.Surface, or None while hidden
    pressed: frozenset = field(default_factory=frozenset)  # button names held down
    clue_input: str = "buttons"  # or "encoder": clue_down/clue_up turn it, clue_confirm pushes it
    help: bool = False
    board_connected: bool = True
