"""The web page's static files: exactly the files the server serves, nothing inline (so a strict
Content-Security-Policy without 'unsafe-inline' holds), nothing fetched from elsewhere, no player's
text ever parsed as HTML, and every text the pages show in all five catalogs."""

import re
from pathlib import Path

import pytest

import codenames_board
from codenames_board.i18n import LANGUAGES, catalog

STATIC = Path(codenames_board.__file__).parent / "web" / "static"
FILES = {
    "index.html", "spymaster.html", "pair.html", "history.html",
    "app.js", "board.js", "index.js", "spymaster.js", "pair.js", "history.js", "packs.js",
    "style.css", "icon.svg",
}
PAGES = sorted(name for name in FILES if name.endswith(".html"))
SCRIPTS = sorted(name for name in FILES if name.endswith(".js"))
# Texts the server names in {"error": "web.<id>"} answers; the pages show them by that id.
SERVER_ERRORS = {
    "web.pair_wrong", "web.pair_wait", "web.not_paired", "web.not_clue_phase", "web.clue_bad_word",
    "web.clue_on_board", "web.clue_bad_count", "web.clue_too_long", "web.server_busy",
    "web.bad_origin", "web.bad_request", "web.not_found", "web.too_big", "web.pair_full",
    "web.words_bad", "web.words_twice", "web.words_known",
    "web.redeal_bad_tile", "web.redeal_closed", "web.names_bad", "web.names_no_evening", "web.names_same",
    "web.pack_bad", "web.pack_closed",
}
IDENTITIES = ("red", "blue", "bystander", "assassin")
# Ids the scripts build from a state's values: `web.letter_${identity}` and the like.
BUILT = {
    "web.letter_": {f"web.letter_{identity}" for identity in IDENTITIES},
    "web.phase_": {"web.phase_clue", "web.phase_guess"},  # cover and over have their own texts
    "web.phase_cover": {"web.phase_cover", "web.phase_cover_duo", "web.phase_cover_yours", "web.phase_cover_duo_yours"},
    "web.event_": {f"web.event_{kind}" for kind in ("end_turn", "timeout", "penalty", "skip")},
}


def read(name):
    return (STATIC / name).read_text("utf-8")


def scripts():
    return "\n".join(read(name) for name in SCRIPTS)


def test_the_static_folder_holds_exactly_the_served_files():
    from codenames_board.web import api

    assert {path.name for path in STATIC.iterdir()} == FILES == set(api.STATIC) | set(api.PAGES.values())


def test_every_error_the_server_names_has_its_text_in_every_language():
    import re

    from codenames_board.i18n import LANGUAGES, catalog

    folder = STATIC.parent
    source = "".join(path.read_text("utf-8") for path in [*folder.glob("*.py"), folder.parent / "cluewords.py"])
    named = set(re.findall(r'"(web\.[a-z_]+)"', source))
    assert {"web.pair_wrong", "web.not_found", "web.clue_on_board"} <= named
    for language in LANGUAGES:
        assert named <= set(catalog(language)), language


@pytest.mark.parametrize("name", PAGES)
def test_a_page_has_no_inline_script_style_or_event_handler(name):
    html = read(name)
    tags = re.findall(r"<script\b[^>]*>", html)
    assert tags and all(re.search(r'\bsrc="/static/[a-z]+\.js"', tag) for tag in tags)
    assert re.search(r"<script\b[^>]*>[^<]*\S[^<]*</script>", html) is None
    assert "<style" not in html
    assert re.search(r"\sstyle\s*=", html) is None
    assert re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE) is None


def test_the_pages_load_only_their_own_files():
    for name in FILES:
        text = read(name).replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "://" not in text, name
        assert "@import" not in text, name
        references = re.findall(r"""\b(?:src|href)\s*=\s*"([^"]*)\"""", text)
        references += re.findall(r"""\bfrom\s+"([^"]+)";""", text)
        references += re.findall(r"url\(\s*[\"']?([^)\"']*)", text)
        for reference in references:
            if reference.startswith("/static/"):
                assert reference.removeprefix("/static/") in FILES, (name, reference)
            elif reference.startswith("./"):
                assert reference.removeprefix("./") in FILES, (name, reference)
            else:
                assert reference.startswith("/") and not reference.startswith("//"), (name, reference)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_never_parses_text_as_html_or_code(name):
    code = read(name)
    for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "cssText"):
        assert forbidden not in code, forbidden
    assert re.search(r"setAttribute\(\s*[\"']style", code) is None
    assert re.search(r"\.style\.(?!setProperty\()", code) is None  # CSSOM custom properties only
    assert re.search(r"set(?:Timeout|Interval)\(\s*[\"'`]", code) is None


def _used_ids():
    code = scripts()
    literal = set(re.findall(r"[\"'](web\.[a-z_]+)[\"']", code))
    templates = set(re.findall(r"`(web\.[a-z_]*)\$\{", code))
    assert templates == set(BUILT), "a new built id: list what it can become in BUILT"
    return literal | set().union(*BUILT.values())


def test_every_text_the_pages_use_is_in_the_catalog():
    assert sorted(_used_ids() - set(catalog("en"))) == []


def test_every_web_text_in_the_catalog_is_used_by_the_pages_or_the_server():
    web = {msgid for msgid in catalog("en") if msgid.startswith("web.")}
    assert sorted(web - _used_ids() - SERVER_ERRORS) == []
    assert SERVER_ERRORS <= web


def test_the_pages_ask_only_for_texts_the_server_sends():
    from codenames_board.web import api

    code = scripts()
    sections = re.findall(r"\bt\(\s*[\"'`]([a-z_]+)\.", code)
    assert sections and set(sections) <= {"web", "team", "identity", "pack"}
    assert {f"{section}." for section in sections} <= set(api.TEXT_SECTIONS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pack_a_phone_may_choose_has_its_name_on_the_page(language):
    from codenames_board.web import api
    from codenames_board.words import PACKS

    served = api.texts(language)
    assert all(served[f"pack.{name}"] == catalog(language)[f"pack.{name}"] for name in PACKS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_keys_letters_are_the_spymaster_displays_letters(language):
    texts = catalog(language)
    for identity in IDENTITIES:
        assert texts[f"web.letter_{identity}"] == texts[f"board.letter_{identity}"]
