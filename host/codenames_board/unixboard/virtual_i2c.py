# An emulated I2C bus of MPR121 touch controllers, for the firmware on
# MicroPython's unix port and on CPython. It behaves like machine.I2C as far
# as the driver uses it: an address nobody answers raises OSError(19)
# (ENODEV). Each chip keeps what the datasheet (MPR121 rev 4) says a driver
# can get wrong:
# - a register file with the power-on values the driver relies on and a soft
#   reset (0x80 <- 0x63);
# - writes only in Stop mode (ECR = 0), except ECR and the GPIO registers
#   0x73-0x7A (5.1); the output registers 0x00-0x1D never, the baseline
#   registers 0x1E-0x2A in Stop mode, losing their two low bits (5.4);
# - on every transition from Stop to Run mode: auto-configuration if ACE is
#   set in 0x7B (5.11: "each time"), which searches every electrode's charge
#   current CDCx (0x5F-0x6B) and time CDTx (0x6C-0x72) anew, finding other
#   values with a finger on the pad, and then loads the baseline as BVA says;
#   without it the baseline loads as ECR's CL bits say (table 9): 00 from the
#   baseline register, 01 not tracked, 10 the top 5 bits of the first
#   reading, 11 all 10 of them;
# - baseline tracking with mpr121.py's filter: rising readings are followed
#   at once, falling ones not (255 samples), none while touched;
# - the status of the scanned electrodes only (ECR's ELE_EN: ELE0 up), and the
#   active-low IRQ output: low from a change of that status until the status
#   registers are read (datasheet 2.1 and 5.2; VirtualIrq reads it as a Pico
#   pin with its pull-up would, high when the chip or the wire is gone).
#
# A touch is a drop of the electrode's filtered data below its baseline by
# some counts (DROP unless touch() says otherwise), and the status follows
# the chip's rule: touched once the drop exceeds the touch threshold, let go
# once it is under the release threshold. The filtered data (0x04-0x1D) and
# baseline (0x1E-0x2A, top 8 of 10 bits) registers hold what a real chip
# would show; they and the status change only on touch() and on entering
# Run mode, so a scan (two status bytes) costs what it did. A retune that
# loses the baselines or the charge settings shows: a finger resting on a
# pad through it reads untouched afterwards, and CDCx change.

_ENODEV = 19
_ECR = 0x5E
_TOUCH_TH = 0x41
_BASELINE = 0x1E
_AUTO0 = 0x7B
_CDC = 0x5F
_CDT = 0x6C
_POWER_ON = ((0x5C, 0x10), (0x5D, 0x24))
DROP = 40  # counts a finger takes off a pad: well over the default threshold of 12
_LEVEL = 600  # an untouched pad's signal (a multiple of 4: the baseline register shows it exactly)


class VirtualMpr121:
    def __init__(self):
        self.regs = bytearray(0x80)
        self.fingers = 0  # electrodes the chip reports touched (its status, whatever the mode)
        self.drops = [0] * 12  # counts a finger takes off each electrode now
        self.baselines = [0] * 12  # the 10-bit baselines (the registers show their top 8 bits)
        self.tracking = True  # CL (or BVA) other than 01
        self.present = True
        self.resets = 0
        self.autoconfigs = 0  # auto-configuration runs (Stop to Run with ACE set)
        self.irq = False  # the IRQ output pulled low
        self.status_reads = 0  # reads of the touch status registers
        self.power_on()

    def power_on(self):
        for i in range(len(self.regs)):
            self.regs[i] = 0
        for register, value in _POWER_ON:
            self.regs[register] = value
        self.fingers = 0
        self.irq = False
        for electrode in range(12):
            self.baselines[electrode] = 0
        self.settle()

    def level(self, electrode):
        return _LEVEL + 8 * electrode  # pads differ a little, as real ones do

    def data(self, electrode):
        return max(0, self.level(electrode) - self.drops[electrode])

    def settle(self):
        """Filtered data, baselines and status of every electrode from the drops and the thresholds set."""
        for electrode in range(12):
            self.settle_one(electrode)

    def settle_one(self, electrode):
        regs = self.regs
        data, drop = self.data(electrode), self.drops[electrode]
        regs[0x04 + 2 * electrode] = data & 0xFF
        regs[0x05 + 2 * electrode] = data >> 8
        baseline = self.baselines[electrode]
        bit = 1 << electrode
        if self.running():
            delta = baseline - data
            before = self.fingers
            if self.fingers & bit:
                if delta < regs[_TOUCH_TH + 2 * electrode + 1]:
                    self.fingers &= ~bit
            elif drop and delta > regs[_TOUCH_TH + 2 * electrode]:
                self.fingers |= bit
            if self.tracking and not self.fingers & bit and data > baseline:
                self.baselines[electrode] = baseline = data  # rising: followed at once
            if (before ^ self.fingers) & self.enabled():
                self.irq = True
        regs[_BASELINE + electrode] = baseline >> 2

    def running(self):
        return self.regs[_ECR] & 0x3F != 0

    def enabled(self):
        """Bitmap of the electrodes scanned (ECR's ELE_EN: 12-15 all twelve)."""
        return (1 << min(self.regs[_ECR] & 0x0F, 12)) - 1

    def enter_run(self):
        """Stop to Run mode: auto-configuration if ACE, then the baselines load, then a first scan."""
        regs = self.regs
        load = regs[_ECR] >> 6
        if regs[_AUTO0] & 0x01:
            self.autoconfigs += 1
            for electrode in range(12):
                # More capacitance (a finger) needs more charge for the same level.
                regs[_CDC + electrode] = min(63, 20 + electrode + self.drops[electrode] // 4)
                regs[_CDT + electrode // 2] = 0x11
            load = (regs[_AUTO0] >> 2) & 0x03  # BVA
        self.tracking = load != 0b01
        for electrode in range(12):
            if load == 0b10:
                self.baselines[electrode] = self.data(electrode) & 0x3E0
            elif load == 0b11:
                self.baselines[electrode] = self.data(electrode)
            else:
                self.baselines[electrode] = regs[_BASELINE + electrode] << 2
        self.fingers = 0
        self.settle()

    def read(self, register):
        if register < 2:  # touch status: only enabled electrodes, only in run mode; reading it lets IRQ go
            self.irq = False
            if register == 0:
                self.status_reads += 1
            return ((self.fingers & self.enabled()) >> (8 * register)) & 0xFF
        return self.regs[register]

    def write(self, register, value):
        if register == 0x80:
            if value == 0x63:
                self.resets += 1
                self.power_on()
        elif register == _ECR:
            was_running = self.running()
            self.regs[_ECR] = value
            if self.running() and not was_running:
                self.enter_run()
        elif 0x73 <= register <= 0x7A:
            self.regs[register] = value  # GPIO: at any time
        elif self.running() or register < _BASELINE:
            pass  # the chip ignores it (output registers are never written)
        else:
            self.regs[register] = value
            if register < 0x2A:
                self.baselines[register - _BASELINE] = value << 2


class VirtualIrq:
    """A chip's IRQ line as the Pico reads it (machine.Pin with PULL_UP): value() 0 while the chip
    pulls it low; 1 when it does not, when the chip is unplugged, or when the wire is (``wired``)."""

    def __init__(self, chip):
        self.chip = chip
        self.wired = True

    def value(self):
        chip = self.chip
        return 0 if self.wired and chip.present and chip.irq else 1


class VirtualI2C:
    def __init__(self, addresses):
        self.chips = {}
        for address in addresses:
            self.chips[address] = VirtualMpr121()

    def _chip(self, address):
        chip = self.chips.get(address)
        if chip is None or not chip.present:
            raise OSError(_ENODEV)
        return chip

    def readfrom_mem_into(self, address, register, buf, addrsize=8):
        chip = self._chip(address)
        for i in range(len(buf)):  # no allocation: the driver's scan is measured through this
            buf[i] = chip.read(register + i)

    def readfrom_mem(self, address, register, n, addrsize=8):
        buf = bytearray(n)
        self.readfrom_mem_into(address, register, buf)
        return bytes(buf)

    def writeto_mem(self, address, register, buf, addrsize=8):
        chip = self._chip(address)
        for i in range(len(buf)):
            chip.write(register + i, buf[i])

    def touch(self, address, electrode, down, drop=DROP):
        """A finger on (down) or off an electrode; ``drop``: the counts it takes off the signal."""
        chip = self.chips[address]
        chip.drops[electrode] = drop if down else 0
        chip.settle_one(electrode)

    def unplug(self, address):
        self.chips[address].present = False

    def replug(self, address):
        chip = self.chips[address]
        chip.present = True
        chip.power_on()


class VirtualBoards:
    """The MPR121 boards as firmware/board.py's MPR121S lists them, (bus, address, IRQ pin) each:
    one VirtualI2C per bus, a VirtualIrq per board. Boards are counted from 0 here, as the firmware
    counts its controllers. ``buses``, ``addresses`` and ``irqs`` are PadArray's arguments."""

    def __init__(self, boards):
        on_bus = {}
        for bus, address, _ in boards:
            on_bus.setdefault(bus, []).append(address)
        self.i2c = {bus: VirtualI2C(addresses) for bus, addresses in on_bus.items()}
        self.buses = tuple(self.i2c[bus] for bus, _, _ in boards)
        self.addresses = tuple(address for _, address, _ in boards)
        self.chips = tuple(self.i2c[bus].chips[address] for bus, address, _ in boards)
        self.irqs = tuple(VirtualIrq(chip) for chip in self.chips)

    def touch(self, board, electrode, down, drop=DROP):
        self.buses[board].touch(self.addresses[board], electrode, down, drop)

    def unplug(self, board):
        self.buses[board].unplug(self.addresses[board])

    def replug(self, board):
        self.buses[board].replug(self.addresses[board])
