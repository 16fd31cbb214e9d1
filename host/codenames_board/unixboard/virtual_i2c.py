# An emulated I2C bus of MPR121 touch controllers, for the firmware on
# MicroPython's unix port and on CPython. It behaves like machine.I2C as far
# as the driver uses it: an address nobody answers raises OSError(19)
# (ENODEV). Each chip has a register file with the power-on values the
# driver relies on, a soft reset (0x80 <- 0x63), the rule that only ECR may
# be written while the chip runs, and touch status from touch().

_ENODEV = 19
_ECR = 0x5E
_POWER_ON = ((0x5C, 0x10), (0x5D, 0x24))


class VirtualMpr121:
    def __init__(self):
        self.regs = bytearray(0x80)
        self.fingers = 0  # electrodes a finger is on, whatever the chip's mode
        self.present = True
        self.resets = 0
        self.power_on()

    def power_on(self):
        for i in range(len(self.regs)):
            self.regs[i] = 0
        for register, value in _POWER_ON:
            self.regs[register] = value

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

    def touch(self, address, electrode, down):
        if down:
            self.chips[address].fingers |= 1 << electrode
        else:
            self.chips[address].fingers &= ~(1 << electrode)

    def unplug(self, address):
        self.chips[address].present = False

    def replug(self, address):
        chip = self.chips[address]
        chip.present = True
        chip.power_on()
