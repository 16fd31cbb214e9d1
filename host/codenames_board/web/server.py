"""The web page's server: aiohttp on a thread of its own, fed the table's newest state.

The table's thread only hands over a state (``show``: a slot and a wake-up of the
server's loop); the server's loop builds each message once and offers it to every
socket. A socket holds one message at most, the newest, so a slow phone skips
states rather than queueing them; one that cannot take a message within
``SEND_SECONDS``, or lets ``BEHIND_BYTES`` pile up unsent, is told to reload and
dropped. Nothing the page does can slow the table.

Routes are the page's only (``pages``, ``STATIC``); bodies, headers, socket
messages and connections are bounded; every response carries a strict
Content-Security-Policy. A paired phone's session lives in an HttpOnly,
SameSite=Strict cookie; the key goes only to sockets of sessions paired this round.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from importlib import resources
from pathlib import Path
from typing import Callable

from aiohttp import WSMsgType, web

from ..cluewords import clean, clue_word_problem
from ..engine import MAX_CLUE, UNLIMITED
from ..gestures import Intent
from ..i18n import DEFAULT, catalog
from . import history
from .pairing import Pairing, PairRefused
from .views import public_view, spymaster_view

log = logging.getLogger(__name__)

COOKIE = "cb_session"
MAX_BODY = 2048  # bytes of a POST: a PIN, a token or a clue
MAX_MESSAGE = 512  # bytes of a message from a page's socket (pages send none; pings are frames, not messages)
MAX_SOCKETS = 48  # open sockets at once: a table's phones, a TV and guests, many times over
MAX_CONNECTIONS = 96  # open connections at once, sockets included; more are closed at once
SEND_SECONDS = 5.0  # a socket that cannot take a message this long is dropped
BEHIND_BYTES = 256 * 1024  # ... and one with this much unsent
PAGES = {"/": "index.html", "/spymaster": "spymaster.html", "/pair": "pair.html", "/history": "history.html"}
STATIC = {  # the page's files, and nothing else, served under /static/
    "app.js": "text/javascript",
    "spymaster.js": "text/javascript",
    "pair.js": "text/javascript",
    "history.js": "text/javascript",
    "style.css": "text/css",
}
TEXT_SECTIONS = ("web.", "team.", "identity.", "duo.", "outcome.")
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


UNPAIRED = json.dumps({"type": "unpaired"})


class PhonesChanged:
    """Posted to the table's queue when a phone paired: the hooded display shows the new count."""


def _files() -> dict[str, bytes]:
    folder = resources.files(__package__).joinpath("static")
    names = set(PAGES.values()) | set(STATIC)
    return {name: folder.joinpath(name).read_bytes() for name in names if folder.joinpath(name).is_file()}


def texts(language: str) -> dict[str, str]:
    """The page's texts in ``language``, English where a text is missing."""
    merged = {**catalog(DEFAULT), **catalog(language)}
    return {msgid: text for msgid, text in merged.items() if msgid.startswith(TEXT_SECTIONS)}


class _Socket:
    """One page's socket: the newest message not yet sent, and the task that sends it."""

    def __init__(self, ws: web.WebSocketResponse, transport, session: str | None) -> None:
        self.ws = ws
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


class WebServer:
    def __init__(self, address: str, port: int, tr, folder: Path, post: Callable[[object], None],
                 pairing: Pairing, clue_entry: bool = True) -> None:
        self.address, self.port = address, port
        self.tr = tr
        self.folder = folder  # the games, for the history
        self.post = post  # hands an event to the table's queue
        self.pairing = pairing
        self.clue_entry = clue_entry
        self.send_seconds, self.behind_bytes = SEND_SECONDS, BEHIND_BYTES
        self._files = _files()
        self._texts = json.dumps({"language": tr.language, "texts": texts(tr.language)})
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._state = None  # the newest TableState; set on the table's thread, read on the loop's
        self._waking = False
        self._round = pairing.round
        self._sockets: set[_Socket] = set()
        self._public: str | None = None
        self._private: str | None = None
        self._history = asyncio.Semaphore(2)  # records read at once

    # --- the table's thread

    def start(self) -> None:
        """Listen (on the server's own thread); raises OSError (address in use, ...) here, not later."""
        started = threading.Event()
        failed: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._listen())
            except BaseException as error:  # noqa: BLE001 - handed to start()
                failed.append(error)
                started.set()
                loop.close()
                return
            started.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._runner.cleanup())
                loop.close()

        self._thread = threading.Thread(target=serve, name="codenames-web", daemon=True)
        self._thread.start()
        started.wait()
        if failed:
            raise failed[0]

    def show(self, state) -> None:
        """A new published state: the newest wins; the loop builds the messages."""
        self._state = state
        if not self._waking and self._loop is not None:
            self._waking = True
            self._loop.call_soon_threadsafe(self._changed)

    def close(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)

    # --- the loop's thread

    async def _listen(self) -> None:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._errors])
        app.on_response_prepare.append(self._prepare)
        app.router.add_get("/ws", self._public_socket)
        app.router.add_get("/ws/spymaster", self._spymaster_socket)
        for path in PAGES:
            app.router.add_get(path, self._page)
        app.router.add_get(r"/history/{number:\d{1,9}}", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/texts", self._api_texts)
        app.router.add_get("/api/history", self._api_history)
        app.router.add_get(r"/api/history/{number:\d{1,9}}", self._api_game)
        app.router.add_post("/api/pair", self._api_pair)
        app.router.add_post("/api/clue", self._api_clue)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, keepalive_timeout=15,
            max_line_size=2048, max_field_size=2048, max_headers=32,
        )
        await self._runner.setup()
        self._bound_connections()
        site = web.TCPSite(self._runner, self.address, self.port, backlog=32, reuse_address=True)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port chosen, when 0 was asked for

    def _bound_connections(self) -> None:
        """Close a connection at once when ``MAX_CONNECTIONS`` are open."""
        server = self._runner.server
        made = server.connection_made

        def connection_made(handler, transport) -> None:
            made(handler, transport)
            if len(server.connections) > MAX_CONNECTIONS:
                transport.abort()

        server.connection_made = connection_made

    @web.middleware
    async def _errors(self, request: web.Request, handler):
        """Every refusal as the page's JSON error, never aiohttp's own page."""
        try:
            return await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            msgid = {404: "web.not_found", 405: "web.bad_request", 413: "web.too_big"}.get(error.status, "web.bad_request")
            return web.json_response({"error": msgid}, status=error.status)

    @staticmethod
    async def _prepare(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)
        response.headers.popall("Server", None)  # which server and Python: nobody's business

    def _changed(self) -> None:
        self._waking = False
        state = self._state
        if state is None:
            return
        if self.pairing.round != self._round:  # a new game, or the table unpaired the phones
            self._round = self.pairing.round
            for sock in [sock for sock in self._sockets if sock.session is not None]:
                self._sockets.discard(sock)  # it hears this, then nothing more
                sock.offer(UNPAIRED)
        devices = self.pairing.devices
        self._public = json.dumps(public_view(state.public, self.tr, devices))
        self._private = json.dumps(spymaster_view(state, self.tr, devices, self.clue_entry))
        for sock in self._sockets:
            sock.offer(self._private if sock.session is not None else self._public)

    # --- pages

    async def _page(self, request: web.Request) -> web.Response:
        name = "history.html" if request.path.startswith("/history") else PAGES[request.path]
        return self._file(name, "text/html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return self._file(name, STATIC[name])

    def _file(self, name: str, kind: str) -> web.Response:
        body = self._files.get(name)
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def _api_texts(self, request: web.Request) -> web.Response:
        return web.Response(text=self._texts, content_type="application/json")

    async def _api_history(self, request: web.Request) -> web.Response:
        async with self._history:
            games = await asyncio.get_running_loop().run_in_executor(None, history.games, self.folder)
        return web.json_response(games)

    async def _api_game(self, request: web.Request) -> web.Response:
        number = int(request.match_info["number"])
        async with self._history:
            game = await asyncio.get_running_loop().run_in_executor(None, history.game, self.folder, number)
        if game is None:
            raise web.HTTPNotFound()
        return web.json_response(game)

    # --- pairing and the clue

    async def _json(self, request: web.Request) -> dict:
        """The body of a POST from this page: JSON, an object, same origin."""
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise _Refused(403, "web.bad_origin")
        if request.content_type != "application/json":
            raise _Refused(415, "web.bad_request")
        try:
            body = json.loads(await request.text())
        except (ValueError, UnicodeDecodeError):
            raise _Refused(400, "web.bad_request") from None
        if not isinstance(body, dict):
            raise _Refused(400, "web.bad_request")
        return body

    async def _api_pair(self, request: web.Request) -> web.Response:
        try:
            body = await self._json(request)
            token, pin = body.get("token"), body.get("pin")
            if not (isinstance(token, str) and 0 < len(token) <= 64) and not (isinstance(pin, str) and pin.isdigit()
                                                                             and len(pin) <= 12):
                raise _Refused(400, "web.pair_wrong")
            session = self.pairing.pair(token=token if isinstance(token, str) else None,
                                        pin=pin if isinstance(pin, str) else None)
        except _Refused as refused:
            return refused.response()
        except PairRefused as refused:
            status = 429 if refused.msgid == "web.pair_wait" else 403
            return web.json_response({"error": refused.msgid, "seconds": refused.seconds}, status=status)
        self.post(PhonesChanged())
        self._changed_soon()
        response = web.json_response({"paired": True})
        response.set_cookie(COOKIE, session, httponly=True, samesite="Strict", path="/")
        return response

    def _changed_soon(self) -> None:
        if not self._waking:
            self._waking = True
            asyncio.get_running_loop().call_soon(self._changed)

    async def _api_clue(self, request: web.Request) -> web.Response:
        try:
            body = await self._json(request)
            if not self.pairing.paired(request.cookies.get(COOKIE)):
                raise _Refused(403, "web.not_paired")
            word, count = body.get("word"), body.get("count")
            if not (count == UNLIMITED or (type(count) is int and 0 <= count <= MAX_CLUE)):
                raise _Refused(400, "web.clue_bad_count")
            state = self._state
            if state is None or not self.clue_entry or state.game.phase.value != "clue":
                raise _Refused(409, "web.not_clue_phase")
            problem = clue_word_problem(word, state.words)
            if problem is not None:
                raise _Refused(400, problem)
        except _Refused as refused:
            return refused.response()
        self.post(Intent(("give_clue", count, clean(word))))
        return web.json_response({"ok": True}, status=202)

    # --- sockets

    async def _public_socket(self, request: web.Request) -> web.StreamResponse:
        return await self._socket(request, None)

    async def _spymaster_socket(self, request: web.Request) -> web.StreamResponse:
        session = request.cookies.get(COOKIE)
        if not self.pairing.paired(session):
            return web.json_response({"error": "web.not_paired"}, status=403)
        return await self._socket(request, session)

    async def _socket(self, request: web.Request, session: str | None) -> web.StreamResponse:
        if len(self._sockets) >= MAX_SOCKETS:
            return web.json_response({"error": "web.server_busy"}, status=503)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30, autoping=True)
        await ws.prepare(request)
        sock = _Socket(ws, request.transport, session)
        self._sockets.add(sock)
        message = self._private if session is not None else self._public
        if message is not None:
            sock.offer(message)
        sender = asyncio.create_task(self._send(sock))
        try:
            async for msg in ws:  # pages send nothing; a message too big or a close ends the socket
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self._sockets.discard(sock)
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
            behind = transport is None or transport.get_write_buffer_size() > self.behind_bytes
            try:
                if behind:
                    raise asyncio.TimeoutError
                await asyncio.wait_for(ws.send_str(message), self.send_seconds)
            except (asyncio.TimeoutError, ConnectionError):
                self._drop(sock)
                return
            if message is UNPAIRED:
                await ws.close()
                return

    def _drop(self, sock: _Socket) -> None:
        """A socket that fell behind: cut. Its page reconnects by itself and starts from the newest state
        (a reload in effect); a message to say so would wait behind the ones it did not take."""
        self._sockets.discard(sock)
        log.info("a page fell behind and was dropped")
        if sock.transport is not None:
            sock.transport.abort()


class _Refused(Exception):
    def __init__(self, status: int, msgid: str) -> None:
        super().__init__(msgid)
        self.status, self.msgid = status, msgid

    def response(self) -> web.Response:
        return web.json_response({"error": self.msgid}, status=self.status)
