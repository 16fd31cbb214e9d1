"""The page's HTTP routes besides its sockets: its files, its texts, the history, pairing, the clue.

Every input is checked like any other (JSON objects of bounded size, from this
page's own origin; a PIN of digits, a token of bounded length, a clue and a team's
name as ``cluewords`` allows them, a tile number 0-24, a word pack's name) and refused with a JSON error whose ``error`` is a
message id of the ``[web]`` catalog section. Nothing here changes state on a GET.
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from pathlib import Path
from typing import Callable

from aiohttp import web

from ..cluewords import MAX_TEAM_NAME, card_words_problem, clean, clean_name, clue_word_problem, same_names
from ..engine import MAX_CLUE, TILES, UNLIMITED
from ..gestures import Intent
from ..i18n import DEFAULT, catalog
from ..words import PACKS
from . import history
from .pairing import Pairing, PairRefused

COOKIE = "cb_session"
BODY_SECONDS = 5.0  # for a POST's body to arrive
PAGES = {"/": "index.html", "/spymaster": "spymaster.html", "/pair": "pair.html", "/history": "history.html"}
STATIC = {  # the page's files, and nothing else, served under /static/
    "app.js": "text/javascript",
    "board.js": "text/javascript",
    "index.js": "text/javascript",
    "spymaster.js": "text/javascript",
    "packs.js": "text/javascript",
    "pair.js": "text/javascript",
    "history.js": "text/javascript",
    "style.css": "text/css",
    "icon.svg": "image/svg+xml",
}
TEXT_SECTIONS = ("web.", "team.", "identity.", "duo.", "outcome.", "pack.")


def same_origin(request: web.Request) -> bool:
    """No Origin (not a browser's cross-site request), or this page's own."""
    origin = request.headers.get("Origin")
    return origin is None or origin.split("://", 1)[-1] == request.host


class Refused(Exception):
    def __init__(self, status: int, msgid: str, **params) -> None:
        super().__init__(msgid)
        self.status, self.msgid, self.params = status, msgid, params

    def response(self) -> web.Response:
        return web.json_response({"error": self.msgid, **self.params}, status=self.status)


def texts(language: str) -> dict[str, str]:
    """The page's texts in ``language``, English where a text is missing."""
    merged = {**catalog(DEFAULT), **catalog(language)}
    return {msgid: text for msgid, text in merged.items() if msgid.startswith(TEXT_SECTIONS)}


def _files() -> dict[str, bytes]:
    folder = resources.files(__package__).joinpath("static")
    names = set(PAGES.values()) | set(STATIC)
    return {name: folder.joinpath(name).read_bytes() for name in names if folder.joinpath(name).is_file()}


class Api:
    def __init__(self, tr, folder: Path, post: Callable[[object], None], pairing: Pairing, hub, changed) -> None:
        self.folder = folder  # the games, for the history
        self.post = post  # hands an event to the table's queue
        self.pairing = pairing
        self.hub = hub  # its newest state: is a clue allowed now?
        self.changed = changed  # the sockets' messages anew (a phone paired: the count)
        self._files = _files()
        self._texts = json.dumps({"language": tr.language, "texts": texts(tr.language)})
        self._history = asyncio.Semaphore(2)  # records read at once

    def add_routes(self, router) -> None:
        for path in PAGES:
            router.add_get(path, self.page)
        router.add_get(r"/history/{number:\d{1,9}}", self.page)
        router.add_get("/static/{name}", self.static)
        router.add_get("/api/texts", self.api_texts)
        router.add_get("/api/history", self.api_history)
        router.add_get(r"/api/history/{number:\d{1,9}}", self.api_game)
        router.add_post("/api/pair", self.api_pair)
        router.add_post("/api/clue", self.api_clue)
        router.add_post("/api/words", self.api_words)
        router.add_post("/api/redeal", self.api_redeal)
        router.add_post("/api/names", self.api_names)
        router.add_post("/api/pack", self.api_pack)

    # --- files

    async def page(self, request: web.Request) -> web.Response:
        name = "history.html" if request.path.startswith("/history") else PAGES[request.path]
        return self._file(name, "text/html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return self._file(name, STATIC[name])

    def _file(self, name: str, kind: str) -> web.Response:
        body = self._files.get(name)
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def api_texts(self, request: web.Request) -> web.Response:
        return web.Response(text=self._texts, content_type="application/json")

    # --- the history (files read off the loop, two at a time)

    async def api_history(self, request: web.Request) -> web.Response:
        async with self._history:
            games = await asyncio.get_running_loop().run_in_executor(None, history.games, self.folder)
        games.pop("folder", None)  # where the table keeps its files: nobody's business on the network
        return web.json_response(games)

    async def api_game(self, request: web.Request) -> web.Response:
        number = int(request.match_info["number"])
        async with self._history:
            game = await asyncio.get_running_loop().run_in_executor(None, history.game, self.folder, number)
        if game is None:
            raise web.HTTPNotFound()
        return web.json_response(game)

    # --- pairing and the clue

    async def _json(self, request: web.Request) -> dict:
        """The body of a POST from this page: JSON, an object, same origin."""
        if not same_origin(request):
            raise Refused(403, "web.bad_origin")
        if request.content_type != "application/json":
            raise Refused(415, "web.bad_request")
        try:  # a body that never comes does not hold the connection for long
            body = json.loads(await asyncio.wait_for(request.text(), BODY_SECONDS))
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "web.bad_request") from None
        except asyncio.TimeoutError:
            raise Refused(408, "web.bad_request") from None
        if not isinstance(body, dict):
            raise Refused(400, "web.bad_request")
        return body

    async def api_pair(self, request: web.Request) -> web.Response:
        try:
            body = await self._json(request)
            token, pin = body.get("token"), body.get("pin")
            token_ok = isinstance(token, str) and 0 < len(token) <= 64
            pin_ok = isinstance(pin, str) and pin.isascii() and pin.isdigit() and len(pin) <= 12
            if not (token_ok or pin_ok):
                raise Refused(400, "web.pair_wrong")
            session = self.pairing.pair(token if token_ok else None, pin if pin_ok else None, request.remote or "")
        except Refused as refused:
            return refused.response()
        except PairRefused as refused:
            status = 429 if refused.msgid == "web.pair_wait" else 403
            return web.json_response({"error": refused.msgid, "seconds": refused.seconds}, status=status)
        self.changed()
        response = web.json_response({"paired": True})
        response.set_cookie(COOKIE, session, httponly=True, samesite="Strict", path="/")
        return response

    async def _paired(self, request: web.Request) -> dict:
        body = await self._json(request)
        if not self.pairing.paired(request.cookies.get(COOKIE)):
            raise Refused(403, "web.not_paired")
        return body

    async def api_words(self, request: web.Request) -> web.Response:
        """The words on the cards, typed in once by a paired phone (the table deals none)."""
        try:
            words = (await self._paired(request)).get("words")
            state = self.hub.state
            if state is None or state.words is not None or state.game.is_over:
                raise Refused(409, "web.words_known")
            problem = card_words_problem(words)
            if problem is not None:
                raise Refused(400, problem)
        except Refused as refused:
            return refused.response()
        self.post(Intent(("set_words", tuple(clean(word) for word in words))))
        return web.json_response({"ok": True}, status=202)

    async def api_clue(self, request: web.Request) -> web.Response:
        try:
            body = await self._paired(request)
            word, count = body.get("word"), body.get("count")
            if not (count == UNLIMITED or (type(count) is int and 0 <= count <= MAX_CLUE)):
                raise Refused(400, "web.clue_bad_count")
            state = self.hub.state
            if state is None or not self.hub.clue_entry or state.game.phase.value != "clue":
                raise Refused(409, "web.not_clue_phase")
            problem = clue_word_problem(word, state.words)
            if problem is not None:
                raise Refused(400, problem)
        except Refused as refused:
            return refused.response()
        self.post(Intent(("give_clue", count, clean(word))))
        return web.json_response({"ok": True}, status=202)

    async def api_redeal(self, request: web.Request) -> web.Response:
        """Another word for one tile, before the first clue (the table says how many are left)."""
        try:
            tile = (await self._paired(request)).get("tile")
            if not (type(tile) is int and 0 <= tile < TILES):
                raise Refused(400, "web.redeal_bad_tile")
            state = self.hub.state
            if state is None or state.redeals <= 0:
                raise Refused(409, "web.redeal_closed")
        except Refused as refused:
            return refused.response()
        self.post(Intent(("redeal", tile)))
        return web.json_response({"ok": True}, status=202)

    async def api_names(self, request: web.Request) -> web.Response:
        """Tonight's team names: both, each as ``clean_name`` allows it ("" names the team by its colour;
        an invisible character such as a zero-width joiner, category Cf, is refused, not kept)."""
        try:
            body = await self._paired(request)
            names = tuple(clean_name(body.get(team)) for team in ("red", "blue"))
            for team, name in zip(("red", "blue"), names):
                if name is None:
                    raise Refused(400, "web.names_bad", team=team, most=MAX_TEAM_NAME)
            if same_names(*names):
                raise Refused(400, "web.names_same")
            state = self.hub.state
            if state is None or state.evening is None:  # no evening to name yet (none is saved before a deal)
                raise Refused(409, "web.names_no_evening")
        except Refused as refused:
            return refused.response()
        self.post(Intent(("set_names", *names)))
        return web.json_response({"ok": True}, status=202)

    async def api_pack(self, request: web.Request) -> web.Response:
        """The word pack of the next games, one of ``PACKS`` (a list of the players' own is chosen where the
        table starts, never from a phone); the game on the table keeps its words."""
        try:
            pack = (await self._paired(request)).get("pack")
            if not (type(pack) is str and pack in PACKS):
                raise Refused(400, "web.pack_bad")
            state = self.hub.state
            if state is None or state.word_pack is None:  # the table deals no words: the cards lie on it
                raise Refused(409, "web.pack_closed")
        except Refused as refused:
            return refused.response()
        self.post(Intent(("choose_pack", pack)))
        return web.json_response({"ok": True}, status=202)
