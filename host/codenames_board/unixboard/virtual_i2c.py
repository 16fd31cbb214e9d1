# An emulated I2C bus of MPR121 touch controllers, for the firmware on
# MicroPython's unix port and on CPython. It behaves like machine.I2C as far
# as the driver uses it: an address nobody answers raises OSError(19)
# (ENODEV). Each chip has a register file with the power-on values the
# driver relies on, a soft reset (0x80 <- 0x63), the rule that only ECR may
# be written while the chip runs, and touch status from touch().
#
# A touch is a drop of the electrode's filtered data below its baseline by
# some counts (DROP unless touch() says otherwise), and the status follows
# the chip's rule: touched once the drop exceeds the touch threshold, let go
# once it is under the release threshold. The filtered data (0x04-0x1D) and
# baseline (0x1E-0x2A, top 8 of 10 bits) registers hold what a real chip
# would show; they and the status change only on touch() and on entering
# run mode, so a scan (two status bytes) costs what it did.

_ENODEV = 19
_ECR = 0x5E
_TOUCH_TH = 0x41
_POWER_ON = ((0x5C, 0x10), (0x5D, 0x24))
DROP = 40  # counts a finger takes off a pad: well over the default threshold of 12
_LEVEL = 600  # an untouched pad's signal (a multiple of 4: the baseline register shows it exactly)


class VirtualMpr121:
    def __init__(self):
        self.regs = bytearray(0x80)
        self.fingers = 0  # electrodes the chip reports touched (its status, whatever the mode)
        self.drops = [0] * 12  # counts a finger takes off each electrode now
        self.present = True
        self.resets = 0
        self.power_on()

    def power_on(self):
        for i in range(len(self.regs)):
            self.regs[i] = 0
        for register, value in _POWER_ON:
            self.regs[register] = value
        self.fingers = 0
        self.settle()

    def level(self, electrode):
        return _LEVEL + 8 * electrode  # pads differ a little, as real ones do

    def settle(self):
        """Filtered data, baselines and status of every electrode from the drops and the thresholds set."""
        for electrode in range(12):
            self.settle_one(electrode)

    def settle_one(self, electrode):
        regs = self.regs
        level, drop = self.level(electrode), self.drops[electrode]
        data = max(0, level - drop)
        regs[0x04 + 2 * electrode] = data & 0xFF
        regs[0x05 + 2 * electrode] = data >> 8
        regs[0x1E + electrode] = level >> 2  # the chip holds the baseline while touched
        bit = 1 << electrode
        if self.fingers & bit:
            if drop < regs[_TOUCH_TH + 2 * electrode + 1]:
                self.fingers &= ~bit
        elif drop and drop > regs[_TOUCH_TH + 2 * electrode]:
            self.fingers |= bit

    def running(self):
        return self.regs[_ECR] & 0x3F != 0

    def read(self, register):
        if register < 2:  # touch status: only enabled electrodes, only in run mode
            enabled = min(self.regs[_ECR] & 0x0F, 12)
            status = self.fingers & ((1 << enabled) - 1)
            return (status >> (8 * register)) & 0xFF
        return self.regs[register]

    def write(self, register, value):
        if register == 0x80:
            if value == 0x63:
                self.resets += 1
                self.power_on()
        elif register == _ECR or not self.running():
            self.regs[register] = value
            if register == _ECR and self.running():
                self.settle()  # run mode: the thresholds set in stop mode apply


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
