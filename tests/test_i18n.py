"""Translations: every language says every message, with the same placeholders."""

import ast
import string
from pathlib import Path

import pytest

import codenames_board
from codenames_board.engine import ACTIONS, Identity, Team, TurnEnd
from codenames_board.engine.errors import MESSAGES
from codenames_board.i18n import LANGUAGES, Translator, catalog, detect_language

PACKAGE = Path(codenames_board.__file__).parent
OTHERS = [language for language in LANGUAGES if language != "en"]


def placeholders(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("language", OTHERS)
def test_every_language_has_every_message_with_the_same_placeholders(language):
    english, other = catalog("en"), catalog(language)
    assert sorted(other) == sorted(english)
    for msgid, template in english.items():
        assert placeholders(other[msgid]) == placeholders(template), msgid
        assert other[msgid].strip(), msgid


def test_the_engines_english_messages_are_the_catalogs_words():
    english = catalog("en")
    for msgid, text in MESSAGES.items():
        assert english[f"error.{msgid}"] == text


def _message_ids_in_code():
    """Message ids written literally in the package: tr("x"), self.tr("x"), RecordError("x"), ..."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            value = node.args[0].value
            if name in {"tr", "words", "Notice"} and isinstance(value, str):
                found.add(value)
            elif name and name.endswith("Error") or name in {"IllegalAction", "BadKey", "NoClue", "GameIsOver"}:
                if isinstance(value, str) and value.isidentifier():
                    found.add(f"error.{value}")
    return found


def test_every_message_the_code_names_is_in_the_catalog():
    english = catalog("en")
    literal = _message_ids_in_code()
    assert len(literal) > 60
    built = (
        {f"notice.board_{code}" for code in ("noisy", "quiet", "stuck", "pads", "pads_many", "protocol", "layout", "other", "firmware_tunepad", "firmware_order")} |
        {f"team.{team.value}" for team in Team}
        | {f"identity.{identity.name.lower()}" for identity in Identity}
        | {f"event.turn_end_{reason.value}" for reason in TurnEnd}
        | {f"action.{name}" for name in ACTIONS if name not in {"clue", "touch"}}
        | {f"duo.title_{score}" for score in range(1, 9)}
    )
    missing = sorted(msgid for msgid in literal | built if msgid not in english)
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_console_command_spellings_never_mean_two_things(language):
    tr = Translator(language)
    owners = {}
    for msgid in [key for key in catalog("en") if key.startswith("command.")]:
        for spelling in tr.words(msgid):
            assert owners.setdefault(spelling, msgid) == msgid, f"{spelling!r}: {owners[spelling]} and {msgid}"
            assert not spelling.isdigit()
            assert not (len(spelling) == 2 and spelling[0] in "abcde" and spelling[1].isdigit())


@pytest.mark.parametrize("language", LANGUAGES)
def test_board_letters_are_four_different_letters(language):
    tr = Translator(language)
    letters = [tr(f"board.letter_{identity.name.lower()}") for identity in Identity]
    assert len(set(letters)) == 4
    assert all(len(letter) == 1 and letter.isalpha() for letter in letters)


def test_team_names_inside_messages_are_translated():
    german = Translator("de")
    text = german("board.phase_clue", team="red")
    assert german("team.red") in text
    assert "red" not in text.replace(german("team.red"), "")


def test_a_message_missing_in_a_language_falls_back_to_english():
    catalog("en")["test.only_english"] = "only in {language}"
    try:
        assert Translator("et")("test.only_english", language="English") == "only in English"
    finally:
        del catalog("en")["test.only_english"]


@pytest.mark.parametrize(
    "environ, language",
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "da_DK.UTF-8", "LC_ALL": "et_EE.UTF-8"}, "et"),
        ({"LANGUAGE": "fr:id", "LANG": "en_US.UTF-8"}, "id"),
        ({"LANG": "in_ID"}, "id"),
        ({"CODENAMES_BOARD_LANG": "da", "LANG": "de_DE.UTF-8"}, "da"),
        ({"LANG": "sv_SE.UTF-8"}, "en"),
    ],
)
def test_language_comes_from_the_environment(environ, language):
    assert detect_language(environ) == language


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError):
        Translator("xx")
