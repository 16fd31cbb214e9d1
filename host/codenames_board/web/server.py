"""The web page's server: aiohttp on a thread of its own, fed the table's newest state.

The table's thread only hands over a state (``show``: a slot and a wake-up of the
server's loop); on the loop the ``hub.Hub`` turns it into messages for the sockets
and ``api.Api`` answers the rest. Requests, headers, bodies, socket messages and
connections are bounded; every response carries a strict Content-Security-Policy
and names no server.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import socket
import threading
from pathlib import Path
from typing import Callable

from aiohttp import web

from .api import COOKIE, Api, same_origin
from .hub import Hub, loopback
from .pairing import Pairing, PhonesChanged

MAX_BODY = 4096  # bytes of a POST: a PIN, a token, a clue, the team names, or the 25 words on the cards
MAX_CONNECTIONS = 96  # open at once, sockets included; more are closed at once
ADDRESS_CONNECTIONS = 16  # ... and from one address but this machine's: one phone cannot take the page from the others
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
ERRORS = {404: "web.not_found", 413: "web.too_big"}
log = logging.getLogger(__name__)


def _peer(transport) -> str | None:
    address = transport.get_extra_info("peername") if transport is not None else None
    return address[0] if address else None


def known_host(host: str, names: set[str]) -> bool:
    """Is ``host`` (a Host header, maybe with a port) one this table answers to? An address (a phone that
    opened the table's address), this machine's names, any ``.local`` name (mDNS in the room). Not another
    name: a web page elsewhere that had its name point at the table (DNS rebinding) is refused."""
    name = host[1:].split("]", 1)[0] if host.startswith("[") else host.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        name = name.lower()
        return name in names or name.endswith(".local")


class WebServer:
    def __init__(self, address: str, port: int, tr, folder: Path, post: Callable[[object], None],
                 pairing: Pairing, clue_entry: bool = True) -> None:
        self.address, self.port = address, port
        self.post = post  # hands an event to the table's queue
        self.pairing = pairing
        self.hub = Hub(tr, pairing, clue_entry)
        self.api = Api(tr, folder, post, pairing, self.hub, self._phone_paired)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._state = None  # the newest TableState: set on the table's thread, read on the loop's
        self.hosts = {"localhost", socket.gethostname().lower()}  # names it answers to (Web adds the URL's)
        self._waking = False
        self._said_at: float | None = None  # when the loop's last error was logged

    # --- the table's thread

    def start(self) -> None:
        """Listen (on the server's own thread); raises OSError (address in use, ...) here, not later."""
        started = threading.Event()
        failed: list[BaseException] = []

        def serve() -> None:
            loop = self._loop = asyncio.new_event_loop()
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
            self._thread.join()  # its loop closed: nothing is left to stop
            raise failed[0]

    def show(self, state) -> None:
        """A new published state: the newest wins; the loop builds the messages."""
        self._state = state
        if not self._waking and self._loop is not None:
            self._waking = True
            self._loop.call_soon_threadsafe(self._changed)

    def close(self) -> None:
        """Stop serving: every open socket is closed first (the cleanup would otherwise wait for each)."""
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop)
            self._thread.join(5)

    def _quiet(self, loop, context) -> None:
        """The loop's errors in one line a minute at most: a refused connection's handler fails as it starts,
        and a crowd of them must not flood the journal."""
        now = loop.time()
        if self._said_at is None or now - self._said_at >= 60:
            self._said_at = now
            log.warning("web page: %s (%s)", context.get("message"), context.get("exception"))

    async def _stop(self) -> None:
        self.hub.close_all()
        self._loop.stop()

    # --- the loop's thread

    def _changed(self) -> None:
        self._waking = False
        if self._state is not None:
            self.hub.changed(self._state)

    def _phone_paired(self) -> None:
        self.post(PhonesChanged())  # the hooded display's count
        if not self._waking:
            self._waking = True
            self._loop.call_soon(self._changed)  # the public page's count

    async def _listen(self) -> None:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._errors])
        app.on_response_prepare.append(self._prepare)
        app.router.add_get("/ws", self._public_socket)
        app.router.add_get("/ws/spymaster", self._spymaster_socket)
        self.api.add_routes(app.router)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, keepalive_timeout=15,
            max_line_size=2048, max_field_size=2048, max_headers=32,
        )
        await self._runner.setup()
        self._bound_connections()
        site = web.TCPSite(self._runner, self.address, self.port, backlog=32, reuse_address=True)
        await site.start()
        if not self._runner.addresses:  # asyncio leaves out a socket it may not make (a sandbox without IP)
            raise PermissionError(errno.EACCES, "no network socket may be made here")
        self.port = self._runner.addresses[0][1]  # the port chosen, when 0 was asked for

    def _bound_connections(self) -> None:
        """Close a connection at once when ``MAX_CONNECTIONS`` are open, or ``ADDRESS_CONNECTIONS`` from its address."""
        server = self._runner.server
        made = server.connection_made

        def connection_made(handler, transport) -> None:
            made(handler, transport)
            peer = _peer(transport)
            if len(server.connections) > MAX_CONNECTIONS or not loopback(peer) and ADDRESS_CONNECTIONS < sum(
                1 for other in server.connections if _peer(other.transport) == peer
            ):
                transport.abort()

        server.connection_made = connection_made
        self._loop.set_exception_handler(self._quiet)

    @web.middleware
    async def _errors(self, request: web.Request, handler):
        """Every refusal as the page's JSON error, never aiohttp's own page; a request for another host
        (a web page elsewhere that renamed itself to this table's address) is not this page's."""
        if not known_host(request.host, self.hosts):
            return web.json_response({"error": "web.bad_origin"}, status=421)
        try:
            return await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            return web.json_response({"error": ERRORS.get(error.status, "web.bad_request")}, status=error.status)

    @staticmethod
    async def _prepare(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)
        response.headers.popall("Server", None)  # which server and Python: nobody's business

    async def _public_socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            return web.json_response({"error": "web.bad_origin"}, status=403)
        return await self.hub.serve(request, None)

    async def _spymaster_socket(self, request: web.Request) -> web.StreamResponse:
        session = request.cookies.get(COOKIE)
        if not same_origin(request) or not self.pairing.paired(session):
            return web.json_response({"error": "web.not_paired"}, status=403)
        return await self.hub.serve(request, session)
