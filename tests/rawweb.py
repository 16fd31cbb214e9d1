"""A web client made of a plain socket, for tests that read every byte the table's web page sends.

``RawSocket`` speaks just enough WebSocket (RFC 6455) to read the server's frames and
keeps every byte received in ``raw``; ``request`` makes one HTTP/1.1 request and
returns the status, the headers and the body, raw too. ``running_table`` starts the
whole runtime (mock pins, the virtual tile board, the web page on 127.0.0.1, any
free port) and returns a handle to drive it.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import threading
from dataclasses import dataclass

from patience import PATIENCE_S

CLIENT_KEY = "Y29kZW5hbWVzLWJvYXJkIQ=="  # 16 bytes, fixed: the handshake's answer is then the same in every run


def request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None) -> tuple[int, dict, bytes, bytes]:
    """(status, headers with lower-case names, body, every byte received)."""
    host = (headers or {}).pop("Host", f"127.0.0.1:{port}") if headers else f"127.0.0.1:{port}"
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE_S) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        raw = bytearray()
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, rest = bytes(raw).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found.setdefault(name.strip().lower(), []).append(value.strip())
    return int(status_line.split()[1]), {k: ", ".join(v) for k, v in found.items()}, rest, bytes(raw)


def post_json(port: int, path: str, obj, cookie: str | None = None, **headers) -> tuple[int, dict, dict]:
    extra = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}", **headers}
    if cookie:
        extra["Cookie"] = cookie
    status, found, body, _ = request(port, "POST", path, json.dumps(obj).encode(), extra)
    return status, found, json.loads(body) if body else None


class RawSocket:
    """One WebSocket, read frame by frame; ``raw`` holds every byte received, the handshake's answer included."""

    def __init__(self, port: int, path: str = "/ws", cookie: str | None = None, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(PATIENCE_S)
        self.sock.connect(("127.0.0.1", port))
        lines = [
            f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
            f"Sec-WebSocket-Key: {CLIENT_KEY}", "Sec-WebSocket-Version: 13",
        ] + ([f"Cookie: {cookie}"] if cookie else [])
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.raw = bytearray()
        self._buffer = bytearray()
        while b"\r\n\r\n" not in self._buffer:
            self._fill()
        head, _, rest = bytes(self._buffer).partition(b"\r\n\r\n")
        self.status = int(head.split()[1])
        self._buffer = bytearray(rest)
        self.messages: list[str] = []
        self.closed = False

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.raw += chunk
        self._buffer += chunk

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._fill()
        taken, self._buffer = bytes(self._buffer[:count]), self._buffer[count:]
        return taken

    def message(self, timeout: float | None = None) -> str | None:
        """The next text message; None once the server closed the socket."""
        self.sock.settimeout(timeout if timeout is not None else PATIENCE_S)
        while not self.closed:
            first, second = self._take(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._take(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._take(8))
            payload = self._take(length)
            if opcode == 1:
                text = payload.decode("utf-8")
                self.messages.append(text)
                return text
            if opcode == 8:
                self.closed = True
                return None
            if opcode == 9:  # ping: answer it (masked, as a client must)
                self.send(payload, opcode=10)
        return None

    def until(self, predicate, limit: int = 200) -> dict:
        """Messages until one (as JSON) satisfies ``predicate``; that one."""
        for _ in range(limit):
            text = self.message()
            if text is None:
                raise ConnectionError("closed before the awaited message")
            obj = json.loads(text)
            if predicate(obj):
                return obj
        raise AssertionError("the awaited message never came")

    def send(self, payload: bytes, opcode: int = 1) -> None:
        mask = os.urandom(4)
        length = len(payload)
        head = bytes([0x80 | opcode])
        if length < 126:
            head += bytes([0x80 | length])
        elif length < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", length)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def close(self) -> None:
        self.sock.close()


@dataclass
class Table:
    runtime: object
    factory: object
    board: object
    clock: object
    config: object
    thread: threading.Thread

    @property
    def port(self) -> int:
        return self.runtime.web.server.port

    @property
    def game(self):
        return self.runtime.table.game

    def settle(self) -> None:
        """Everything posted so far handled, and the web server's loop past what that made it do."""
        self.runtime.controller.queue.join()
        loop = self.runtime.web.server._loop
        done = threading.Event()
        loop.call_soon_threadsafe(lambda: loop.call_soon(done.set))
        done.wait(PATIENCE_S)

    def press(self, name: str, hold: float = 0.0) -> None:
        pin = self.factory.pin(getattr(self.config.pins, name))
        pin.drive_low()
        self.settle()
        if hold:
            self.clock.now += hold
            self.runtime.controller.post(None)
            self.settle()
        pin.drive_high()
        self.settle()

    def tap(self, tile: int) -> None:
        self.board.tap(tile)
        self.settle()

    def pair(self) -> str:
        """A phone paired by the PIN; its cookie."""
        status, headers, _ = post_json(self.port, "/api/pair", {"pin": self.runtime.web.pairing.card().pin})
        assert status == 200
        self.settle()
        return headers["set-cookie"].split(";")[0]

    def stop(self) -> None:
        if self.thread.is_alive():
            self.runtime.controller.stop()
            self.thread.join(timeout=PATIENCE_S)
            self.runtime.close()


class Clock:
    """The table's clock, moved by hand (``clock.now += seconds``)."""

    def __init__(self, now: float = 5000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def running_table(
    state_dir, settings: str = "", words=None, display=None, seed: int | None = None, deal=None, pack: str | None = None
) -> Table:
    """The whole runtime with the page on 127.0.0.1 (any free port), the sand timer off; ``stop()`` it.

    ``words``: the 25 codenames each game is dealt (else none, as with cards on the table);
    ``display``: the hooded display (a ``SpymasterScreen``), or none; ``seed``: the same key each game;
    ``deal``: a ``Deal`` with a word list to deal the words from instead (and to re-deal one);
    ``pack``: the name of the pack ``deal`` deals from, a phone may then choose another (as ``run`` lets it).
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from codenames_board.config import parse
    from codenames_board.controller import Runtime
    from codenames_board.i18n import Translator
    from codenames_board.tileboard import VirtualTileBoard

    config = parse(
        f'state_dir = "{state_dir}"\n[controls]\nbounce_ms = 0\n[timer]\nclue_seconds = 0\nguess_seconds = 0\n'
        f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = 0\n{settings}'
    )
    factory = MockFactory(pin_class=MockPWMPin)
    board = VirtualTileBoard(status_leds=12)
    clock = Clock()
    deal_words = deal.words if deal is not None else (lambda: list(words)) if words else None
    runtime = Runtime(
        config, Translator("en"), pin_factory=factory, tileboard=board, display=display, clock=clock,
        deal_words=deal_words, another_word=deal.another if deal is not None else None,
    )
    if seed is not None:
        runtime.table.new_seed = lambda: seed
    if pack is not None:
        runtime.table.word_pack = pack
        runtime.table.choose_pack = lambda name: deal.choose(name, "en")
    runtime.start()
    thread = threading.Thread(target=runtime.controller.run)
    thread.start()
    run = Table(runtime, factory, board, clock, config, thread)
    run.settle()
    return run
