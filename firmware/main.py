# Runs at power-on on the Pico: builds the hardware from the pin table and
# hands it to the main loop. Everything that can be tested off the Pico
# lives in the other files.
#
# Maintenance: the host's STOP message leaves the file "maintenance" and
# resets the board; the next boot removes it and starts without the game
# loop and without the watchdog (which cannot be stopped once started), so
# mpremote has the REPL. The boot after that plays again.
#
# New firmware can also come over the tile protocol itself (MAINT, maint.py):
# a COMMIT that a power cut interrupted is finished here, and the board
# starts once more with the new files.

import os
import sys
import time

import machine
import micropython

import board

try:
    os.stat("fwcommit.txt")  # maint.JOURNAL: left only by a COMMIT cut short
except OSError:
    pass
else:
    import maint

    maint.finish()
    machine.reset()  # the modules imported so far may be the old ones: start afresh

try:
    os.remove("maintenance")
    MAINTENANCE = True
except OSError:
    MAINTENANCE = False

if MAINTENANCE:
    print("codenames-board firmware: maintenance start, the REPL is free (mpremote works); reset to play")
else:
    import neopixel

    from app import TileApp
    from leds import Leds
    from link import Link
    from mpr121 import PadArray

    micropython.kbd_intr(-1)  # a Ctrl-C byte in a frame must not stop the board
    buses = [
        machine.I2C(bus, sda=machine.Pin(sda), scl=machine.Pin(scl), freq=board.I2C_FREQ, timeout=board.I2C_TIMEOUT_US)
        for bus, (sda, scl) in enumerate(board.I2C_PINS)
    ]
    pads = PadArray(
        tuple(buses[bus] for bus, _, _ in board.MPR121S), tuple(address for _, address, _ in board.MPR121S), board.PADS,
        touch=board.TOUCH_THRESHOLD, release=board.RELEASE_THRESHOLD, debounce=board.DEBOUNCE,
        irqs=tuple(machine.Pin(irq, machine.Pin.IN, machine.Pin.PULL_UP) for _, _, irq in board.MPR121S),
    )
    pads.start()
    strip = neopixel.NeoPixel(machine.Pin(board.LED_PIN), board.LEDS)
    leds = Leds(strip, board.CHAIN, board.LED_MA_PER_CHANNEL, board.LED_MA_IDLE)
    leds.set_order(board.LED_ORDER)
    watchdog = machine.WDT(timeout=board.WATCHDOG_MS)  # a hung loop resets the board

    def restart():
        time.sleep_ms(50)  # let the last line leave the USB buffer
        machine.reset()

    app = TileApp(
        Link(sys.stdin, sys.stdout),  # reads USB a byte per ready poll: README.md, "How input is read"
        pads,
        leds,
        board.TILES,
        board.STATUS_LEDS,
        board.version(),
        time.ticks_ms,
        time.ticks_diff,
        watchdog.feed,
        restart,  # after new firmware (maint.py)
    )
    app.run()
    # Only STOP gets here.
    with open("maintenance", "w") as flag:
        flag.write("STOP\n")
    time.sleep_ms(50)  # let BYE leave the USB buffer
    machine.reset()
