# bench_frames.py on a machine so loaded that every frame's turn takes 0.2 s (MicroPython's unix
# port): the heartbeat and the LED refresh fall due between any two frames. The benchmark must
# still time only the frames and find each one shown and acknowledged once.
#
#     MICROPYPATH=firmware:host/codenames_board/unixboard:tests/firmware micropython mp_slow_bench_frames.py N

import sys
import time

import bench_frames

STALL_MS = 200  # under the heartbeat's 250 ms: some steps have no heartbeat due, and a refresh does
stalled = [0]


class SlowHost:
    """The benchmark's end of the socket; each line it writes comes STALL_MS after the last."""

    def __init__(self, sock):
        self.sock = sock

    def write(self, data):
        stalled[0] += STALL_MS
        return self.sock.write(data)

    def __getattr__(self, name):
        return getattr(self.sock, name)


def slow_ticks():
    return time.ticks_add(time.ticks_ms(), stalled[0])


socket_pair, build = bench_frames.socket_pair, bench_frames.build


def slow_pair():
    host, board_end = socket_pair()
    return SlowHost(host), board_end


def slow_build(link, strip, reset=None):
    pads, app = build(link, strip, reset)
    app.ticks_ms = slow_ticks
    app.last_heard = app.last_beat = app.last_scan = app.last_idle = app.last_refresh = slow_ticks()
    return pads, app


bench_frames.socket_pair, bench_frames.build = slow_pair, slow_build
for line in bench_frames.run(int(sys.argv[1])):
    print(line)
