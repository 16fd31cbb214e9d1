"""The page's live sockets: each published state becomes one message for everyone, one for the paired phones.

A socket holds one message at most, the newest, so a slow phone skips states
rather than queueing them; one that cannot take a message within
``send_seconds``, or lets ``behind_bytes`` pile up unsent, is cut (its page
reconnects by itself and starts from the newest state). Nothing a page does
reaches the table. Runs on the server's loop only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket

from aiohttp import WSMsgType, web

from .pairing import Pairing
from .views import public_view, spymaster_view

log = logging.getLogger(__name__)

MAX_MESSAGE = 512  # bytes of a message from a page (pages send none; pings are frames, not messages)
MAX_SOCKETS = 48  # open at once: a table's phones, a TV and guests, many times over
ADDRESS_SOCKETS = 6  # ... from one address but this machine's: a phone's pages, a few tabs
SEND_SECONDS = 5.0
BEHIND_BYTES = 256 * 1024
SEND_BUFFER = 32 * 1024  # the kernel's part of a socket's backlog: without a bound it takes megabytes of old states
UNPAIRED = json.dumps({"type": "unpaired"})


def loopback(address: str | None) -> bool:
    """This machine itself (a benchmark, a test, the simulator's user): no limit per address for it."""
    return address in ("127.0.0.1", "::1") or (address or "").startswith("127.")


class _Socket:
    """One page's socket: the newest message not yet sent, and whether it may see the key."""

    def __init__(self, ws: web.WebSocketResponse, transport, session: str | None, peer: str | None = None) -> None:
        self.ws = ws
        self.peer = peer  # the page's address
        self.transport = transport
        self.session = session  # paired: the key goes to this socket
        self.pending: str | None = None
        self.ready = asyncio.Event()
        self._last: str | None = None

    def offer(self, message: str) -> None:
        """The newest message for this page; one the page has already been offered is not sent again."""
        if message != self._last:
            self._last = self.pending = message
            self.ready.set()


class Hub:
    def __init__(self, tr, pairing: Pairing, clue_entry: bool) -> None:
        self.tr = tr
        self.pairing = pairing
        self.clue_entry = clue_entry
        self.send_seconds, self.behind_bytes = SEND_SECONDS, BEHIND_BYTES
        self.sockets: set[_Socket] = set()
        self.state = None  # the newest TableState
        self._round = pairing.round
        self._public: str | None = None
        self._private: str | None = None

    def changed(self, state) -> None:
        """A new state (or a phone paired): new messages, offered to every socket."""
        self.state = state
        if self.pairing.round != self._round:  # a new game, or the table unpaired the phones
            self._round = self.pairing.round
            for sock in [sock for sock in self.sockets if sock.session is not None]:
                self.sockets.discard(sock)  # it hears this, then nothing more
                sock.offer(UNPAIRED)
        # Phones paired, or more if a session's cookie were copied to another socket: never fewer than there are.
        devices = max(self.pairing.devices, sum(1 for sock in self.sockets if sock.session is not None))
        # The public message from the public state alone; the key only in the paired phones' one.
        self._public = json.dumps(public_view(state.public, self.tr, devices))
        self._private = json.dumps(spymaster_view(state, self.tr, devices, self.clue_entry))
        for sock in self.sockets:
            sock.offer(self._private if sock.session is not None else self._public)

    async def serve(self, request: web.Request, session: str | None) -> web.StreamResponse:
        """A page's socket, from the upgrade to its end; ``session``: paired this round (checked by the caller)."""
        peer = request.remote
        crowded = not loopback(peer) and sum(1 for sock in self.sockets if sock.peer == peer) >= ADDRESS_SOCKETS
        if len(self.sockets) >= MAX_SOCKETS or crowded:
            return web.json_response({"error": "web.server_busy"}, status=503)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30, autoping=True)
        await ws.prepare(request)
        raw = request.transport.get_extra_info("socket") if request.transport is not None else None
        if raw is not None:  # a page that stops reading then fills our buffer soon and is dropped
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        sock = _Socket(ws, request.transport, session, peer)
        self.sockets.add(sock)
        message = self._private if session is not None else self._public
        if message is not None:
            sock.offer(message)
        sender = asyncio.create_task(self._send(sock))
        try:
            async for msg in ws:  # pages send nothing; a message too big or a close ends the socket
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.sockets.discard(sock)
            sender.cancel()
        return ws

    async def _send(self, sock: _Socket) -> None:
        ws = sock.ws
        while not ws.closed:
            await sock.ready.wait()
            sock.ready.clear()
            message, sock.pending = sock.pending, None
            if message is None:
                continue
            transport = sock.transport
            try:
                if transport is None or transport.get_write_buffer_size() > self.behind_bytes:
                    raise asyncio.TimeoutError
                await asyncio.wait_for(ws.send_str(message), self.send_seconds)
            except (asyncio.TimeoutError, ConnectionError):
                self._drop(sock)
                return
            if message is UNPAIRED:
                await ws.close()
                return

    def close_all(self) -> None:
        """The table stops: every page's connection is cut; each page reconnects when the table is back."""
        sockets, self.sockets = list(self.sockets), set()
        for sock in sockets:
            if sock.transport is not None:
                sock.transport.abort()  # a close handshake could wait for a page that does not answer

    def _drop(self, sock: _Socket) -> None:
        """A socket that fell behind: cut. A message to say so would wait behind the ones it did not take."""
        self.sockets.discard(sock)
        log.info("a page fell behind and was dropped")
        if sock.transport is not None:
            sock.transport.abort()
