"""The table's web page: the board for every phone and a TV, the key for the spymasters' paired phones.

``Web`` is what ``run`` and ``sim`` start when the page is on: the server
(``server.WebServer``, aiohttp on its own thread; only ``Web`` loads it), the
phones' pairing (``pairing.Pairing``) and ``output``, the listener the table
publishes to. The table knows none of it: the output hands each published state
to the server, starts a new pairing round when a game is dealt or the table asks
to unpair, and the hooded display reads the pairing card from it.
"""

from __future__ import annotations

import socket
from dataclasses import replace
from urllib.parse import urlsplit
from pathlib import Path
from typing import Callable

from ..published import Output, TableState, Unpair
from .pairing import Pairing, PhonesChanged

__all__ = ["CannotListen", "PhonesChanged", "Web", "WebOutput", "lan_address"]


class CannotListen(Exception):
    """The page cannot listen where the configuration says (the port taken, an address not this machine's)."""

    def __init__(self, address: str, port: int, error: OSError) -> None:
        super().__init__(f"{address}:{port}: {error.strerror or error}")
        self.address, self.port, self.why = address, port, error.strerror or str(error)


class WebOutput(Output):
    """The listener: each state to the server (the public view is built from ``state.public`` there);
    a new game or the table's Unpair cue starts a new pairing round."""

    def __init__(self, server, pairing: Pairing) -> None:
        self.server = server
        self.pairing = pairing
        self._dealt: int | None = None

    def show(self, state: TableState, now: float) -> None:
        if state.dealt != self._dealt or any(type(event) is Unpair for event in state.events):
            if self._dealt is not None:
                self.pairing.new_round()
            self._dealt = state.dealt
        self.server.show(state)

    def card(self, ui):
        """The UiState the hooded display gets: with the pairing card."""
        return replace(ui, pairing=self.pairing.card())

    def close(self) -> None:
        self.server.close()


class Web:
    """The server, the pairing and the output, built from the configuration's [web]."""

    def __init__(self, web_config, tr, folder: Path, post: Callable[[object], None], clue_entry: bool = True) -> None:
        from .server import WebServer  # aiohttp: loaded only when the page is on

        base = web_config.url if web_config.url != "auto" else None
        self.pairing = Pairing(base or "")
        self.server = WebServer(web_config.address, web_config.port, tr, folder, post, self.pairing, clue_entry)
        self.output = WebOutput(self.server, self.pairing)
        self._url = base

    def start(self) -> str:
        """Listen; the address phones open. CannotListen when the port cannot be had."""
        try:
            self.server.start()
        except OSError as error:
            raise CannotListen(self.server.address, self.server.port, error) from error
        if self._url is None:
            host = self.server.address
            if host in ("0.0.0.0", "::"):
                host = lan_address()
            self._url = f"http://{'[' + host + ']' if ':' in host else host}:{self.server.port}"
            self.pairing.base_url = self._url
        self.server.hosts.add((urlsplit(self._url).hostname or "").lower())
        return self._url

    @property
    def url(self) -> str | None:
        return self._url

    def close(self) -> None:
        self.server.close()


def lan_address() -> str:
    """This machine's address on its local network, as a phone there would reach it (no packet is sent:
    connecting a UDP socket only picks the route). 127.0.0.1 when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never on a real network, but routed like one
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
