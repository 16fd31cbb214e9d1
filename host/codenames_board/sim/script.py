"""Scripts for the headless simulator: one command per line, run on a clock that only moves when told.

    # a comment
    touch C3            a tile, by row letter and column (or: touch 3 3, row and column 1-5)
    redeal C3           deal that tile another word (before the first clue; a right click in the window)
    press end_turn      press and release a button (sand_timer, end_turn, clue_down, clue_up,
                        clue_confirm, undo, new_game)
    hold new_game 2     hold a button for 2 seconds, then let go
    clue 3              dial the clue number from 1 and confirm it (clue 0 and clue unlimited too)
    wait 1.5            let 1.5 seconds pass (animations, the sand timer)
    spymaster hide      hide (or show) the spymaster display in screenshots
    help show           show (or hide) the help overlay in screenshots
    screenshot out.png  save the window as it looks now (relative paths: beside the script);
                        a size may follow: screenshot big.png 1920x1080
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine import UNLIMITED, parse_tile
from .scene import BUTTONS

CLUE_DIAL = (1, 2, 3, 4, 5, 6, 7, 8, 9, UNLIMITED, 0)  # what CLUE UP steps through from 1


class ScriptError(ValueError):
    def __init__(self, msgid: str, line: int, **params: object) -> None:
        self.msgid = msgid
        self.line = line
        self.params = params
        super().__init__(f"line {line}: {msgid} {params}")


@dataclass(frozen=True)
class Step:
    line: int
    command: str
    args: tuple


def _seconds(text: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ScriptError("error.script_seconds", line, value=text) from None
    if not 0 <= value <= 3600:
        raise ScriptError("error.script_seconds", line, value=text)
    return value


def parse_script(text: str) -> list[Step]:
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        command, args = words[0].lower(), words[1:]
        if command in ("touch", "redeal"):
            try:
                tile = parse_tile(" ".join(args))
            except ValueError:
                raise ScriptError("error.script_tile", number, value=" ".join(args)) from None
            steps.append(Step(number, command, (tile,)))
        elif command in ("press", "hold"):
            if not args or args[0] not in BUTTONS or len(args) != (2 if command == "hold" else 1):
                raise ScriptError(f"error.script_{command}", number, buttons=", ".join(BUTTONS))
            seconds = (_seconds(args[1], number),) if command == "hold" else ()
            steps.append(Step(number, command, (args[0], *seconds)))
        elif command == "clue":
            value = args[0].lower() if len(args) == 1 else ""
            count = UNLIMITED if value in ("u", "unlimited") else int(value) if value.isdigit() else None
            if count not in CLUE_DIAL:
                raise ScriptError("error.script_clue", number, value=" ".join(args))
            steps.append(Step(number, command, (count,)))
        elif command == "wait":
            if len(args) != 1:
                raise ScriptError("error.script_seconds", number, value=" ".join(args))
            steps.append(Step(number, command, (_seconds(args[0], number),)))
        elif command in ("spymaster", "help"):
            if len(args) != 1 or args[0] not in ("show", "hide"):
                raise ScriptError("error.script_show", number, command=command)
            steps.append(Step(number, command, (args[0] == "show",)))
        elif command == "screenshot":
            size = None
            if len(args) == 2:
                try:
                    size = tuple(int(part) for part in args[1].lower().split("x"))
                except ValueError:
                    size = ()
            fits = size is None or (len(size) == 2 and 320 <= size[0] <= 7680 and 240 <= size[1] <= 4320)  # as --size
            if len(args) not in (1, 2) or not fits or not args[0].lower().endswith(".png"):  # it writes PNG only
                raise ScriptError("error.script_screenshot", number)
            steps.append(Step(number, command, (args[0], size)))
        else:
            raise ScriptError("error.script_unknown", number, command=command)
    return steps


def run_script(sim, steps: list[Step], clock, base: Path, size: tuple[int, int], screenshot) -> None:
    """Play the steps on a started simulator; ``screenshot(path, size)`` saves the window."""
    controller = sim.controller

    def settle():
        controller.drain()

    def click(name: str) -> None:
        sim.press(name)
        settle()
        sim.release(name)
        settle()

    for step in steps:
        if step.command == "touch":
            sim.touch(step.args[0])
            settle()
            sim.lift(step.args[0])
            settle()
        elif step.command == "redeal":
            sim.redeal(step.args[0])
            settle()
        elif step.command == "press":
            click(step.args[0])
        elif step.command == "hold":
            sim.press(step.args[0])
            settle()
            controller.advance(step.args[1], clock)
            sim.release(step.args[0])
            settle()
        elif step.command == "clue":
            for _ in range(CLUE_DIAL.index(step.args[0])):
                click("clue_up")
            click("clue_confirm")
        elif step.command == "wait":
            controller.advance(step.args[0], clock)
        elif step.command == "spymaster":
            sim.show_spymaster = step.args[0]
        elif step.command == "help":
            sim.help = step.args[0]
        elif step.command == "screenshot":
            path = Path(step.args[0])
            path = path if path.is_absolute() else base / path
            try:
                screenshot(path, step.args[1] or size)
            except OSError as error:  # a folder that cannot be made, a full or read-only disk
                raise ScriptError("error.script_screenshot_unwritable", step.line, path=str(path), why=error.strerror or error) from None
