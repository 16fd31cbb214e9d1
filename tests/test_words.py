"""Word lists and the dealer: fresh words every game, custom lists with a clear error."""

import pytest

from codenames_board.i18n import LANGUAGES
from codenames_board.words import WordDealer, WordListError, builtin_words, load_word_file, parse_words


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
