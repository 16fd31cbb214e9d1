# The Pico's pin table and the table's layout: the one place these numbers
# live on the firmware side (wiring/ is generated from it).

FIRMWARE_VERSION = "0.1.0"
IDENTITY_FILE = "fwid.txt"  # written by the host's installer: which files these are (PROTOCOL.md, "Maintenance")

# Touch pads: three MPR121 capacitive touch controllers on the Pico's two I2C
# buses. Boards 1 and 2 share I2C0 at 0x5A (ADDR to GND) and 0x5B (ADDR to
# 3V3); board 3 has I2C1 to itself at 0x5A (ADDR to GND). A third board on
# I2C0 would need ADDR on SDA (0x5C) or SCL (0x5D), and the breakout's 10 kΩ
# ADDR pull-down would then load that line against its pull-ups: SDA idling at
# about 2.5 V against the MPR121's 2.3 V input-high threshold. Two more pins
# buy every line a full 3.3 V.
I2C_SDA = 4  # GP4, Pico pin 6: I2C0
I2C_SCL = 5  # GP5, Pico pin 7
I2C1_SDA = 6  # GP6, Pico pin 9: I2C1
I2C1_SCL = 7  # GP7, Pico pin 10
I2C_PINS = ((I2C_SDA, I2C_SCL), (I2C1_SDA, I2C1_SCL))  # bus id -> (SDA, SCL)
I2C_FREQ = 400_000
I2C_TIMEOUT_US = 5000  # a stuck bus costs the scan 5 ms, not 50
# Per board, 1 to 3: (I2C bus, address, IRQ pin). IRQ is the MPR121's
# active-low open-drain output, low from a change of a pad's status until the
# status is read; one GPIO per board, read with the Pico's internal pull-up,
# so the firmware reads only the board that has news (mpr121.PadArray). Each
# board scans only the electrodes its tiles use (PADS below).
MPR121S = ((0, 0x5A, 8), (0, 0x5B, 9), (1, 0x5A, 10))  # IRQ on GP8 (pin 11), GP9 (pin 12), GP10 (pin 14)

# Touch sensing (TUNING.md): a pad counts as touched when its signal drops
# more than TOUCH_THRESHOLD counts below its baseline, and as let go when the
# drop is back under RELEASE_THRESHOLD. DEBOUNCE: detections in a row (0-7,
# 4 ms each) before the status changes. The host may set all three at run
# time (TUNE, PROTOCOL.md; [tiles] touch_threshold ... in its configuration).
# 10 and 5: every pad's light touch at 2.5 times or more, 5 over 2 counts of
# noise (host/buildkit/touch.py, tests/buildkit/test_touch.py).
TOUCH_THRESHOLD = 10
RELEASE_THRESHOLD = 5
DEBOUNCE = 1

# WS2812 (NeoPixel) chain: data through a 3.3 V -> 5 V level shifter.
LED_PIN = 16  # GP16, Pico pin 21
# The order an LED takes its colour bytes in: "GRB" for WS2812B pixels; WS2811
# 12 mm bullet strands are often "RGB". The host sends its [leds] order after
# every handshake (ORDER, PROTOCOL.md); this is the order until it does.
LED_ORDER = "GRB"

TILES = 25
TIMER_LEDS = 10  # the sand-timer bar
TURN_LEDS = 2  # the turn indicator
STATUS_LEDS = TIMER_LEDS + TURN_LEDS
LEDS = TILES + STATUS_LEDS

# Tile -> (controller, electrode). Tiles are row-major as the operatives see
# the grid (tile 0 their top left). Controller 0 takes tiles 0-11, 1 takes
# 12-23, 2 takes tile 24 on its ELE0 (the only electrode it scans).
PADS = tuple((tile // 12, tile % 12) for tile in range(TILES))

# Logical LED (25 tiles row-major, then the status LEDs in order) -> position
# in the chain. The tile LEDs snake through the rows (left to right, then
# right to left: the shortest wires), then the chain goes on to the bar and
# the turn indicator.
CHAIN = tuple(
    row * 5 + (column if row % 2 == 0 else 4 - column) for row in range(5) for column in range(5)
) + tuple(range(TILES, LEDS))

# Per-channel current of one WS2812 at full brightness, and its idle draw.
LED_MA_PER_CHANNEL = 20
LED_MA_IDLE = 1

WATCHDOG_MS = 2000


def version():
    """FIRMWARE_VERSION, and "+" and the identity in IDENTITY_FILE when the installer wrote one:
    the BOARD line's firmware field (semver build metadata, one word whatever it holds)."""
    try:
        with open(IDENTITY_FILE) as identity:
            text = identity.read(32)
    except OSError:
        return FIRMWARE_VERSION
    text = "".join(char for char in text if char in "0123456789abcdef")[:16]
    return FIRMWARE_VERSION + "+" + text if text else FIRMWARE_VERSION
