"""``codenames-board bench web``: the web page's budgets, measured from outside.

The table is ``bench touch``'s (``benchtouch``: the firmware under MicroPython's unix port
on a pseudo-terminal, ``codenames-board run`` at the other end), run twice with the same
touches: with the page off, then with ``[web]`` on 127.0.0.1, ``clients`` public sockets
open and one more that finished its handshake and never reads (a phone asleep in a
pocket). The clients are aiohttp's, on an asyncio loop of their own thread in this
process; each notes when its messages first show a tile revealed, on ``time.monotonic``'s
clock, which is the firmware's: a touch is timed from its pad changing, as ``bench touch``
times the LEDs. Idle CPU is measured on ``bench run``'s table (the virtual tile board, no
firmware) with the sand timer stopped, with the page off and with a few idle clients.

Left out, and said so in the output: a browser turning the messages into a page (the
browser test), the network between a phone and the table, a Pi's slower CPU.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .bench import cpu_seconds, start_headless
from .benchtouch import PATIENCE_S, Watcher, bench_touch, summary
from .progress import silent

# The budgets: the page on a phone within 50 ms p99 of the touch, 20 clients; run's memory with them; idle CPU.
BUDGETS = {"page_p99_ms": 50, "rss_mb": 80, "idle_cpu_percent": 1}
IDLE_CLIENTS = 5
STUCK_RCVBUF = 2048  # bytes: the kernel's least, near enough; the server's sends back up at once
DROPPED = "a page fell behind and was dropped"  # what the server logs (web.server) when it cuts a socket


def web_config(port: int) -> str:
    return f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'


def free_port() -> int:
    """A port free on 127.0.0.1 now (the run process binds it a moment later; nothing else here takes one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Clients:
    """``count`` public sockets on an asyncio loop of their own thread. Each keeps, per tile, when
    its messages first showed it revealed (``time.monotonic``), forgotten when a game begins."""

    def __init__(self, port: int, count: int) -> None:
        import aiohttp

        self._aiohttp = aiohttp
        self.seen: list[dict[int, float]] = [{} for _ in range(count)]
        self.received = [0] * count
        self.changed = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="bench-clients", daemon=True)
        self._thread.start()
        self._session = None
        self._tasks: list[asyncio.Task] = []
        try:
            asyncio.run_coroutine_threadsafe(self._open(f"http://127.0.0.1:{port}/ws", count), self._loop).result(PATIENCE_S)
            with self.changed:  # each has its first state: the page as a phone opening it shows it
                if not self.changed.wait_for(lambda: all(self.received), PATIENCE_S):
                    raise TimeoutError("the web page sent a client no state")
        except BaseException:
            self.close()
            raise

    async def _open(self, url: str, count: int) -> None:
        self._session = self._aiohttp.ClientSession()
        for index in range(count):
            ws = await self._session.ws_connect(url)
            self._tasks.append(asyncio.create_task(self._read(index, ws)))

    async def _read(self, index: int, ws) -> None:
        seen, number = self.seen[index], None
        async for message in ws:
            now = time.monotonic()  # first: the parsing below is this process's cost, not the page's
            if message.type is not self._aiohttp.WSMsgType.TEXT:
                continue
            state = json.loads(message.data)
            if state.get("type") != "state":
                continue
            with self.changed:
                if state["number"] != number:
                    number = state["number"]
                    seen.clear()
                for tile, item in enumerate(state["tiles"]):
                    if item["shown"] is None:
                        seen.pop(tile, None)
                    else:
                        seen.setdefault(tile, now)
                self.received[index] += 1
                self.changed.notify_all()

    def wait_revealed(self, tile: int, since: float) -> list[float]:
        """Each client's ms from ``since`` to its first message showing ``tile`` revealed, once all have one."""
        with self.changed:
            if not self.changed.wait_for(lambda: all(seen.get(tile, 0.0) >= since for seen in self.seen), PATIENCE_S):
                raise TimeoutError(f"not every client saw tile {tile} revealed")
            return [(seen[tile] - since) * 1000 for seen in self.seen]

    def close(self) -> None:
        """Safe twice."""
        if self._loop.is_closed():
            return

        async def closing() -> None:
            for task in self._tasks:
                task.cancel()
            if self._session is not None:
                await self._session.close()

        asyncio.run_coroutine_threadsafe(closing(), self._loop).result(PATIENCE_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(PATIENCE_S)
        self._loop.close()


def stuck_socket(port: int) -> socket.socket:
    """A public socket that completes the WebSocket handshake with a tiny receive buffer and never reads again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STUCK_RCVBUF)
    sock.settimeout(PATIENCE_S)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)  # a byte at a time: nothing of the first message is read
        if not chunk:
            raise ConnectionError("the web page closed the socket during the handshake")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"the web page refused the socket: {answer.splitlines()[0]!r}")
    return sock


def queued_bytes(sock: socket.socket) -> tuple[int, int]:
    """What waits on a loopback connection (Linux: /proc/net/tcp): the far end's send queue (sent and not
    yet taken by this socket, or not yet sent), and what this socket's receive buffer holds."""
    mine, theirs = sock.getsockname()[1], sock.getpeername()[1]
    sent = held = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
        send_queue, receive_queue = (int(count, 16) for count in fields[4].split(":"))
        if (local, remote) == (theirs, mine):
            sent = send_queue
        elif (local, remote) == (mine, theirs):
            held = receive_queue
    return sent, held


class PageWatcher(Watcher):
    """``bench_touch``'s touches as the page's clients see them, and a client that never reads, opened
    again whenever the server drops it (as a page would reconnect, and fall behind again)."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.clients: Clients | None = None
        self.stuck: socket.socket | None = None
        self.receipts: list[float] = []  # every client's, every touch (ms)
        self.first: list[float] = []  # the first client's
        self.last: list[float] = []  # the last receipt of each touch: every client up to date
        self.drops = 0
        self.queued = (0, 0)  # bytes waiting for the socket that never reads, when the touches ended
        self._output = None
        self._read = 0

    def started(self, run: subprocess.Popen, output) -> None:
        self._output = output
        self.clients = Clients(self.port, self.count)
        self.stuck = stuck_socket(self.port)

    def touched(self, tile: int, pad_s: float) -> None:
        times = self.clients.wait_revealed(tile, pad_s)
        self.receipts += times
        self.first.append(times[0])
        self.last.append(max(times))
        end = len(self._output.lines)  # the list grows on another thread: read up to here
        dropped = sum(1 for line in self._output.lines[self._read:end] if line.endswith(DROPPED))
        self._read = end
        if dropped:
            self.drops += dropped
            self.stuck.close()
            self.stuck = stuck_socket(self.port)

    def finished(self, run: subprocess.Popen, output) -> None:
        self.queued = queued_bytes(self.stuck)
        self.close()

    def close(self) -> None:
        if self.clients is not None:
            self.clients.close()
        if self.stuck is not None:
            self.stuck.close()


def idle_cpu(seconds: float, clients: int | None) -> float:
    """The share of one core (%) ``run`` takes over ``seconds`` of nothing happening (``bench run``'s
    table, the sand timer stopped); with the page on and ``clients`` idle sockets unless None."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        process = start_headless(folder, "" if clients is None else web_config(port))
        sockets = None
        try:
            if process.poll() is not None:
                raise RuntimeError("codenames-board run ended before it was ready")
            if clients:
                sockets = Clients(port, clients)
            time.sleep(1.0)  # the last of start-up and the clients' first states are not idling
            before, wall = cpu_seconds(process.pid), time.monotonic()
            time.sleep(seconds)
            return 100 * (cpu_seconds(process.pid) - before) / (time.monotonic() - wall)
        finally:
            if sockets is not None:
                sockets.close()
            process.terminate()
            process.wait(timeout=PATIENCE_S)


def bench_web(touches: int = 300, clients: int = 20, idle_seconds: float = 10.0, progress=silent) -> dict:
    """The page's budgets (see the module's docstring); ``progress(msgid, **params)`` hears how far it is.
    Raises ``benchtouch.MicroPythonMissing`` without the micropython command."""
    load = os.getloadavg()
    progress("bench.web_progress_off")
    off = bench_touch(touches, progress=progress, floors=False)
    port = free_port()
    watcher = PageWatcher(port, clients)
    progress("bench.web_progress_on", clients=clients)
    try:
        on = bench_touch(touches, progress=progress, config=web_config(port), watcher=watcher, floors=False)
    finally:
        watcher.close()
    progress("bench.web_progress_idle", seconds=f"{idle_seconds:g}")
    idle_off = idle_cpu(idle_seconds, None)
    idle_on = idle_cpu(idle_seconds, IDLE_CLIENTS)
    return {
        "touches": touches,
        "clients": clients,
        "games": (off["games"], on["games"]),
        "page_ms": summary(watcher.receipts),
        "first_ms": summary(watcher.first),
        "last_ms": summary(watcher.last),
        "led_off_ms": off["total"]["total"],
        "led_on_ms": on["total"]["total"],
        "host_off_ms": off["total"]["host"],
        "host_on_ms": on["total"]["host"],
        "stuck_drops": watcher.drops,
        "stuck_queued": watcher.queued,
        "memory_off_mb": (off["rss_mb"], off["hwm_mb"]),
        "memory_on_mb": (on["rss_mb"], on["hwm_mb"]),
        "idle_seconds": idle_seconds,
        "idle_clients": IDLE_CLIENTS,
        "idle_off_percent": idle_off,
        "idle_on_percent": idle_on,
        "load": (load, os.getloadavg()),
        "cpus": os.cpu_count(),
    }
