"""``codenames-board run`` as ``bench touch`` starts it: the same command, plus lines ``low PIN`` /
``high PIN`` on standard input that drive gpiozero's mock pins, as fingers on the buttons would.

``python -m codenames_board.benchrun --config FILE``. A module of its own so that the benchmark
(``benchtouch``) never imports the command line it measures.
"""

from __future__ import annotations

import sys
import threading


def _serve_buttons(stream) -> None:
    """In the run process: ``low PIN`` / ``high PIN`` lines drive gpiozero's mock pins."""
    from gpiozero import Device

    for line in stream:
        words = line.split()
        if len(words) != 2 or Device.pin_factory is None:
            continue
        pin = Device.pin_factory.pin(int(words[1]))
        if words[0] == b"low":
            pin.drive_low()
        elif words[0] == b"high":
            pin.drive_high()


if __name__ == "__main__":
    from .cli import main

    threading.Thread(target=_serve_buttons, args=(sys.stdin.buffer,), name="bench-buttons", daemon=True).start()
    sys.exit(main(["run", *sys.argv[1:]]))
