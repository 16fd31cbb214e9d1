# The firmware's parts on MicroPython's unix port, put together once for
# unix_board.py, bench_board.py and bench_frames.py: the emulated MPR121
# boards (their buses and IRQ lines) and pads, the LEDs on the strip given, and the TileApp on the link given
# (firmware/main.py does the same with the Pico's hardware).

import time

import board
from app import TileApp
from leds import Leds
from mpr121 import PadArray
from virtual_i2c import VirtualBoards


def build(link, strip, reset=None):
    """(the emulated MPR121 boards, the TileApp) for a link and a strip; reset() ends the process
    after new firmware (maint.py), as machine.reset() restarts a Pico."""
    boards = VirtualBoards(board.MPR121S)
    pads = PadArray(
        boards.buses, boards.addresses, board.PADS,
        touch=board.TOUCH_THRESHOLD, release=board.RELEASE_THRESHOLD, debounce=board.DEBOUNCE, irqs=boards.irqs,
    )
    pads.start()
    leds = Leds(strip, board.CHAIN, board.LED_MA_PER_CHANNEL, board.LED_MA_IDLE)
    leds.set_order(board.LED_ORDER)  # as firmware/main.py
    app = TileApp(
        link, pads, leds, board.TILES, board.STATUS_LEDS, board.version(), time.ticks_ms, time.ticks_diff, None, reset
    )
    return boards, app
