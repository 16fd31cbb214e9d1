# Scenarios for the MPR121 driver, run by test_mpr121.py under MicroPython's
# unix port and under CPython: `micropython mp_mpr121_scenarios.py NAME`
# with firmware/ and host/codenames_board/unixboard on the module path. Each prints
# "key value" lines that the test checks.

import sys
from binascii import hexlify

import board
from mpr121 import SETTLE_MS, Mpr121, PadArray
from virtual_i2c import VirtualBoards, VirtualI2C

# One chip on a bus of its own: the addresses boards 1 and 2 take (ADDR to GND, to 3V3).
ADDR0, ADDR1 = 0x5A, 0x5B
# The table's boards (board.MPR121S: two buses, board 3 at 0x5A on the second), counted from 0 as the
# firmware counts its controllers: VirtualBoards.touch(), unplug(), replug() and chips take these.
A0, A1, A2 = 0, 1, 2


def show(key, value):
    print(key, value)


def show_missing(key, pads):
    show(key, ",".join([str(index) for index in pads.missing]) or "-")


def pad_array(irqs=False):
    """(the boards, their PadArray, its clock); irqs: with the boards' IRQ lines (else read every scan)."""
    clock = [0]
    boards = VirtualBoards(board.MPR121S)
    pads = PadArray(boards.buses, boards.addresses, board.PADS, lambda: clock[0], irqs=boards.irqs if irqs else None)
    return boards, pads, clock


def setup():
    i2c = VirtualI2C((ADDR0,))
    chip = i2c.chips[ADDR0]
    # A chip left running by an earlier boot, with odd settings.
    chip.regs[0x41] = 99
    chip.regs[0x5E] = 0x8C
    Mpr121(i2c, ADDR0).setup()
    show("regs", hexlify(chip.regs).decode())
    show("resets", chip.resets)
    other = VirtualI2C((ADDR1,))
    Mpr121(other, ADDR1, touch=20, release=10).setup()
    show("custom", hexlify(other.chips[ADDR1].regs).decode())


def errors():
    i2c = VirtualI2C((ADDR0,))
    try:
        Mpr121(i2c, 0x5D).setup()
        show("absent", "no-error")
    except OSError as e:
        show("absent", e.args[0])
    chip = i2c.chips[ADDR0]
    chip.power_on = lambda: None  # another kind of chip at the address: no soft reset,
    chip.regs[0x5D] = 0  # and not the MPR121's power-on value
    try:
        Mpr121(i2c, ADDR0).setup()
        show("impostor", "no-error")
    except OSError:
        show("impostor", "OSError")
    try:
        Mpr121(i2c, ADDR0, touch=6, release=6)
        show("thresholds", "no-error")
    except ValueError:
        show("thresholds", "ValueError")


def tiles():
    i2c, pads, clock = pad_array()
    show("start", ",".join([str(index) for index in pads.start()]) or "-")
    show("idle", pads.read())
    i2c.touch(A0, 0, True)
    show("tile0", pads.read())
    i2c.touch(A0, 0, False)
    i2c.touch(A1, 0, True)
    show("tile12", pads.read())
    i2c.touch(A1, 0, False)
    i2c.touch(A2, 0, True)
    show("tile24", pads.read())
    i2c.touch(A0, 11, True)
    i2c.touch(A1, 11, True)
    i2c.touch(A2, 5, True)  # a free electrode, not even scanned: no tile
    show("several", pads.read())
    for controller in range(len(board.MPR121S)):
        for electrode in range(12):
            i2c.touch(controller, electrode, False)
    show("released", pads.read())


def unplug():
    i2c, pads, clock = pad_array()
    pads.start()
    attempts = [0]
    controller = pads.controllers[1]
    real_setup = controller.setup

    def counted_setup():
        attempts[0] += 1
        real_setup()

    controller.setup = counted_setup
    i2c.touch(A0, 0, True)
    i2c.touch(A1, 0, True)
    show("before", pads.read())
    i2c.unplug(A1)
    clock[0] = 10
    show("unplugged", pads.read())
    show_missing("missing", pads)
    for ms in range(20, 3000, 5):  # a scan every 5 ms for 3 s: no exception, ever
        clock[0] = ms
        pads.read()
    show("attempts", attempts[0])  # missing at 10 ms: retried at 1010 and 2010 only
    # A chip set up with a finger on a pad learns that as the pad's baseline (ECR CL = 10),
    # as a real one does: the finger lifts while it is away and comes back after.
    i2c.touch(A1, 0, False)
    i2c.replug(A1)
    clock[0] = 3005
    show("replugged-early", pads.read())
    show_missing("missing-early", pads)
    clock[0] = 3010
    pads.read()
    i2c.touch(A1, 0, True)
    show("replugged", pads.read())
    show_missing("missing-after", pads)


def start_missing():
    i2c, pads, clock = pad_array()
    i2c.unplug(A2)
    show("start", ",".join([str(index) for index in pads.start()]) or "-")
    i2c.touch(A0, 3, True)
    show("read", pads.read())
    i2c.replug(A2)
    clock[0] = 999
    show("read-999", pads.read())
    clock[0] = 1000
    pads.read()  # set up now
    i2c.touch(A2, 0, True)
    show("read-1000", pads.read())
    show_missing("missing", pads)


def glitch():
    # The controller loses power between two scans: it answers again at once,
    # but reset, in stop mode, reporting nothing.
    i2c, pads, clock = pad_array()
    pads.start()
    i2c.touch(A1, 1, True)
    show("before", pads.read())
    i2c.unplug(A1)
    i2c.replug(A1)
    clock[0] = 500
    show("reset", pads.read())  # the finger still on the pad
    clock[0] = 1000
    i2c.touch(A1, 1, False)  # (set up with a finger on it, the chip would learn it as the baseline)
    pads.read()  # the once-a-second check sets it up again
    i2c.touch(A1, 1, True)
    show("checked", pads.read())
    show_missing("missing", pads)


def diagnostics():
    i2c = VirtualI2C((ADDR0,))
    chip = Mpr121(i2c, ADDR0)
    chip.setup()
    regs = i2c.chips[ADDR0].regs
    regs[0x04 + 2 * 3] = 0xA5  # electrode 3 filtered data, low byte
    regs[0x05 + 2 * 3] = 0xFE  # high byte: only its 2 low bits count
    regs[0x1E + 3] = 0x9C  # electrode 3 baseline, top 8 of 10 bits
    show("filtered", chip.filtered(3))
    show("baseline", chip.baseline(3))


def tuning():
    i2c, pads, clock = pad_array()
    pads.start()
    chip = i2c.chips[A1]
    i2c.touch(A1, 0, True, 10)  # tile 12, a weak pad: 10 counts, under the default 12
    show("weak-default", pads.read())
    resets = chip.resets
    pads.tune(8, 4, 2)
    clock[0] += SETTLE_MS
    show("weak-tuned", pads.read())
    show("tuning", "%d,%d,%d" % pads.tuning)
    show("regs", "%d,%d,%d" % (chip.regs[0x41], chip.regs[0x42 + 2 * 11], chip.regs[0x5B]))
    show("running", chip.running())
    show("resets", chip.resets - resets)  # no soft reset: the other settings stay
    chip.regs[0x41] = 99  # would show if the same TUNE wrote again
    pads.tune(8, 4, 2)
    show("same", chip.regs[0x41])
    try:
        pads.tune(6, 6, 1)
        show("refused", "no")
    except ValueError:
        show("refused", "%d,%d,%d" % pads.tuning)
    i2c.unplug(A2)
    pads.tune(9, 3, 1)
    show("missing-after-tune", ",".join([str(index) for index in pads.missing]) or "-")
    kept = pads.controllers[2]
    show("kept", "%d,%d,%d" % (kept.touch[0], kept.release[11], kept.debounce))


def resting():
    # A finger (or a card) rests on tile 5 while the host tunes: the chip keeps the pad's
    # baseline and charge settings, and the tile stays touched the whole time.
    i2c, pads, clock = pad_array()
    pads.start()
    chip = i2c.chips[A0]
    i2c.touch(A0, 5, True)
    clock[0] = 2
    first = pads.read()
    before = (hexlify(chip.regs[0x1E:0x2A]).decode(), hexlify(chip.regs[0x5F:0x73]).decode(), chip.autoconfigs)
    pads.tune(20, 10, 3)
    lost = 0
    for ms in range(4, 200, 2):
        clock[0] = ms
        if not pads.read() & 1 << 5:
            lost += 1
    after = (hexlify(chip.regs[0x1E:0x2A]).decode(), hexlify(chip.regs[0x5F:0x73]).decode(), chip.autoconfigs)
    show("first", first)
    show("lost", lost)
    show("baselines-kept", before[0] == after[0])
    show("charge-kept", before[1] == after[1])
    show("autoconfigs", "%d,%d" % (before[2], after[2]))
    show("ecr", "%02x" % chip.regs[0x5E])
    show("running", pads.controllers[0].running())
    i2c.touch(A0, 5, False)
    clock[0] = 300
    show("released", pads.read())
    i2c.touch(A0, 5, True, 15)  # under the new threshold of 20
    show("weak", pads.read())


def old_tune():
    # What the firmware's TUNE once did: stop, write, run again as setup() does (CL = 10, with
    # auto-configuration still on). The emulated chip shows why that is wrong with a finger on a pad.
    i2c = VirtualI2C((ADDR0,))
    chip = Mpr121(i2c, ADDR0)
    chip.setup()
    i2c.touch(ADDR0, 5, True)
    show("before", chip.touched())
    regs = i2c.chips[ADDR0].regs
    cdc = regs[0x5F + 5]
    for register, value in ((0x5E, 0), (0x41 + 10, 20), (0x42 + 10, 10), (0x5E, 0x8C)):
        i2c.writeto_mem(ADDR0, register, bytes((value,)))
    show("after", chip.touched())
    show("charge-changed", regs[0x5F + 5] != cdc)


def stop_mode():
    # Writes while the chip runs are ignored (but ECR and the GPIO registers); baselines in stop mode lose two bits.
    i2c = VirtualI2C((ADDR0,))
    Mpr121(i2c, ADDR0).setup()
    regs = i2c.chips[ADDR0].regs
    i2c.writeto_mem(ADDR0, 0x41, bytes((77,)))
    i2c.writeto_mem(ADDR0, 0x77, bytes((0x80,)))
    show("running-write", "%d,%d" % (regs[0x41], regs[0x77]))
    i2c.writeto_mem(ADDR0, 0x5E, bytes((0,)))
    i2c.writeto_mem(ADDR0, 0x41, bytes((77,)))
    i2c.writeto_mem(ADDR0, 0x04, bytes((1,)))  # filtered data: never written
    i2c.writeto_mem(ADDR0, 0x1E + 2, bytes((0x55,)))
    show("stopped-write", "%d,%d,%d" % (regs[0x41], regs[0x04], i2c.chips[ADDR0].baselines[2]))


def per_pad():
    i2c, pads, clock = pad_array()
    pads.start()
    first, second = i2c.chips[A0], i2c.chips[A1]
    i2c.touch(A1, 0, True, 9)  # tile 12: 9 counts
    i2c.touch(A1, 1, True, 9)  # tile 13: 9 counts too
    first.regs[0x41] = 99  # would show if controller 0 were written
    pads.tune_pads([(12, 8, 4)])
    clock[0] = SETTLE_MS
    show("read", pads.read())
    show("untouched-chip", first.regs[0x41])
    show("regs", "%d,%d,%d,%d" % (second.regs[0x41], second.regs[0x42], second.regs[0x43], second.regs[0x44]))
    show("own", pads.pad_tuning())
    show("tile12", "%d,%d" % pads.thresholds(12))
    show("bad", pads.bad_pad([(3, 8, 4), (25, 8, 4)]))
    show("bad-release", pads.bad_pad([(3, 4, 4)]))
    try:
        pads.tune_pads([(3, 8, 4), (4, 4, 8)])
        show("refused", "no")
    except ValueError:
        show("refused", "%d,%d" % pads.thresholds(3))
    pads.tune(14, 7, 1)  # the global ones change: tile 12 keeps its own
    show("after-global", "%d,%d;%d,%d" % (pads.thresholds(12) + pads.thresholds(13)))
    pads.tune_pads([(12, 14, 7)])  # the same as the global ones now
    show("own-equal", pads.pad_tuning())
    pads.tune_pads([(12, 0, 0)])
    show("cleared", "%d,%d" % pads.thresholds(12))


def signals():
    i2c, pads, clock = pad_array()
    pads.start()
    i2c.touch(A0, 3, True, 52)  # tile 3
    i2c.unplug(A2)
    pads.read()
    got = pads.signals()
    show("count", len(got))
    show("tile3", "%d,%d" % got[3])
    show("tile12", "%d,%d" % got[12])
    show("tile24", got[24])
    # The real registers, as the driver decodes them: 10 bits, and the baseline's top 8 (<< 2).
    regs = i2c.chips[A1].regs
    regs[0x04 + 2 * 5], regs[0x05 + 2 * 5], regs[0x1E + 5] = 0xA5, 0xFE, 0x9C
    show("decoded", "%d,%d" % pads.signals()[17])


def alloc():
    import gc

    if not hasattr(gc, "mem_alloc"):
        show("alloc", "skip")
        return
    i2c, pads, clock = pad_array()
    pads.start()
    chip = pads.controllers[0]
    i2c.touch(A0, 4, True)
    i2c.touch(A1, 2, True)
    chip.touched()
    pads.read()
    show("touched-delta", measure(gc, chip.touched))
    show("read-delta", measure(gc, pads.read))
    boards, irq_pads, clock = pad_array(irqs=True)
    irq_pads.start()
    boards.touch(A1, 2, True)
    irq_pads.read()

    def scan():
        clock[0] += 2  # through the safety polls too
        irq_pads.read()

    show("read-irq-delta", measure(gc, scan))
    show("control-delta", measure(gc, lambda: bytearray(2)))  # proves the measure sees allocation
    try:
        import micropython

        micropython.heap_lock()
        try:
            for _ in range(100):
                chip.touched()
                pads.read()
            locked = "ok"
        except MemoryError:
            locked = "allocated"
        finally:
            micropython.heap_unlock()
    except (ImportError, AttributeError):
        locked = "skip"
    show("heap-lock", locked)


def measure(gc, call):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(1000):
        call()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def electrodes():
    # Each board scans the electrodes its tiles use, ELE0 up: ECR's low four bits.
    boards, pads, clock = pad_array()
    pads.start()
    show("run", ",".join(["%02x" % chip.regs[0x5E] for chip in boards.chips]))
    show("scanned", ",".join([str(controller.electrodes) for controller in pads.controllers]))
    pads.tune(20, 10, 1)
    show("resume", ",".join(["%02x" % chip.regs[0x5E] for chip in boards.chips]))
    show("running", ",".join([str(controller.running()) for controller in pads.controllers]))
    clock[0] = SETTLE_MS
    boards.touch(A2, 0, True)
    boards.touch(A2, 1, True)  # not scanned: never in the status, never an IRQ
    show("tile24", pads.read())
    show("status", boards.chips[A2].read(0) | boards.chips[A2].read(1) << 8)


def irq():
    # With the IRQ lines: a board is read when its line is low, and every POLL_MS besides.
    boards, pads, clock = pad_array(irqs=True)
    pads.start()
    before = [chip.status_reads for chip in boards.chips]
    for ms in range(2, 952, 2):  # 950 ms of 2 ms scans, nobody touching
        clock[0] = ms
        pads.read()
    show("idle-reads", ",".join([str(chip.status_reads - was) for chip, was in zip(boards.chips, before)]))
    before = [chip.status_reads for chip in boards.chips]
    clock[0] += 2  # 952: no safety poll due (the last at 902)
    boards.touch(A1, 3, True)
    show("irq-low", boards.irqs[A1].value())
    show("touched", pads.read())  # the very scan after the touch
    show("irq-after", boards.irqs[A1].value())  # the read let it go
    show("touch-reads", ",".join([str(chip.status_reads - was) for chip, was in zip(boards.chips, before)]))
    clock[0] += 2
    boards.touch(A1, 3, False)
    show("released", pads.read())
    clock[0] += 2
    boards.touch(A2, 0, True)
    show("board3", pads.read())


def irq_unwired():
    # Board 1's IRQ wire comes off: the safety poll finds the touch, and that board is read on every scan after.
    boards, pads, clock = pad_array(irqs=True)
    pads.start()
    boards.irqs[A0].wired = False
    clock[0] = 2
    pads.read()
    boards.touch(A0, 7, True)
    first = None
    for ms in range(4, 400, 2):
        clock[0] = ms
        if pads.read() & 1 << 7:
            first = ms
            break
    show("found-after", first)
    clock[0] += 2
    boards.touch(A0, 7, False)
    show("released", pads.read())  # the very next scan: polled now
    clock[0] += 2
    boards.touch(A1, 0, True)
    show("others", pads.read())  # board 2's line still works


def irq_unplug():
    # A board unplugged with its IRQ line high (the pull-up): found missing within POLL_MS.
    boards, pads, clock = pad_array(irqs=True)
    pads.start()
    clock[0] = 2
    pads.read()
    boards.unplug(A2)
    found = None
    for ms in range(4, 400, 2):
        clock[0] = ms
        pads.read()
        if pads.missing:
            found = ms
            break
    show("found-after", found)
    show_missing("missing", pads)
    boards.replug(A2)
    clock[0] = found + 1000  # the once-a-second retry
    pads.read()
    boards.touch(A2, 0, True)
    clock[0] += 2
    show("back", pads.read())
    show_missing("missing-after", pads)


SCENARIOS = {
    "electrodes": electrodes,
    "irq": irq,
    "irq_unwired": irq_unwired,
    "irq_unplug": irq_unplug,
    "setup": setup,
    "errors": errors,
    "tiles": tiles,
    "unplug": unplug,
    "start_missing": start_missing,
    "glitch": glitch,
    "diagnostics": diagnostics,
    "alloc": alloc,
    "tuning": tuning,
    "resting": resting,
    "old_tune": old_tune,
    "stop_mode": stop_mode,
    "per_pad": per_pad,
    "signals": signals,
}

SCENARIOS[sys.argv[1]]()
