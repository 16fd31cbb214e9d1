"""Word lists and the dealer: fresh words every game, custom lists with a clear error."""

import itertools
import json
import os
from pathlib import Path

import pytest

import codenames_board
from codenames_board.deal import Deal
from codenames_board.i18n import LANGUAGES, Translator
from codenames_board.words import (
    PACKS, WordDealer, WordListError, builtin_words, choose_words, load_word_file, pack_file_name, pack_label, pack_words,
    parse_words, place_name,
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_ships_at_least_400_words_of_one_word_each(language):
    words = builtin_words(language)
    assert len(words) >= 400
    assert len({word.casefold() for word in words}) == len(words)
    assert all(" " not in word and 0 < len(word) <= 12 for word in words)


def test_parse_words_skips_blanks_comments_and_repeats():
    assert parse_words("# a list\napple\n\n  Bridge \napple\nAPPLE\n") == ["apple", "Bridge"]


def test_the_dealer_repeats_no_word_until_the_list_is_used_up():
    words = [f"w{n}" for n in range(100)]
    dealer = WordDealer(words, seed=3)
    games = [dealer.deal() for _ in range(4)]
    assert all(len(game) == 25 for game in games)
    assert len({word for game in games for word in game}) == 100


def test_after_a_reshuffle_the_last_game_does_not_come_straight_back():
    words = [f"w{n}" for n in range(60)]
    dealer = WordDealer(words, seed=5)
    previous = dealer.deal()
    for _ in range(20):
        game = dealer.deal()
        assert not set(game) & set(previous)
        previous = game


def test_the_same_seed_deals_the_same_games():
    words = [f"w{n}" for n in range(80)]
    assert [WordDealer(words, 9).deal() for _ in range(1)] == [WordDealer(words, 9).deal()]
    assert WordDealer(words, 9).deal() != WordDealer(words, 10).deal()


def test_the_dealer_carries_on_after_a_restart(tmp_path):
    words = [f"w{n}" for n in range(100)]
    state = tmp_path / "words.json"
    first = WordDealer.resume(words, state, seed=1)
    game_one = first.deal()
    again = WordDealer.resume(words, state, seed=999)  # the saved walk wins over a new seed
    assert not set(again.deal()) & set(game_one)


def test_a_damaged_dealer_state_starts_a_new_walk(tmp_path):
    state = tmp_path / "words.json"
    state.write_text("{not json")
    assert len(WordDealer.resume([f"w{n}" for n in range(30)], state, seed=1).deal()) == 25


def test_a_custom_list_loads_and_too_short_a_list_says_what_to_do(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("\n".join(f"word{n}" for n in range(30)), "utf-8")
    assert len(load_word_file(good)) == 30
    short = tmp_path / "short.txt"
    short.write_text("one\ntwo\ntwo\n")
    with pytest.raises(WordListError) as caught:
        load_word_file(short)
    assert (caught.value.msgid, caught.value.params["count"]) == ("error.words_too_few", 2)
    with pytest.raises(WordListError) as caught:
        load_word_file(tmp_path / "missing.txt")
    assert caught.value.msgid == "error.words_unreadable"
    latin = tmp_path / "latin.txt"
    latin.write_bytes("\n".join(["café"] * 30).encode("latin-1"))
    with pytest.raises(WordListError) as caught:
        load_word_file(latin)
    assert caught.value.msgid == "error.words_encoding"


# --- the packs: easy, standard and hard in every language

WORDLISTS = Path(codenames_board.__file__).parent / "wordlists"


def pack_files():
    """Every word file shipped, whichever packs have landed so far."""
    return sorted(WORDLISTS.glob("*.txt"))


def listed(path):
    """The words of a file line by line, repeats kept (``parse_words`` would drop them)."""
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


@pytest.mark.parametrize("path", pack_files(), ids=lambda path: path.name)
def test_every_pack_file_keeps_the_rules_of_a_pack(path):
    language, _, pack = path.stem.partition("-")
    assert language in LANGUAGES and (pack or "standard") in PACKS, f"{path.name}: not a pack's file name"
    assert pack_file_name(language, pack or "standard") == path.name
    words = listed(path)
    assert len(words) >= 200
    assert len({word.casefold() for word in words}) == len(words), "a word twice"
    for word in words:
        assert 0 < len(word) <= 12, word
        assert not any(character.isspace() for character in word), f"{word!r}: one word"
        if language == "de":
            assert word[0].isupper(), f"{word}: a German noun is capitalised"
        else:
            assert word == word.lower(), f"{word}: lower case"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_ships_three_packs_that_share_no_word(language):
    present = {pack: WORDLISTS / pack_file_name(language, pack) for pack in PACKS}
    packs = {pack: {word.casefold() for word in listed(path)} for pack, path in present.items() if path.exists()}
    for first, second in itertools.combinations(sorted(packs), 2):
        assert not packs[first] & packs[second], f"{language}: {first} and {second} share {sorted(packs[first] & packs[second])[:5]}"
    assert sorted(packs) == sorted(PACKS), f"{language}: packs missing: {sorted(set(PACKS) - set(packs))}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_pack_loads_by_its_name_and_the_standard_pack_is_the_builtin_list(language):
    assert pack_words(language, "standard") == builtin_words(language) == choose_words("standard", language)
    for pack in PACKS:
        if (WORDLISTS / pack_file_name(language, pack)).exists():
            assert choose_words(pack, language) == pack_words(language, pack) == parse_words(
                (WORDLISTS / pack_file_name(language, pack)).read_text("utf-8")
            )


def test_a_pack_the_language_lacks_and_a_name_that_is_no_pack_say_the_packs():
    with pytest.raises(WordListError) as caught:
        pack_words("xx", "easy")
    assert (caught.value.msgid, caught.value.params["packs"]) == ("words.pack_missing", "easy, standard, hard")
    with pytest.raises(WordListError) as caught:
        pack_words("en", "medium")
    assert caught.value.msgid == "words.pack_unknown"


@pytest.mark.parametrize("choice", ["", "  ", "esay", "Hard", "no/such/file.txt", "~no-such-user-here/words.txt", "a\x00b"])
def test_a_name_that_is_neither_a_pack_nor_a_file_names_the_packs(tmp_path, monkeypatch, choice):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(WordListError) as caught:
        choose_words(choice, "en")
    assert caught.value.msgid == "words.pack_unknown"
    line = Translator("en")(caught.value.msgid, **caught.value.params)
    assert line == (
        f'"{choice}": no word pack of that name and no such file: name a pack (easy, standard, hard) '
        "or the path of a word file of your own, one word per line"
    )


def test_a_name_too_long_for_a_file_is_said_with_the_systems_reason():
    with pytest.raises(WordListError) as caught:
        choose_words("w" * 5000, "en")
    assert caught.value.msgid == "error.words_unreadable" and caught.value.params["why"] == "File name too long"


def test_a_pack_name_wins_over_a_file_of_that_name_and_dot_slash_names_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text("\n".join(f"own{n}" for n in range(30)), "utf-8")
    assert choose_words("standard", "en") == builtin_words("en")
    assert choose_words("./standard", "en") == [f"own{n}" for n in range(30)]


def hostile(tmp_path, kind):
    """A word file a user might name by mistake, or on purpose."""
    path = tmp_path / kind
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "devzero":
        return Path("/dev/zero")
    elif kind == "huge":
        path.write_bytes(b"word\n" * (2 * 1024 * 1024))  # 10 MB
    elif kind == "24 words":
        path.write_text("\n".join(f"word{n}" for n in range(24)), "utf-8")
    elif kind == "bad utf-8":
        path.write_bytes(b"caf\xe9\n" * 30)
    return path


HOSTILE = {
    "folder": "words.folder",
    "fifo": "error.words_not_a_file",
    "devzero": "error.words_not_a_file",
    "huge": "error.file_too_big",
    "24 words": "error.words_too_few",
    "bad utf-8": "error.words_encoding",
}


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_word_file_is_one_message_with_its_fix_and_never_a_hang(tmp_path, kind):
    with pytest.raises(WordListError) as caught:
        choose_words(str(hostile(tmp_path, kind)), "en")
    assert caught.value.msgid == HOSTILE[kind]
    for language in LANGUAGES:
        assert "\n" not in Translator(language)(caught.value.msgid, **caught.value.params)


def test_a_word_file_of_ones_own_is_read_from_a_path_with_a_tilde(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "ours.txt").write_text("\n".join(f"ours{n}" for n in range(26)), "utf-8")
    assert choose_words("~/ours.txt", "en") == [f"ours{n}" for n in range(26)]
    assert pack_label("~/ours.txt") == "file" and pack_label("hard") == "hard"


# --- the dealer's place: one per language and pack


def test_each_pack_and_language_keeps_its_own_place_and_a_file_is_known_by_its_words():
    words = [f"w{n}" for n in range(30)]
    names = {place_name(pack, language, words) for pack in PACKS for language in LANGUAGES}
    assert len(names) == len(PACKS) * len(LANGUAGES)
    assert place_name("standard", "de", words) == "words-de.json"  # the name it had before the packs
    assert place_name("hard", "de", words) == "words-de-hard.json"
    own = place_name("file", "en", words)
    assert own.startswith("words-file-") and own == place_name("file", "de", list(words))
    assert own != place_name("file", "en", words[:-1]) and own not in names


def test_switching_packs_neither_resets_nor_mixes_the_places(tmp_path):
    easy, hard = [f"e{n}" for n in range(100)], [f"h{n}" for n in range(100)]

    def deal(pack, words):
        return Deal(None, words, tmp_path / place_name(pack, "en", words)).words()

    first_easy = deal("easy", easy)
    first_hard = deal("hard", hard)
    second_easy = deal("easy", easy)  # after an evening of hard words: easy goes on where it stopped
    assert set(first_easy) <= set(easy) and set(first_hard) <= set(hard) and set(second_easy) <= set(easy)
    assert not set(first_easy) & set(second_easy)
    assert not set(deal("hard", hard)) & set(first_hard)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["words-en-easy.json", "words-en-hard.json"]


# --- a phone chooses the next games' pack


def _pack_table(tmp_path, seed=None):
    from datetime import datetime, timezone

    from codenames_board.config import parse
    from codenames_board.deal import Deal
    from codenames_board.i18n import Translator
    from codenames_board.published import Output, Outputs
    from codenames_board.table import Table
    from codenames_board.tileboard import VirtualTileBoard

    class Seen(Output):
        state = None

        def show(self, state, now):
            self.state = state

    config = parse(f'state_dir = "{tmp_path}"\n')
    deal = Deal(seed, pack_words("en", "standard"), tmp_path / "words-en.json")
    seen = Seen()
    table = Table(
        config, Translator("en"), VirtualTileBoard(), lambda: 1000.0, new_seed=deal.key_seed,
        wall_clock=lambda: datetime(2026, 11, 28, 20, 0, tzinfo=timezone.utc), deal_words=deal.words,
        outputs=Outputs([seen]),
    )
    table.word_pack = "standard"
    table.choose_pack = lambda name: deal.choose(name, "en")
    table.start()
    return table, seen


@pytest.mark.parametrize("seed", [None, 5])
def test_a_phone_chooses_the_next_games_pack_and_the_game_on_the_table_keeps_its_words(tmp_path, seed):
    from codenames_board.gestures import Intent

    table, seen = _pack_table(tmp_path, seed)
    words = list(table.words)
    assert seen.state.word_pack == "standard"
    table.handle(Intent(("choose_pack", "hard")))
    assert table.words == words and seen.state.word_pack == "hard"
    assert "The next game deals its words from the hard pack." in [n.text(table.tr) for n in seen.state.public.notices]
    table.deal()
    hard = set(pack_words("en", "hard"))
    assert set(table.words) <= hard
    header = json.loads(table.writer.path.read_text().splitlines()[0])
    assert header["pack"] == "hard"
    if seed is None:  # the hard pack keeps its own place, beside the standard one's
        assert (tmp_path / "words-en-hard.json").is_file()
    table.close()


@pytest.mark.parametrize("pack", ["nonsense", "file", "", None, 3, "../en"])
def test_a_pack_that_is_not_one_is_ignored(tmp_path, pack):
    from codenames_board.gestures import Intent

    table, seen = _pack_table(tmp_path)
    table.handle(Intent(("choose_pack", pack)))
    assert seen.state.word_pack == "standard"
    table.close()


def test_pack_names_are_said_in_the_players_language():
    from codenames_board.i18n import Translator

    assert "schwer" in Translator("de")("words.next_pack", pack="hard")
    assert "sulit" in Translator("id")("words.replay_pack", pack="hard")
