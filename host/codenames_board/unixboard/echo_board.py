# The floor under `codenames-board bench touch`: a MicroPython process that
# sends back every byte it gets on stdin, waiting as the firmware waits
# (ipoll with a timeout, then one readinto of what has arrived on the
# non-blocking pty). A line's round trip through it is what crossing the
# pty twice and waking two processes costs, with no protocol and no table.

import select
import sys

poller = select.poll()
poller.register(sys.stdin, select.POLLIN)
buffer = bytearray(512)
view = memoryview(buffer)
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
while True:
    for _ in poller.ipoll(2):  # the firmware's scan period
        break
    count = stdin.readinto(view)
    if count:
        stdout.write(view[:count])
    elif count == 0:
        break  # the other end closed
