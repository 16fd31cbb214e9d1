"""The web page's server as a phone meets it: real sockets to the running table, every byte read."""

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from rawweb import PATIENCE_S, Clock, RawSocket, post_json, request, running_table  # noqa: E402

from codenames_board.config import parse  # noqa: E402
from codenames_board.engine import Identity, Phase  # noqa: E402
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.record import read_record  # noqa: E402
from codenames_board.cluewords import clue_word_problem  # noqa: E402
from codenames_board.web import pairing as pairing_module  # noqa: E402


@pytest.fixture
def table(tmp_path):
    started = []

    def start(settings="", state=None, words=None, deal=None, pack=None):
        run = running_table(state or tmp_path / "state", settings, words, deal=deal, pack=pack)
        started.append(run)
        return run

    yield start
    for run in started:
        run.stop()


WORDS = [f"WORD{n}" for n in range(25)]


def tiles_of(game, identity):
    return [tile for tile, found in enumerate(game.key) if found is identity and not game.is_revealed(tile)]


def test_a_phone_paired_by_pin_sees_the_key_and_gives_a_clue_that_reaches_the_record_and_the_log(table):
    run = table(words=WORDS)
    public = RawSocket(run.port)
    first = json.loads(public.message())
    assert first["type"] == "state" and first["key"] is None and first["spymasters"] == 0
    assert [tile["word"] for tile in first["tiles"]] == WORDS and all(tile["shown"] is None for tile in first["tiles"])

    cookie = run.pair()
    assert "HttpOnly" in request(run.port, "GET", "/")[1].get("set-cookie", "HttpOnly")
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    assert spymaster.status == 101
    seen = json.loads(spymaster.message())
    assert seen["key"] == run.game.key.letters and seen["clue_entry"] is True
    public.until(lambda m: m["spymasters"] == 1)

    status, _, body = post_json(run.port, "/api/clue", {"word": "river", "count": 2}, cookie=cookie)
    assert (status, body) == (202, {"ok": True})
    run.settle()
    assert run.game.phase is Phase.GUESS and run.game.clue == 2
    given = public.until(lambda m: m["clue"] is not None)
    assert given["clue"] == {"word": "river", "count": 2}
    team = run.game.turn
    agent = tiles_of(run.game, team.identity)[0]
    run.tap(agent)
    logged = public.until(lambda m: m["clues"] and m["clues"][0]["touched"])
    assert logged["clues"] == [{
        "team": team.value, "kind": "clue", "word": "river", "count": 2, "ended": None,
        "touched": [{"tile": agent, "name": logged["clues"][0]["touched"][0]["name"], "word": WORDS[agent],
                     "identity": team.value, "covered": False}],
    }]
    lines = [line for _, line in read_record(run.runtime.table.writer.path).actions]
    assert lines[0].word == "river" and lines[0].count == 2
    text = run.runtime.table.writer.path.read_text()
    assert '"word": "river"' in text


def test_the_public_socket_never_carries_the_key_and_the_spymaster_socket_needs_a_pairing(table):
    run = table()
    public = RawSocket(run.port)
    public.message()
    assert run.game.key.letters.encode() not in public.raw
    refused = RawSocket(run.port, "/ws/spymaster")
    assert refused.status == 403
    forged = RawSocket(run.port, "/ws/spymaster", cookie="cb_session=AAAAAAAAAAAAAAAAAAAAAA")
    assert forged.status == 403


def test_a_wrong_pin_is_refused_and_guessing_is_bounded_for_the_whole_table(table, monkeypatch):
    run = table()
    good = run.runtime.web.pairing.card().pin
    wrong = f"{(int(good) + 1) % 10**6:06d}"
    answers = [post_json(run.port, "/api/pair", {"pin": wrong})[0] for _ in range(pairing_module.FREE_TRIES)]
    assert answers == [403] * pairing_module.FREE_TRIES
    status, _, body = post_json(run.port, "/api/pair", {"pin": good})
    assert status == 429 and body["error"] == "web.pair_wait" and body["seconds"] >= 1  # even the right one waits
    run.runtime.web.pairing.clock = lambda: 10**9  # much later
    assert post_json(run.port, "/api/pair", {"pin": good})[0] == 200


def test_a_million_pin_guesses_take_longer_than_a_game_night():
    clock = Clock()
    pairing = pairing_module.Pairing("http://table", clock=clock)
    allowed, seconds = 0, 12 * 3600
    for _ in range(seconds // 60):  # a guesser trying as fast as allowed, checked each minute
        while True:
            try:
                pairing.pair(pin="-1")
            except pairing_module.PairRefused as refused:
                if refused.msgid == "web.pair_wait":
                    break
                allowed += 1
        clock.now += 60
    assert allowed < 10_000  # a night allows under 1 % of the million PINs
    assert 10**6 * pairing_module.TRY_SECONDS > 12 * 3600


def test_the_token_in_the_qr_code_pairs_and_a_new_game_unpairs_every_phone(table):
    run = table()
    card = run.runtime.web.pairing.card()
    token = card.url.split("#t=")[1]
    assert len(token) >= 22  # 128 bits, url-safe base64
    status, headers, _ = post_json(run.port, "/api/pair", {"token": token})
    assert status == 200
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    cookie = cookie.split(";")[0]
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    spymaster.message()
    run.press("new_game", hold=run.config.controls.new_game_hold_seconds + 0.1)  # nothing played: no question
    assert spymaster.until(lambda m: m["type"] == "unpaired")
    assert spymaster.message() is None  # closed
    assert RawSocket(run.port, "/ws/spymaster", cookie=cookie).status == 403
    assert run.runtime.web.pairing.card().pin != card.pin or run.runtime.web.pairing.card().url != card.url
    assert post_json(run.port, "/api/pair", {"token": token})[0] == 403


def test_undo_held_asks_and_confirm_unpairs_from_the_table(table):
    run = table()
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    spymaster.message()
    run.press("undo", hold=2.1)
    assert run.runtime.table.prompts.question.value == "unpair"
    run.press("clue_confirm")
    assert spymaster.until(lambda m: m["type"] == "unpaired")
    assert post_json(run.port, "/api/clue", {"word": "river", "count": 1}, cookie=cookie)[0] == 403
    run.press("undo")  # a click still asks to undo (nothing to undo yet: no question)
    assert run.runtime.table.prompts.question is None


@pytest.mark.parametrize("body, status, error", [
    ({"word": "river", "count": 10}, 400, "web.clue_bad_count"),
    ({"word": "river", "count": True}, 400, "web.clue_bad_count"),
    ({"word": "river", "count": "2"}, 400, "web.clue_bad_count"),
    ({"word": "two words", "count": 1}, 400, "web.clue_bad_word"),
    ({"word": "", "count": 1}, 400, "web.clue_bad_word"),
    ({"word": "a" * 33, "count": 1}, 400, "web.clue_too_long"),
    ({"word": "x\u0000y", "count": 1}, 400, "web.clue_bad_word"),
    ({"word": "<script>", "count": 1}, 400, "web.clue_bad_word"),
    ({"word": 7, "count": 1}, 400, "web.clue_bad_word"),
    ({"word": "word3", "count": 1}, 400, "web.clue_on_board"),
    ({"word": "Wörd-play", "count": "unlimited"}, 202, None),
])
def test_a_clue_from_a_phone_is_checked_like_any_input(table, body, status, error):
    run = table(words=WORDS)
    cookie = run.pair()
    got, _, answer = post_json(run.port, "/api/clue", body, cookie=cookie)
    assert got == status and (answer.get("error") == error if error else answer == {"ok": True})
    run.settle()
    assert (run.game.phase is Phase.GUESS) == (status == 202)


def test_a_clue_is_refused_without_pairing_outside_the_clue_phase_and_from_another_site(table):
    run = table()
    assert post_json(run.port, "/api/clue", {"word": "river", "count": 1})[0] == 403
    cookie = run.pair()
    assert post_json(run.port, "/api/clue", {"word": "river", "count": 1}, cookie=cookie,
                     Origin="http://elsewhere.example")[0] == 403
    status, _, body, _ = request(run.port, "POST", "/api/clue", b"word=river", {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    assert request(run.port, "GET", "/api/clue?word=river&count=1", headers={"Cookie": cookie})[0] == 405  # no state-changing GET
    assert post_json(run.port, "/api/clue", {"word": "river", "count": 1}, cookie=cookie)[0] == 202
    run.settle()
    assert post_json(run.port, "/api/clue", {"word": "lake", "count": 1}, cookie=cookie)[1:] and \
        post_json(run.port, "/api/clue", {"word": "lake", "count": 1}, cookie=cookie)[0] == 409


def test_only_the_pages_routes_bounded_requests_and_no_server_banner(table):
    run = table()
    status, headers, body, _ = request(run.port, "GET", "/")
    assert status == 200 and "default-src 'self'" in headers["content-security-policy"] and "server" not in headers
    for path in ("/static/", "/static", "/static/../pyproject.toml", "/static/server.py", "/api", "/etc/passwd",
                 "/history/abc", "/web/static/app.js", "/static/%2e%2e/server.py"):
        status, headers, body, _ = request(run.port, "GET", path)
        assert status == 404, path
        assert json.loads(body) == {"error": "web.not_found"} and "content-security-policy" in headers
    assert request(run.port, "PUT", "/")[0] == 405
    assert request(run.port, "GET", "/", headers={"X-Long": "x" * 5000})[0] == 400  # a header too big
    big = json.dumps({"pin": "1" * 5000}).encode()
    assert request(run.port, "POST", "/api/pair", big, {"Content-Type": "application/json"})[0] == 413
    assert post_json(run.port, "/api/pair", ["not", "an", "object"])[0] == 400
    assert post_json(run.port, "/api/pair", {"pin": "12ab56"})[0] == 400


def test_a_socket_message_too_big_ends_that_socket_only(table):
    run = table()
    noisy, quiet = RawSocket(run.port), RawSocket(run.port)
    noisy.message(), quiet.message()
    noisy.send(b"x" * 4096)
    while noisy.message() is not None:
        pass
    run.tap(0)  # no clue yet: refused, but the state is published (a notice)
    assert quiet.message() is not None


def test_a_phone_that_stops_reading_is_dropped_and_the_others_and_the_table_go_on(table):
    run = table(words=[f"{'W' * 2000}{n}" for n in range(25)])  # 50 kB a message: the buffers fill sooner
    server = run.runtime.web.server
    server.hub.behind_bytes, server.hub.send_seconds = 64 * 1024, 0.5
    stuck = RawSocket(run.port, rcvbuf=2048)  # never reads after the handshake
    reader = RawSocket(run.port)
    reader.message()
    for _ in range(200):  # a clue, then taken back: two new states for every page each time
        run.press("clue_confirm")
        reader.until(lambda m: m["phase"] == "guess")
        run.press("undo")
        run.press("clue_confirm")
        reader.until(lambda m: m["phase"] == "clue")
        if len(server.hub.sockets) == 1:
            break
    assert len(server.hub.sockets) == 1, "the stuck socket was never dropped"
    assert stuck.closed or stuck.sock.fileno() >= 0
    run.tap(tiles_of(run.game, Identity.RED)[0])
    assert reader.message() is not None  # the others go on


def test_a_port_in_use_is_one_line_naming_it_and_the_fix(tmp_path, run_cli):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "config.toml"
        config.write_text(f'[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{tmp_path / "s.png"}"\n'
                          f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n')
        result = run_cli("run", "--config", config, env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("INFO ")]  # the log's
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0] and "[web] port" in lines[0]


def test_the_simulator_serves_the_page_on_this_machine_only(table, tmp_path):
    from codenames_board.commands.sim import web_port

    tr = Translator("en")
    assert web_port(tr)("0") == 0 and web_port(tr)("8080") == 8080
    for bad in ("80", "70000", "x", "-1"):
        with pytest.raises(Exception):
            web_port(tr)(bad)


def _record(folder, key, words):
    from codenames_board.record import Header, RecordWriter

    folder.mkdir(parents=True)
    header = Header("classic", key, list(words), "en", None, "2026-11-28T20:00:00Z", {"number": 1})
    RecordWriter.create(folder / "20261128-200000-classic.jsonl", header).close()


def _public_bytes(run, script):
    """Every byte an unpaired client gets over a game: its sockets (one reconnect) and every page and API answer,
    the Date headers aside. ``script(run, public)`` plays the game."""
    import re

    got = []
    public = RawSocket(run.port)
    public.message()
    script(run, public)
    got.append(bytes(public.raw))
    public.close()
    again = RawSocket(run.port)  # a reconnect: the newest state at once
    again.until(lambda m: True)
    got.append(bytes(again.raw))
    for path in ("/", "/spymaster", "/pair", "/history", "/static/app.js", "/static/style.css", "/api/texts",
                 "/api/history", "/api/history/1", "/api/history/2", "/nothing", "/ws/spymaster"):
        got.append(request(run.port, "GET", path)[3])
    got.append(post_json(run.port, "/api/clue", {"word": "lake", "count": 1})[2].__repr__().encode())
    return re.sub(rb"Date: [^\r]*\r\n", b"", b"\n".join(got))


def test_an_unrevealed_tile_never_reaches_an_unpaired_client_in_any_byte(table, tmp_path):
    from codenames_board.engine import Key

    key = Key.generate(26)
    start = key.start
    own = [t for t in range(25) if key[t] is start.identity]
    theirs = [t for t in range(25) if key[t] is start.other.identity]
    bystanders = [t for t in range(25) if key[t] is Identity.BYSTANDER]
    touched = [own[0], own[1], bystanders[0], theirs[0]]
    # The twin: the assassin and an untouched bystander swapped; every touched tile the same.
    assassin = key.identities.index(Identity.ASSASSIN)
    identities = list(key.identities)
    identities[assassin], identities[bystanders[1]] = identities[bystanders[1]], identities[assassin]
    twin = Key(tuple(identities), start)
    assert twin.letters != key.letters and all(twin[t] is key[t] for t in touched)

    def script(run, public):
        other_phone = run.pair()  # someone else pairs: the public page hears only the count
        assert post_json(run.port, "/api/clue", {"word": "river", "count": 2}, cookie=other_phone)[0] == 202
        run.settle()
        for tile in touched[:3]:  # two of the team's agents, then a bystander: the turn ends
            run.tap(tile)
        run.press("clue_confirm")  # the other team's clue by the buttons: 1
        run.tap(touched[3])
        run.press("undo")
        run.press("clue_confirm")  # that touch taken back
        run.press("undo", hold=2.1)
        run.press("clue_confirm")  # unpaired from the table
        public.until(lambda m: m["spymasters"] == 0 and m["phase"] == "guess" and len(m["clues"]) == 2)

    seen = []
    for name, which in (("one", key), ("two", twin)):
        _record(tmp_path / name / "games", which, WORDS)
        run = table(state=tmp_path / name)
        assert run.game.key.letters == which.letters
        seen.append(_public_bytes(run, script))
        assert not run.game.is_over
        run.stop()
    if seen[0] != seen[1]:
        at = next(i for i, (a, b) in enumerate(zip(*seen)) if a != b)
        raise AssertionError(f"the bytes differ: {seen[0][at - 300:at + 100]!r} / {seen[1][at - 300:at + 100]!r}")
    assert key.letters.encode() not in seen[0]


def test_the_words_on_the_cards_are_typed_in_once_from_a_paired_phone_and_kept_in_the_record(table, tmp_path):
    run = table()  # the table deals no words: the page shows the tiles' names
    public = RawSocket(run.port)
    assert all(tile["word"] is None for tile in json.loads(public.message())["tiles"])
    words = [f"Karte{n}" for n in range(25)]
    assert post_json(run.port, "/api/words", {"words": words})[0] == 403  # not paired
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    assert json.loads(spymaster.message())["words_entry"] is True
    for bad, error in ((words[:24], "web.words_bad"), (words[:24] + ["karte3"], "web.words_twice"),
                       (words[:24] + [""], "web.words_bad"), (words[:24] + ["x" * 25], "web.words_bad"),
                       (words[:24] + ["a\u0007b"], "web.words_bad"), ("not a list", "web.words_bad")):
        status, _, body = post_json(run.port, "/api/words", {"words": bad}, cookie=cookie)
        assert (status, body["error"]) == (400, error)
    status, _, _ = post_json(run.port, "/api/words", {"words": [f" {word} " for word in words]}, cookie=cookie)
    assert status == 202
    run.settle()
    shown = public.until(lambda m: m["tiles"][0]["word"] is not None)
    assert [tile["word"] for tile in shown["tiles"]] == words
    assert spymaster.until(lambda m: m["words_entry"] is False)
    assert post_json(run.port, "/api/words", {"words": words}, cookie=cookie)[0] == 409  # once
    path = run.runtime.table.writer.path
    assert read_record(path).header.words == words
    # A clue word may not be one of them now.
    assert post_json(run.port, "/api/clue", {"word": "KARTE7", "count": 1}, cookie=cookie)[2]["error"] == "web.clue_on_board"
    run.stop()
    again = table(state=tmp_path / "state")  # resumed: the words with it
    assert again.runtime.table.words == words


def test_words_the_disk_refuses_leave_the_record_as_it_was_and_say_so(table, monkeypatch):
    from codenames_board.record import writer as writer_module

    run = table()
    cookie = run.pair()
    path = run.runtime.table.writer.path
    before = path.read_bytes()

    def refuse(path, content):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer_module, "rewrite", refuse)
    assert post_json(run.port, "/api/words", {"words": [f"w{n}" for n in range(25)]}, cookie=cookie)[0] == 202
    run.settle()
    assert run.runtime.table.words is None and path.read_bytes() == before
    assert [n.msgid for n in run.runtime.table.prompts.notices] == ["notice.record_words_unsaved"]
    monkeypatch.undo()
    run.tap(0)  # the game goes on, recorded as before
    run.press("clue_confirm")
    run.tap(0)
    assert len(read_record(path).actions) == 2


def test_a_paired_phone_redeals_a_word_before_the_first_clue_and_every_page_shows_it(table):
    from codenames_board.deal import Deal
    from codenames_board.redeal import MAX_REDEALS

    run = table(deal=Deal(5, [f"card{n}" for n in range(80)]))
    public = RawSocket(run.port)
    before = [tile["word"] for tile in json.loads(public.message())["tiles"]]
    assert post_json(run.port, "/api/redeal", {"tile": 4})[2]["error"] == "web.not_paired"
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    assert json.loads(spymaster.message())["redeals_left"] == MAX_REDEALS
    assert post_json(run.port, "/api/redeal", {"tile": 4}, cookie=cookie, Origin="http://elsewhere.example")[0] == 403
    status, _, _, _ = request(run.port, "POST", "/api/redeal", b"tile=4", {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    for bad in (25, -1, "4", 4.0, True, None, [4], 10**30):
        status, _, body = post_json(run.port, "/api/redeal", {"tile": bad}, cookie=cookie)
        assert (status, body["error"]) == (400, "web.redeal_bad_tile"), bad
    assert post_json(run.port, "/api/redeal", {"tiles": 4}, cookie=cookie)[0] == 400
    assert post_json(run.port, "/api/redeal", {"tile": 4}, cookie=cookie)[:3:2] == (202, {"ok": True})
    run.settle()
    shown = public.until(lambda m: m["tiles"][4]["word"] != before[4])
    words = [tile["word"] for tile in shown["tiles"]]
    assert words[4] not in before and words[:4] + words[5:] == before[:4] + before[5:]
    assert spymaster.until(lambda m: m["redeals_left"] == MAX_REDEALS - 1)["tiles"][4]["word"] == words[4]
    assert read_record(run.runtime.table.writer.path).header.words == words
    assert post_json(run.port, "/api/clue", {"word": "river", "count": 1}, cookie=cookie)[0] == 202
    run.settle()
    assert spymaster.until(lambda m: m["phase"] == "guess")["redeals_left"] == 0
    status, _, body = post_json(run.port, "/api/redeal", {"tile": 5}, cookie=cookie)
    assert (status, body["error"]) == (409, "web.redeal_closed")
    run.settle()
    assert run.runtime.table.words == words


def test_a_table_whose_cards_lie_on_it_redeals_nothing(table):
    run = table(words=WORDS)  # dealt, but from no list the table can deal another from
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    assert json.loads(spymaster.message())["redeals_left"] == 0
    status, _, body = post_json(run.port, "/api/redeal", {"tile": 0}, cookie=cookie)
    assert (status, body["error"]) == (409, "web.redeal_closed")


def test_a_sandbox_that_gives_no_network_socket_is_said_in_one_line_not_a_crash(tmp_path, monkeypatch):
    from aiohttp import web

    from codenames_board.web import CannotListen, Web

    async def start_nothing(self):  # what asyncio does where the address family is refused: no socket, no error
        return None

    monkeypatch.setattr(web.TCPSite, "start", start_nothing)
    config = parse('[web]\nenabled = true\naddress = "127.0.0.1"\nport = 0\n')
    page = Web(config.web, Translator("en"), tmp_path, lambda event: None)
    with pytest.raises(CannotListen) as refused:
        page.start()
    assert "127.0.0.1:0" in str(refused.value)
    page.close()


def test_stopping_the_table_cuts_the_pages_sockets_and_ends_the_servers_thread(table):
    run = table()
    pages = [RawSocket(run.port) for _ in range(3)]
    for page in pages:
        page.message()
    server = run.runtime.web.server
    run.stop()
    assert not server._thread.is_alive()  # not left waiting on the sockets' handlers
    for page in pages:
        with pytest.raises(ConnectionError):
            while page.message() is not None:
                pass


def test_one_guesser_cannot_lock_the_others_out_and_many_addresses_are_bounded_together():
    clock = Clock()
    pairing = pairing_module.Pairing("http://table", clock=clock)
    good = pairing.card().pin
    wrong = f"{(int(good) + 1) % 10**6:06d}"
    for _ in range(pairing_module.FREE_TRIES):
        with pytest.raises(pairing_module.PairRefused):
            pairing.pair(pin=wrong, address="10.0.0.66")
    with pytest.raises(pairing_module.PairRefused) as waited:
        pairing.pair(pin=good, address="10.0.0.66")
    assert waited.value.msgid == "web.pair_wait"
    assert pairing.pair(pin=good, address="10.0.0.7")  # the spymaster's phone still pairs
    refused = set()
    for n in range(200):  # a guesser with many addresses: the table's own bound
        try:
            pairing.pair(pin=wrong, address=f"10.1.{n // 250}.{n % 250}")
        except pairing_module.PairRefused as why:
            refused.add(why.msgid)
    assert "web.pair_wait" in refused
    night = 12 * 3600
    assert night / pairing_module.TABLE_TRY_SECONDS < 0.015 * 10**6  # at most 1.5 % of the PINs a night


def test_a_request_for_another_host_name_and_a_socket_from_another_site_are_refused(table):
    run = table()
    assert request(run.port, "GET", "/", headers={"Host": "evil.example"})[0] == 421  # a name pointed at the table
    for host in ("127.0.0.1", "localhost:1", "[::1]:8080", "raspberrypi.local:8080", "192.168.1.20:8080"):
        assert request(run.port, "GET", "/api/texts", headers={"Host": host})[0] == 200, host
    sock = socket_with_origin(run.port, "http://evil.example")
    assert sock.startswith(b"HTTP/1.1 403")
    assert socket_with_origin(run.port, f"http://127.0.0.1:{run.port}").startswith(b"HTTP/1.1 101")


def socket_with_origin(port, origin):
    import socket as sockets

    with sockets.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: Y29kZW5hbWVzLWJvYXJkIQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode())
        return sock.recv(4096)


def test_one_address_cannot_take_every_socket_and_connection(table, monkeypatch):
    from codenames_board.web import hub, server

    monkeypatch.setattr(hub, "loopback", lambda address: False)  # this machine's address counted as a phone's
    monkeypatch.setattr(server, "loopback", lambda address: False)
    run = table()
    pages = [RawSocket(run.port) for _ in range(hub.ADDRESS_SOCKETS)]
    assert all(page.status == 101 for page in pages)
    assert RawSocket(run.port).status == 503
    import socket as sockets

    held = [sockets.create_connection(("127.0.0.1", run.port)) for _ in range(server.ADDRESS_CONNECTIONS)]
    run.settle()
    answer = b""
    try:  # cut at once: a reset, or a close before any answer (which of the two is the kernel's race)
        with sockets.create_connection(("127.0.0.1", run.port), timeout=PATIENCE_S) as sock:
            sock.sendall(f"GET /api/texts HTTP/1.1\r\nHost: 127.0.0.1:{run.port}\r\nConnection: close\r\n\r\n".encode())
            while chunk := sock.recv(65536):
                answer += chunk
    except ConnectionError:
        pass
    assert answer == b""  # the connection over the bound got no page
    for sock in held:
        sock.close()


def test_a_copied_session_cookie_shows_as_another_phone(table):
    run = table()
    cookie = run.pair()
    public = RawSocket(run.port)
    public.until(lambda m: m["spymasters"] == 1)
    first, copy = RawSocket(run.port, "/ws/spymaster", cookie=cookie), RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    first.message(), copy.message()
    run.tap(0)  # a new state: the counts anew
    assert public.until(lambda m: m["spymasters"] == 2)


def test_a_body_that_never_comes_does_not_hold_the_connection(table, monkeypatch):
    from codenames_board.web import api

    monkeypatch.setattr(api, "BODY_SECONDS", 0.3)
    run = table()
    import socket as sockets

    with sockets.create_connection(("127.0.0.1", run.port), timeout=30) as sock:
        sock.sendall(f"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1:{run.port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 900\r\n\r\n{{".encode())
        assert sock.recv(4096).startswith(b"HTTP/1.1 408")


def test_a_full_width_board_word_is_still_on_the_board():
    assert clue_word_problem("\uff37\uff2f\uff32\uff24\uff13", ["WORD3"] + ["x"] * 24) == "web.clue_on_board"


def test_a_paired_phone_names_the_teams_for_tonight_and_every_page_shows_them(table):
    """Hostile names are refused whole; a zero-width joiner or a direction mark (category Cf) is refused too,
    not stripped: a name that looks the same as another but is not would confuse the tally."""
    from codenames_board.evening import read_evening

    run = table()
    evening = run.runtime.table.evening
    public = RawSocket(run.port)
    first = json.loads(public.message())["evening"]
    assert first["names"] == {"red": "Red", "blue": "Blue"} and first["given"] == {"red": "", "blue": ""}
    owls = {"red": "Owls", "blue": "Foxes"}
    status, _, body = post_json(run.port, "/api/names", owls)
    assert (status, body["error"]) == (403, "web.not_paired")
    cookie = run.pair()
    assert post_json(run.port, "/api/names", owls, cookie=cookie, Origin="http://elsewhere.example")[0] == 403
    form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    assert request(run.port, "POST", "/api/names", b"red=Owls&blue=Foxes", form)[0] == 415
    assert request(run.port, "GET", "/api/names?red=Owls&blue=Foxes", headers={"Cookie": cookie})[0] == 405
    assert post_json(run.port, "/api/names", ["Owls", "Foxes"], cookie=cookie)[0] == 400
    for same in ({"red": "Owls", "blue": "owls"}, {"red": "Owls", "blue": "ＯＷＬＳ"}):  # the room could not tell them apart
        status, _, body = post_json(run.port, "/api/names", same, cookie=cookie)
        assert (status, body["error"]) == (400, "web.names_same")
    for missing in ({}, {"red": "Owls"}, {"blue": "Foxes"}, {"Red": "Owls", "Blue": "Foxes"}):
        status, _, body = post_json(run.port, "/api/names", missing, cookie=cookie)
        assert status == 400 and body["error"] == "web.names_bad", missing
    for bad in (7, 1.5, True, None, ["Owls"], {"name": "Owls"}, "x" * 17, "Owls\u0000", "Ow\u001bls", "Ow\u007fls",
                "Owls\u200d", "\u200bOwls", "Owls\u200f", "\u202eslwO", "\ufeffOwls", "\U0001f468\u200d\U0001f469",
                "\ud800", "x" * 4000):
        status, _, body = post_json(run.port, "/api/names", {"red": "Owls", "blue": bad}, cookie=cookie)
        assert (status, body) == (400, {"error": "web.names_bad", "team": "blue", "most": 16}), repr(bad)[:40]
    assert post_json(run.port, "/api/names", {"red": "x" * 4096, "blue": ""}, cookie=cookie)[0] == 413
    run.settle()
    assert evening.names == ("", "")  # nothing refused reached the table

    rtl = "\u05d9\u05e0\u05e9\u05d5\u05e4\u05d9\u05dd"  # Hebrew letters (category Lo): a name like any other
    typed = {"red": "  Night \t Owls ", "blue": rtl}
    assert post_json(run.port, "/api/names", typed, cookie=cookie)[:3:2] == (202, {"ok": True})
    run.settle()
    shown = public.until(lambda m: m["evening"]["given"]["red"] != "")["evening"]
    assert shown["names"] == {"red": "Night Owls", "blue": rtl} == shown["given"]
    assert read_evening(run.runtime.table.games_dir)[1] == ("Night Owls", rtl)
    for fitting, kept in (("x" * 16, "x" * 16), ("\uff2f\uff37\uff2c\uff33", "OWLS"), ("\U0001f989", "\U0001f989")):
        assert post_json(run.port, "/api/names", {"red": fitting, "blue": ""}, cookie=cookie)[0] == 202
        run.settle()
        assert evening.names == (kept, "")  # 16 characters; full width letters as NFKC has them; an owl
    assert post_json(run.port, "/api/names", {"red": "   ", "blue": "Foxes"}, cookie=cookie)[0] == 202  # only spaces: ""
    run.settle()
    shown = public.until(lambda m: m["evening"]["given"] == {"red": "", "blue": "Foxes"})["evening"]
    assert shown["names"] == {"red": "Red", "blue": "Foxes"}  # the colour's name again


def test_names_wait_for_an_evening(table):
    import dataclasses

    run = table()
    cookie = run.pair()
    hub = run.runtime.web.server.hub
    hub.state = dataclasses.replace(hub.state, evening=None)  # a table with no evening yet (the table is idle)
    status, _, body = post_json(run.port, "/api/names", {"red": "Owls", "blue": "Foxes"}, cookie=cookie)
    assert (status, body["error"]) == (409, "web.names_no_evening")
    run.settle()
    assert run.runtime.table.evening.names == ("", "")


def test_a_paired_phone_chooses_the_next_games_word_pack_and_a_hostile_body_changes_nothing(table):
    from codenames_board.deal import Deal
    from codenames_board.words import PACKS, pack_words

    run = table(deal=Deal(5, pack_words("en", "standard")), pack="standard")
    public = RawSocket(run.port)
    assert "pack" not in json.loads(public.message())  # the next games' words: the spymasters' business
    status, _, body = post_json(run.port, "/api/pack", {"pack": "hard"})
    assert (status, body["error"]) == (403, "web.not_paired")
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    first = json.loads(spymaster.message())
    assert (first["pack"], first["packs"]) == ("standard", list(PACKS))
    assert post_json(run.port, "/api/pack", {"pack": "hard"}, cookie=cookie, Origin="http://elsewhere.example")[0] == 403
    form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    assert request(run.port, "POST", "/api/pack", b"pack=hard", form)[0] == 415
    assert request(run.port, "GET", "/api/pack?pack=hard", headers={"Cookie": cookie})[0] == 405
    raw = {"Cookie": cookie, "Content-Type": "application/json", "Origin": f"http://127.0.0.1:{run.port}"}
    assert request(run.port, "POST", "/api/pack", b'{"pack": "hard\x00"}', raw)[0] == 400  # a raw NUL: not JSON
    assert post_json(run.port, "/api/pack", ["hard"], cookie=cookie)[0] == 400
    for bad in ({}, {"name": "hard"}, {"pack": None}, {"pack": 2}, {"pack": 1.5}, {"pack": True}, {"pack": ["hard"]},
                {"pack": {"hard": 1}}, {"pack": ""}, {"pack": "HARD"}, {"pack": " hard"}, {"pack": "file"},
                {"pack": "../en"}, {"pack": "en/hard"}, {"pack": "hard\u0000"}, {"pack": "x" * 4000}):
        status, _, body = post_json(run.port, "/api/pack", bad, cookie=cookie)
        assert (status, body) == (400, {"error": "web.pack_bad"}), repr(bad)[:40]
    assert post_json(run.port, "/api/pack", {"pack": "x" * 4096}, cookie=cookie)[0] == 413
    run.settle()
    assert run.runtime.table.word_pack == "standard"  # nothing refused reached the table

    words = list(run.runtime.table.words)
    assert post_json(run.port, "/api/pack", {"pack": "hard"}, cookie=cookie)[:3:2] == (202, {"ok": True})
    run.settle()
    assert spymaster.until(lambda m: m["pack"] == "hard")["packs"] == list(PACKS)
    said = public.until(lambda m: m["notices"])["notices"]
    assert "The next game deals its words from the hard pack." in said
    assert run.runtime.table.words == words  # the game on the table keeps its words
    run.press("new_game", hold=run.config.controls.new_game_hold_seconds + 0.1)  # nothing played: no question
    hard = set(pack_words("en", "hard"))
    assert run.runtime.table.words != words and set(run.runtime.table.words) <= hard


def test_a_table_whose_cards_lie_on_it_has_no_pack_to_choose(table):
    run = table(words=WORDS)
    cookie = run.pair()
    spymaster = RawSocket(run.port, "/ws/spymaster", cookie=cookie)
    seen = json.loads(spymaster.message())
    assert (seen["pack"], seen["packs"]) == (None, [])
    status, _, body = post_json(run.port, "/api/pack", {"pack": "hard"}, cookie=cookie)
    assert (status, body) == (409, {"error": "web.pack_closed"})
    assert post_json(run.port, "/api/pack", {"pack": "file"}, cookie=cookie)[2] == {"error": "web.pack_bad"}
