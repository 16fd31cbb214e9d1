# The firmware's parts on MicroPython's unix port, put together once for
# unix_board.py, bench_board.py and bench_frames.py: the emulated MPR121 bus
# and pads, the LEDs on the strip given, and the TileApp on the link given
# (firmware/main.py does the same with the Pico's hardware).

import time

import board
from app import TileApp
from leds import Leds
from mpr121 import PadArray
from virtual_i2c import VirtualI2C


def build(link, strip, reset=None):
    """(the emulated I2C bus, the TileApp) for a link and a strip; reset() ends the process after
    new firmware (maint.py), as machine.reset() restarts a Pico."""
    i2c = VirtualI2C(board.MPR121_ADDRESSES)
    pads = PadArray(
        i2c, board.MPR121_ADDRESSES, board.PADS,
        touch=board.TOUCH_THRESHOLD, release=board.RELEASE_THRESHOLD, debounce=board.DEBOUNCE,
    )
    pads.start()
    leds = Leds(strip, board.CHAIN, board.LED_MA_PER_CHANNEL, board.LED_MA_IDLE)
    leds.set_order(board.LED_ORDER)  # as firmware/main.py
    app = TileApp(
        link, pads, leds, board.TILES, board.STATUS_LEDS, board.version(), time.ticks_ms, time.ticks_diff, None, reset
    )
    return i2c, app
