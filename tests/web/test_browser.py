"""The table's web page in a real browser: Debian's Chromium (the "chromium" package), driven by
Playwright for Python, against the whole runtime. Playwright's own browser download is never used.

Each test starts the table (mock pins, the virtual tile board, the page on 127.0.0.1) and opens
the page as a phone (390x844, touch) or a TV (1920x1080) would. One Chromium for the module.

The README's screenshots (tests/web/reference/) are taken on every run into a temporary folder;
they are rewritten only when asked:
    CODENAMES_WEB_SHOTS=1 .venv/bin/python -m pytest tests/web/test_browser.py -q -k screenshots
The touch-to-page figures are printed (``-s`` shows them); a test never asserts a timing.
"""

import json
import math
import os
import re
import socket
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from needs import chromium  # noqa: E402
from patience import PATIENCE_S  # noqa: E402
from rawweb import RawSocket, post_json, running_table  # noqa: E402
from screenpin import read_pin  # noqa: E402

from codenames_board.display import PngOutput, SpymasterScreen  # noqa: E402
from codenames_board.display.pngfile import png_bytes  # noqa: E402
from codenames_board.engine import Identity, tile_name  # noqa: E402
from codenames_board.i18n import Translator  # noqa: E402
from codenames_board.record import read_record  # noqa: E402

REFERENCE = Path(__file__).parent / "reference"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
IDENTITY_NAMES = {Identity.RED: "red", Identity.BLUE: "blue", Identity.BYSTANDER: "bystander", Identity.ASSASSIN: "assassin"}
WORDS = [
    "APPLE", "BANK", "BRIDGE", "CASTLE", "CIRCLE", "COTTON", "DRAGON", "ENGINE", "FOREST", "GLASS", "HAMMER", "ISLAND",
    "JUPITER", "KNIGHT", "LEMON", "MARKET", "NEEDLE", "OCTOPUS", "PIANO", "QUEEN", "ROCKET", "SATURN", "TORCH",
    "VOLCANO", "WHALE",
]
tr = Translator("en")


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def expect(browser):
    """Playwright's ``expect``: it waits until what it checks holds (up to PATIENCE_S)."""
    from playwright.sync_api import expect as waiting

    waiting.set_options(timeout=PATIENCE_S * 1000)
    return waiting


class Pages:
    """Browser contexts (a phone, a TV) opened on one table; every script error on their pages is kept."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []
        self.base = ""

    def open(self, path: str, device: dict = PHONE, context=None, before=None):
        """A new page at ``path``, in ``context`` or a new one for ``device``; ``before(page)`` runs before it loads."""
        if context is None:
            context = self.browser.new_context(**device, device_scale_factor=1, locale="en-US")
            context.set_default_timeout(PATIENCE_S * 1000)
            self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        if before is not None:
            before(page)
        page.goto(self.base + path)
        return page

    def close(self) -> None:
        while self.contexts:
            self.contexts.pop().close()


@pytest.fixture
def pages(browser):
    opened = Pages(browser)
    yield opened
    opened.close()
    assert opened.errors == []  # no page threw a script error


@pytest.fixture
def table(tmp_path, pages):
    started = []

    def start(**options):
        run = running_table(tmp_path / "state", **options)
        started.append(run)
        pages.base = f"http://127.0.0.1:{run.port}"
        return run

    yield start
    pages.close()  # the pages first: the server's close waits on sockets still open (up to 5 s)
    for run in started:
        run.stop()


def unrevealed(game, identity):
    return [tile for tile, found in enumerate(game.key) if found is identity and not game.is_revealed(tile)]


def board_shown(page):
    """The board has its first state from the table (the page says "connecting" until then)."""
    page.wait_for_selector("main.layout:not(.empty)")


def tile_classes(page) -> list[str]:
    return page.eval_on_selector_all("ol.grid > li", "tiles => tiles.map((tile) => tile.className)")


def test_a_touch_on_the_tile_board_shows_on_a_phones_public_page(table, pages, expect):
    run = table()
    page = pages.open("/")
    board_shown(page)
    team = run.game.turn
    tile = unrevealed(run.game, team.identity)[0]
    element = page.locator("ol.grid > li").nth(tile)
    assert not re.search(r"\bid-", tile_classes(page)[tile])
    run.press("clue_confirm")  # the dial's 1
    expect(page.locator(".hero .clue-count")).to_have_text("1")
    run.tap(tile)
    expect(element).to_have_class(re.compile(rf"\bid-{team.value}\b"))
    expect(element).to_have_class(re.compile(r"\bshown\b"))
    expect(element.locator(".mark")).to_have_text(tr(f"web.letter_{team.value}"))
    expect(page.locator(".agents .team-" + team.value + " .agent-count")).to_have_text(str(run.game.remaining(team)))


def test_the_grid_names_each_tile_as_the_table_and_the_clue_log_do(table, pages):
    table(words=WORDS)
    page = pages.open("/")
    board_shown(page)
    names = page.eval_on_selector_all("ol.grid > li .tile-name", "names => names.map((name) => name.textContent)")
    assert names == [tile_name(tile) for tile in range(25)]


def test_a_spymaster_pairs_by_the_pin_on_the_hooded_display_sees_the_key_and_gives_the_clue(table, pages, tmp_path, expect):
    """The PIN is read from the hooded display's picture (a PngOutput): its digits matched against the
    display's own font at its layout's sizes (tests/screenpin.py), not from the table's state."""
    picture = tmp_path / "spymaster.png"
    run = table(words=WORDS, display=SpymasterScreen(PngOutput(picture, (480, 320)), tr))
    pin = read_pin(picture)
    assert pin is not None and pin == run.runtime.web.pairing.card().pin
    board = pages.open("/")
    board_shown(board)
    expect(board.locator(".phones")).to_have_text(tr("web.spymasters", count=0))

    phone = pages.open("/pair")
    phone.fill("#pin", pin)
    phone.click("form.pair-form button.send")
    phone.wait_for_url("**/spymaster")
    expect(phone.locator("ol.grid.keyed > li.tile")).to_have_count(25)
    expect(phone.locator("ol.grid.keyed")).not_to_have_class(re.compile(r"\brotated\b"))
    letters = run.game.key.letters
    expect(phone.locator("ol.grid.keyed > li .mark")).to_have_text(list(letters))  # R, B, N, A as in English
    for tile, found in enumerate(run.game.key):
        expect(phone.locator("ol.grid.keyed > li").nth(tile)).to_have_class(re.compile(rf"\bid-{IDENTITY_NAMES[found]}\b"))
    expect(board.locator(".phones")).to_have_text(tr("web.spymasters", count=1))  # nobody pairs in secret

    phone.fill("#clue-word", "river")
    phone.locator("label.count", has=phone.locator("input[value='2']")).click()
    send = phone.locator(".clue-form button.send")
    expect(send).to_have_text(tr("web.clue_send_preview", word="RIVER", count=2))
    send.click()
    expect(phone.locator(".clue-form .form-message")).to_have_text(tr("web.clue_sent"))

    expect(board.locator(".hero .clue-word")).to_have_text("river")
    expect(board.locator(".hero .clue-count")).to_have_text("2")
    expect(board.locator(".log-entry .log-word")).to_have_text(["river"])
    expect(board.locator(".log-entry .log-count")).to_have_text(["2"])
    run.settle()
    clues = [line for _, line in read_record(run.runtime.table.writer.path).actions]
    assert (clues[0].word, clues[0].count) == ("river", 2)


def test_a_paired_phone_deals_a_disliked_word_again_and_the_public_board_shows_it(table, pages, expect):
    from codenames_board.deal import Deal

    run = table(deal=Deal(3, WORDS + ["ZEBRA", "YACHT", "WIZARD", "VIOLIN", "UNICORN"]))
    board = pages.open("/")
    board_shown(board)
    phone = pages.open("/pair")
    phone.fill("#pin", run.runtime.web.pairing.card().pin)
    phone.click("form.pair-form button.send")
    phone.wait_for_url("**/spymaster")
    old = run.runtime.table.words[6]
    phone.click(".redeal-form summary")
    phone.select_option("#redeal-tile", "6")
    phone.click(".redeal-form button.send")
    expect(phone.locator(".redeal-form .form-message")).to_have_text(tr("web.redeal_sent"))
    run.settle()
    new = run.runtime.table.words[6]
    assert new != old
    expect(board.locator("ol.grid > li .tile-word").nth(6)).to_have_text(re.compile(new, re.I))
    expect(phone.locator(".redeal-form .form-hint")).to_have_text(tr("web.redeal_hint", left=4))


def test_a_wrong_pin_is_refused_and_after_five_the_page_says_to_wait(table, pages, expect):
    run = table()
    pairing = run.runtime.web.pairing
    still = time.monotonic()
    pairing.clock = lambda: still  # no try comes back while the test types, however slow the machine
    wrong = f"{(int(pairing.card().pin) + 1) % 10**6:06d}"
    page = pages.open("/pair")
    message = page.locator(".form-message")
    button = page.locator("form.pair-form button.send")
    for _ in range(5):
        page.fill("#pin", wrong)
        with page.expect_response("**/api/pair") as answer:
            button.click()
        assert answer.value.status == 403
        expect(message).to_have_text(tr("web.pair_wrong"))
        expect(button).to_be_enabled()
    page.fill("#pin", wrong)
    with page.expect_response("**/api/pair") as answer:
        button.click()
    assert answer.value.status == 429
    waiting = re.escape(tr("web.pair_wait", seconds="SECONDS")).replace("SECONDS", r"\d+")
    expect(message).to_have_text(re.compile(waiting))
    expect(button).to_be_disabled()
    assert page.url.endswith("/pair")


def identities_named(message: dict) -> dict[int, str]:
    """Every tile a public message names an identity for: the grid's shown tiles and the clue log's touches."""
    named = {tile: found["shown"] for tile, found in enumerate(message["tiles"]) if found["shown"] is not None}
    for clue in message["clues"]:
        for touch in clue["touched"]:
            named[touch["tile"]] = touch["identity"]
    return named


def test_the_public_page_never_holds_a_key_colour_for_an_unrevealed_tile(table, pages, expect):
    run = table(words=WORDS)
    frames = []

    def listen(page):
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append((ws.url, payload))))

    page = pages.open("/", before=listen)
    board_shown(page)
    order: list[int] = []  # the tiles revealed, in the order they were

    def touch(tile):
        run.tap(tile)
        order.extend(found for found in range(25) if run.game.is_revealed(found) and found not in order)

    first, key = run.game.turn, run.game.key
    run.press("clue_confirm")
    touch(unrevealed(run.game, first.identity)[0])
    touch(unrevealed(run.game, Identity.BYSTANDER)[0])  # the turn ends
    cookie = run.pair()  # someone else pairs and gives the next clue: nothing of it reaches this page
    assert post_json(run.port, "/api/clue", {"word": "ocean", "count": 1}, cookie=cookie)[0] == 202
    run.settle()
    page.reload()  # a reconnect: a new socket, the newest state first
    board_shown(page)
    touch(unrevealed(run.game, first.other.identity)[0])
    touch(unrevealed(run.game, first.identity)[0])  # the other team's agent: the turn ends
    run.press("clue_confirm")
    assert len(order) == 4
    expect(page.locator("ol.grid > li").nth(order[-1])).to_have_class(re.compile(r"\bshown\b"))
    for tile, classes in enumerate(tile_classes(page)):
        assert bool(re.search(r"\bid-", classes)) == (tile in order), (tile, classes)

    touch(unrevealed(run.game, Identity.ASSASSIN)[0])
    assert run.game.outcome is not None
    expect(page.locator("body")).to_have_class(re.compile(r"\bgame-over\b"))
    deadline = time.monotonic() + PATIENCE_S
    while not any(json.loads(payload)["outcome"] for _, payload in frames) and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # the last frame's event may reach Python just after the page drew it

    assert {url.split("/", 3)[3] for url, _ in frames} == {"ws"}
    assert len(frames) >= 6
    seen = 0  # how many reveals the frames so far have shown: it never goes back, never runs ahead
    for _, payload in frames:
        message = json.loads(payload)
        assert message["type"] == "state"
        named = identities_named(message)
        if message["outcome"] is None:
            assert message["key"] is None
            revealed = len(named)
            assert set(named) == set(order[:revealed]) and revealed >= seen, (named, order)
            assert all(name == IDENTITY_NAMES[key[tile]] for tile, name in named.items())
            seen = revealed
        else:
            assert message["key"] == key.letters and set(named) == set(order)
    assert json.loads(frames[-1][1])["outcome"] is not None
    assert all(re.search(r"\bid-", classes) for classes in tile_classes(page))  # the whole key, now the game is over


def non_blank(path: Path, size: tuple[int, int]) -> None:
    picture = pygame.image.load(str(path))
    assert picture.get_size() == size
    colours = {tuple(picture.get_at((x, y))) for x in range(0, size[0], 7) for y in range(0, size[1], 7)}
    assert len(colours) > 16, path  # a page, not an empty window


def small_png(path: Path) -> bytes:
    """The screenshot for the repository: 6 bits a colour channel (no eye sees the difference; runs of
    equal bytes get longer) and zlib's best, a third of Chromium's file (the TV's 290 kB: 130 kB)."""
    picture = pygame.image.load(str(path))
    six_bits = pygame.image.tostring(picture, "RGB").translate(bytes(value & 0xFC for value in range(256)))
    return png_bytes(pygame.image.fromstring(six_bits, picture.get_size(), "RGB"), level=9)


def screenshot(page, folder: Path, name: str) -> None:
    """``name`` (its size before ".png") into ``folder``; into the reference folder too when asked."""
    path = folder / name
    page.screenshot(path=str(path), animations="disabled", caret="hide")
    non_blank(path, tuple(int(part) for part in name[:-4].rsplit("-", 1)[1].split("x")))
    if os.environ.get("CODENAMES_WEB_SHOTS") == "1":
        REFERENCE.mkdir(exist_ok=True)
        (REFERENCE / name).write_bytes(small_png(path))


def test_screenshots_of_the_pages_at_phone_and_tv_sizes(table, pages, tmp_path, expect):
    run = table(words=WORDS, seed=7)
    cookie = run.pair()
    first = run.game.turn
    assert post_json(run.port, "/api/clue", {"word": "orbit", "count": 2}, cookie=cookie)[0] == 202
    run.settle()
    for tile in unrevealed(run.game, first.identity)[:2] + unrevealed(run.game, Identity.BYSTANDER)[:1]:
        run.tap(tile)
    assert post_json(run.port, "/api/clue", {"word": "harbour", "count": 3}, cookie=cookie)[0] == 202
    run.settle()
    run.tap(unrevealed(run.game, first.other.identity)[0])

    def shoot(page, name):
        screenshot(page, tmp_path, name)

    for path, device, name in (("/", PHONE, "board-phone-390x844.png"), ("/?tv=1", TV, "board-tv-1920x1080.png")):
        page = pages.open(path, device)
        board_shown(page)
        expect(page.locator(".log-entry")).to_have_count(2)
        expect(page.locator(".hero .clue-word")).to_have_text("harbour")
        shoot(page, name)

    run.tap(unrevealed(run.game, first.identity)[0])  # the wrong team's agent: the next clue is the first team's
    name, value = cookie.split("=", 1)
    spymaster_context = pages.browser.new_context(**PHONE, device_scale_factor=1, locale="en-US")
    pages.contexts.append(spymaster_context)
    spymaster_context.add_cookies([{"name": name, "value": value, "url": pages.base}])
    spymaster = pages.open("/spymaster", context=spymaster_context)
    expect(spymaster.locator(".clue-form.open")).to_have_count(1)
    spymaster.fill("#clue-word", "moon")
    spymaster.locator("label.count", has=spymaster.locator("input[value='1']")).click()
    shoot(spymaster, "spymaster-phone-390x844.png")
    pair = pages.open("/pair")
    expect(pair.locator("#pin")).to_be_focused()
    shoot(pair, "pair-phone-390x844.png")


def two_games(run) -> None:
    """Tonight 1 : 1: the first game lost on the assassin by the team to start, the second by the other
    (the same key each game with a seed); the third game dealt."""
    for game in range(2):
        run.press("clue_confirm")
        if game == 1:  # a bystander: the turn passes, and the other team touches the assassin
            run.tap(unrevealed(run.game, Identity.BYSTANDER)[0])
            run.press("clue_confirm")
        run.tap(unrevealed(run.game, Identity.ASSASSIN)[0])
        assert run.game.outcome is not None
        run.press("new_game", hold=run.config.controls.new_game_hold_seconds + 0.1)
    assert run.game.outcome is None and run.runtime.table.evening.tally(None, None).wins == (1, 1)


def pair_phone(pages, run):
    phone = pages.open("/pair")
    phone.fill("#pin", run.runtime.web.pairing.card().pin)
    phone.click("form.pair-form button.send")
    phone.wait_for_url("**/spymaster")
    return phone


def test_a_paired_phone_names_the_teams_and_every_page_shows_tonights_score(table, pages, expect):
    run = table(words=WORDS, seed=7)
    two_games(run)
    board = pages.open("/")
    board_shown(board)
    score = board.locator(".evening")
    expect(score.locator(".evening-wins")).to_have_text("1 : 1")
    expect(score.locator(".evening-team")).to_have_text(["Red", "Blue"])
    expect(score.locator(".evening-duo")).to_be_hidden()  # no duo game tonight
    phone = pair_phone(pages, run)
    form = phone.locator(".names-form")
    form.locator("summary").click()
    expect(phone.locator("#name-red")).to_have_value("")
    expect(phone.locator("#name-red")).to_have_attribute("placeholder", "Red")
    phone.fill("#name-blue", "Fox\u200des")  # a zero-width joiner: refused, and said beside the form
    form.locator("button.send").click()
    expect(form.locator(".form-message")).to_have_text(tr("web.names_bad", team=tr("team.blue"), most=16))
    phone.fill("#name-red", "Night Owls")
    phone.fill("#name-blue", "Foxes")
    form.locator("button.send").click()
    expect(form.locator(".form-message")).to_have_text(tr("web.names_saved"))
    expect(score.locator(".evening-team.team-red")).to_have_text("Night Owls")
    expect(score.locator(".evening-team.team-blue")).to_have_text("Foxes")
    expect(phone.locator(".evening .evening-team")).to_have_text(["Night Owls", "Foxes"])  # the spymaster sees it too
    expect(phone.locator("#name-blue")).to_have_value("Foxes")
    assert run.runtime.table.evening.names == ("Night Owls", "Foxes")



def test_a_paired_phone_chooses_the_hard_pack_and_the_next_game_is_dealt_from_it(table, pages, expect):
    from codenames_board.deal import Deal
    from codenames_board.words import pack_words

    run = table(deal=Deal(3, pack_words("en", "standard")), pack="standard")
    board = pages.open("/")
    board_shown(board)
    phone = pair_phone(pages, run)
    form = phone.locator(".pack-form")
    expect(form.locator(".pack-current")).to_have_text(tr("pack.standard"))
    form.locator("summary").click()
    expect(form.locator(".pack-choice")).to_have_text(["Easy", "Standard", "Hard"])
    expect(form.locator(".pack-choice[aria-pressed='true']")).to_have_text("Standard")
    words = list(run.runtime.table.words)
    form.locator(".pack-choice", has_text="Hard").click()
    expect(form.locator(".form-message")).to_have_text(tr("web.pack_sent"))
    expect(form.locator(".pack-choice[aria-pressed='true']")).to_have_text("Hard")  # as the table says, not guessed
    expect(form.locator(".pack-current")).to_have_text(tr("pack.hard"))
    expect(board.locator(".notices .notice")).to_contain_text([tr("words.next_pack", pack="hard")])
    assert run.runtime.table.words == words  # the game on the table keeps its words

    run.press("new_game", hold=run.config.controls.new_game_hold_seconds + 0.1)  # nothing played: no question
    dealt = list(run.runtime.table.words)
    assert dealt != words and set(dealt) <= set(pack_words("en", "hard"))
    shown = [re.compile(rf"^{re.escape(word)}$", re.I) for word in dealt]
    expect(board.locator("ol.grid > li .tile-word")).to_have_text(shown)
    expect(phone.locator(".unpaired-card")).to_be_visible()  # a new game unpairs every phone


def test_screenshots_of_tonights_score_at_phone_and_tv_sizes(table, pages, tmp_path, expect):
    run = table(words=WORDS, seed=7)
    two_games(run)
    cookie = run.pair()
    assert post_json(run.port, "/api/names", {"red": "Night Owls", "blue": "Foxes"}, cookie=cookie)[0] == 202
    first = run.game.turn
    assert post_json(run.port, "/api/clue", {"word": "orbit", "count": 2}, cookie=cookie)[0] == 202
    run.settle()
    run.tap(unrevealed(run.game, first.identity)[0])
    for path, device, name in (("/", PHONE, "board-phone-evening-390x844.png"), ("/?tv=1", TV, "board-tv-evening-1920x1080.png")):
        page = pages.open(path, device)
        board_shown(page)
        expect(page.locator(".evening .evening-team")).to_have_text(["Night Owls", "Foxes"])
        expect(page.locator(".evening")).to_be_in_viewport()
        screenshot(page, tmp_path, name)


def nearest_rank(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[max(0, math.ceil(fraction * len(sorted_values)) - 1)]


WATCH_REVEALS = """() => {
  // When each tile's element first shows its identity, on the machine's clock (ms since the epoch).
  window.shownAt = {};
  const grid = document.querySelector("ol.grid");
  const tiles = [...grid.children];
  new MutationObserver((changes) => {
    const now = performance.timeOrigin + performance.now();
    for (const change of changes) {
      const tile = tiles.indexOf(change.target);
      if (tile >= 0 && change.target.classList.contains("shown") && !(tile in window.shownAt)) window.shownAt[tile] = now;
    }
  }).observe(grid, {subtree: true, attributes: true, attributeFilter: ["class"]});
}"""


def reveal_twenty(run, pages) -> list[float]:
    """Twenty reveals watched by a phone's public page: the seconds from each tap to the page showing it."""
    page = pages.open("/")
    board_shown(page)
    page.evaluate(WATCH_REVEALS)
    hub = run.runtime.web.server.hub
    deadline = time.monotonic() + PATIENCE_S
    while len(hub.sockets) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(hub.sockets) == 20
    cookie = run.pair()
    delays = []
    while len(delays) < 20:
        assert post_json(run.port, "/api/clue", {"word": f"clue{len(delays)}", "count": "unlimited"}, cookie=cookie)[0] == 202
        run.settle()
        own = unrevealed(run.game, run.game.turn.identity)
        left = 20 - len(delays)
        # The team's agents but its last (the game goes on), then a bystander: the turn ends.
        for tile in own[: min(len(own) - 1, left - 1)] + unrevealed(run.game, Identity.BYSTANDER)[:1]:
            touched = time.time()  # the epoch clock: the page's performance.timeOrigin is on it too
            run.board.tap(tile)
            page.wait_for_function("tile => tile in window.shownAt", arg=tile, polling=5)
            delays.append(page.evaluate("tile => window.shownAt[tile]", tile) / 1000 - touched)
        assert run.game.outcome is None
    return delays


def test_touch_to_public_page_with_twenty_clients_is_printed(table, pages):
    run = table()
    clients = [RawSocket(run.port) for _ in range(19)]
    assert all(client.status == 101 for client in clients)

    def read(client):
        try:
            while client.message() is not None:
                pass
        except OSError:
            pass  # closed at the end

    readers = [threading.Thread(target=read, args=(client,), daemon=True) for client in clients]
    for reader in readers:
        reader.start()
    try:
        delays = reveal_twenty(run, pages)
    finally:
        for client in clients:
            client.sock.shutdown(socket.SHUT_RDWR)  # wakes its reader
            client.close()

    ordered = sorted(delay * 1000 for delay in delays)
    print(
        f"\ntouch -> public page updated (Chromium's DOM), {len(ordered)} reveals, 20 public clients "
        f"(19 plain WebSockets + Chromium): p50 {nearest_rank(ordered, 0.5):.1f} ms, "
        f"p99 {nearest_rank(ordered, 0.99):.1f} ms, max {ordered[-1]:.1f} ms"
    )


def test_the_qr_codes_address_pairs_and_its_token_leaves_the_address_bar_for_an_httponly_cookie(table, pages, expect):
    run = table(words=WORDS)
    card = run.runtime.web.pairing.card()
    token = card.url.split("#t=")[1]
    asked = []
    page = pages.open(card.url[len(pages.base):], before=lambda page: page.on("request", lambda r: asked.append(r.url)))
    page.wait_for_url("**/spymaster")
    expect(page.locator("ol.grid > li").first).to_be_visible()
    assert token not in page.url and "#" not in page.url
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script on the page can read the session
    assert token not in page.evaluate("JSON.stringify([location.href, history.length, document.referrer])")
    assert not [url for url in asked if token in url]  # the token went in a POST body, never in a URL
    cookies = page.context.cookies()
    assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [("cb_session", True, "Strict")]
    assert token not in cookies[0]["value"]
