"""What the page's sockets carry: the public message holds nothing of an unrevealed tile; the clue log;
the clue word's rules; the word in the record."""

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_published import played, twin_key

from codenames_board.cluewords import MAX_CLUE_WORD, clue_word_problem
from codenames_board.engine import UNLIMITED, Clue, EndTurn, GameView, Identity, Key, Penalty, Timeout, Touch, Undo, new_game
from codenames_board.evening import Tally
from codenames_board.i18n import Translator
from codenames_board.published import TableState, public_state
from codenames_board.record import Header, RecordError, RecordWriter, parse_record, read_record
from codenames_board.ui import Notice, UiState
from codenames_board.web.views import public_view, spymaster_view

KEY = Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNNA:red")
EN = Translator("en")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 60), max_size=40),
       variant=st.sampled_from(["classic", "duo"]), words=st.booleans())
def test_two_keys_that_agree_on_the_revealed_tiles_send_the_same_public_bytes(seed, choices, variant, words):
    key = Key.generate(seed)
    game = played(key, choices, variant)
    other = twin_key(key, game)
    if other is None:
        return
    twin = new_game(other, variant)
    for action in game.history:
        twin.play(action)
    board = tuple(f"word{n}" for n in range(25)) if words else None
    ui = UiState(notices=(Notice("notice.clue_first"), Notice("notice.cover_own", (("team", "red"),))))
    sent = [json.dumps(public_view(public_state(GameView.of(g), ui, board, 4), EN, 1)) for g in (game, twin)]
    if game.is_over:
        assert key.letters in sent[0] and other.letters in sent[1]  # the tiles then show the whole key too
        sent = [text.replace(letters, "") for text, letters in zip(sent, (key.letters, other.letters))]
    assert sent[0] == sent[1]
    assert "cover" not in json.loads(sent[0])["notices"][0].lower() or len(json.loads(sent[0])["notices"]) == 1


def test_the_clue_log_has_every_clue_with_its_word_and_the_tiles_after_it_in_order():
    game = new_game(KEY)
    for action in (Clue(2, "river"), Touch(0), Touch(17), Clue(1), Touch(9), Touch(10), Penalty(), Touch(11)):
        game.play(action)  # blue's two guesses end its turn; red's illegal clue: blue covers its agent 11
    view = public_view(public_state(GameView.of(game), UiState(), None, None), EN, 0)
    log = [(entry["kind"], entry["team"], entry["word"], entry["count"], entry["ended"],
            [(t["name"], t["identity"], t["covered"]) for t in entry["touched"]]) for entry in view["clues"]]
    assert log == [
        ("clue", "red", "river", 2, None, [("A1", "red", False), ("D3", "bystander", False)]),
        ("clue", "blue", None, 1, None, [("B5", "blue", False), ("C1", "blue", False)]),
        ("no_clue", "red", None, None, "penalty", []),  # red's clue was illegal: no number was entered
        ("cover", "blue", None, None, None, [("C2", "blue", True)]),
    ]
    assert view["clue"] is None and view["phase"] == "clue"
    game.play(Undo())  # the cover
    game.play(Undo())  # the penalty
    game.play(Undo())  # C1
    game.play(Undo())  # B5
    game.play(Undo())  # blue's clue: gone from the log
    view = public_view(public_state(GameView.of(game), UiState(), None, None), EN, 0)
    assert [(entry["word"], entry["kind"]) for entry in view["clues"]] == [("river", "clue")]


def test_the_current_clue_shows_its_word_and_only_public_notices_are_sent():
    game = new_game(KEY)
    game.play(Clue(UNLIMITED, "ocean"))
    ui = UiState(notices=(Notice("notice.cover_own", (("team", "red"),)), Notice("notice.record_saved")))
    view = public_view(public_state(GameView.of(game), ui, None, 1), EN, 0)
    assert view["clue"] == {"word": "ocean", "count": "unlimited"}
    assert view["notices"] == [EN("notice.record_saved")]


def test_the_spymasters_message_adds_the_key_and_says_when_a_clue_may_be_given():
    game = new_game(KEY)
    state = TableState(GameView.of(game), UiState(), None, 1, 1)
    view = spymaster_view(state, EN, 2, clue_entry=True)
    assert view["key"] == KEY.letters and view["clue_entry"] is True and view["spymasters"] == 2
    game.play(Clue(1))
    assert spymaster_view(TableState(GameView.of(game), UiState(), None, 1, 1), EN, 2, True)["clue_entry"] is False
    assert spymaster_view(state, EN, 2, clue_entry=False)["clue_entry"] is False



@pytest.mark.parametrize("pack, packs", [
    ("standard", ["easy", "standard", "hard"]), ("hard", ["easy", "standard", "hard"]),
    ("file", ["easy", "standard", "hard"]),  # a list of the players' own: one of the packs may replace it
    (None, []),  # the cards lie on the tiles: no pack to choose
])
def test_the_spymasters_message_names_the_next_games_pack_and_what_a_phone_may_choose(pack, packs):
    state = TableState(GameView.of(new_game(KEY)), UiState(), None, 1, 1, word_pack=pack)
    view = spymaster_view(state, EN, 1, True)
    assert (view["pack"], view["packs"]) == (pack, packs)
    public = public_view(state.public, EN, 1)
    assert "pack" not in public and "packs" not in public  # the next games' words are the spymasters' business


@pytest.mark.parametrize("word, problem", [
    ("river", None), ("Straßenbahn", None), ("Straße", "web.clue_on_board"), ("rock'n'roll", None), ("x-ray", None), ("Ölfass", None), ("kuda2", None),
    ("  padded  ", None), ("ab\u0301c", None),
    ("", "web.clue_bad_word"), ("two words", "web.clue_bad_word"), ("-dash", "web.clue_bad_word"),
    ("tab\there", "web.clue_bad_word"), ("new\nline", "web.clue_bad_word"), ("<b>", "web.clue_bad_word"),
    ("a" * (MAX_CLUE_WORD + 1), "web.clue_too_long"), (None, "web.clue_bad_word"), (["river"], "web.clue_bad_word"),
    ("APPLE", "web.clue_on_board"), ("strasse", "web.clue_on_board"),
])
def test_a_clue_word_is_one_word_of_letters_not_on_the_board(word, problem):
    assert clue_word_problem(word, ["apple", "STRASSE"] + ["x"] * 23) == problem


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.integers(), st.none(), st.binary(max_size=10)))
def test_any_input_is_a_word_or_one_named_problem(word):
    problem = clue_word_problem(word, None)
    assert problem in (None, "web.clue_bad_word", "web.clue_too_long")
    if problem is None:
        assert word.strip() and len(word.strip()) <= MAX_CLUE_WORD and not any(c.isspace() for c in word.strip())


def test_a_clue_word_goes_into_the_record_and_comes_back(tmp_path):
    path = tmp_path / "game.jsonl"
    with RecordWriter.create(path, Header("classic", KEY)) as writer:
        for action in (Clue(2, "Fluss"), Touch(17), Clue(1)):
            writer.append(action, time="2026-11-28T20:00:00Z")
    lines = path.read_text().splitlines()
    assert json.loads(lines[1]) == {"action": "clue", "count": 2, "word": "Fluss", "time": "2026-11-28T20:00:00Z"}
    assert "word" not in json.loads(lines[3])
    record = read_record(path)
    assert [action for _, action in record.actions] == [Clue(2, "Fluss"), Touch(17), Clue(1)]
    assert record.replay().clues[0][2] == "Fluss"


@pytest.mark.parametrize("word", [7, "", "x" * 65, "bad\u0000", ["a"], {"a": 1}, "line\nbreak"])
def test_a_record_with_a_bad_clue_word_names_the_line(word):
    header = json.dumps(Header("classic", KEY).to_json())
    line = json.dumps({"action": "clue", "count": 1, "word": word})
    with pytest.raises(RecordError) as raised:
        parse_record(f"{header}\n{line}\n{line}\n".encode())
    assert raised.value.msgid == "bad_word" and raised.value.line == 2


def test_views_are_plain_data():
    game = new_game(KEY)
    assert dataclasses.is_dataclass(public_state(GameView.of(game), UiState(), None, None))
    assert Identity.ASSASSIN.name not in json.dumps(public_view(public_state(GameView.of(game), UiState(), None, None), EN, 0))


def test_the_log_says_why_a_turn_ended_where_its_tiles_do_not_and_the_duo_covers_apart():
    game = new_game(KEY)
    for action in (Clue(1, "sun"), Touch(0), EndTurn(), Clue(2), Timeout(), Clue(0), Penalty()):
        game.play(action)
    view = public_view(public_state(GameView.of(game), UiState(), None, None), EN, 0)
    assert [(e["kind"], e["team"], e["count"], e["ended"], len(e["touched"])) for e in view["clues"]] == [
        ("clue", "red", 1, "end_turn", 1), ("clue", "blue", 2, "timeout", 0), ("clue", "red", 0, "penalty", 0),
    ]
    duo = new_game(KEY, "duo")  # red plays, blue is the shadow
    for action in (Clue(1), Touch(0), Touch(17), Touch(9), Clue(1), Touch(1)):
        duo.play(action)
    view = public_view(public_state(GameView.of(duo), UiState(), None, None), EN, 0)
    assert [(e["kind"], e["team"], [t["name"] for t in e["touched"]]) for e in view["clues"]] == [
        ("clue", "red", ["A1", "D3"]), ("cover", "blue", ["B5"]), ("clue", "red", ["A2"]),
    ]


EVENING = "2026-11-28T19:00:00Z"


def evening_of(tally, language=EN):
    game = new_game(KEY)
    game.play(Clue(1, "sun"))
    return public_view(public_state(GameView.of(game), UiState(), None, 3, tally), language, 0)["evening"]


def test_no_tally_no_evening_in_the_message():
    assert evening_of(None) is None
    state = TableState(GameView.of(new_game(KEY)), UiState(), None, 1, 1)
    assert spymaster_view(state, EN, 1, True)["evening"] is None


def test_a_classic_evening_names_the_teams_as_the_display_does_and_as_they_were_set():
    evening = evening_of(Tally(EVENING, ("", "Owls"), wins=(3, 2)))
    assert evening["names"] == {"red": "Red", "blue": "Owls"}
    assert evening["given"] == {"red": "", "blue": "Owls"}  # the phone's form: red goes by its colour
    assert evening["wins"] == {"red": 3, "blue": 2} and evening["started"] == EVENING
    assert evening["duo"] == {"played": 0, "won": 0, "best": None, "streak": 0}
    assert evening["lines"][1:] == ["Red 3 : 2 Owls"]
    assert evening_of(Tally(EVENING, ("", "Owls")), Translator("de"))["names"] == {"red": "Rot", "blue": "Owls"}


def test_a_duo_evening_carries_the_best_score_and_the_streak_and_no_key():
    tally = Tally(EVENING, wins=(0, 0), duo_played=3, duo_won=2, duo_best=5, duo_streak=2)
    evening = evening_of(tally)
    assert evening["duo"] == {"played": 3, "won": 2, "best": 5, "streak": 2}
    assert evening["lines"][1:] == [EN("evening.duo", played=3, won=2, best=5, streak=2)]  # no classic game: no 0 : 0
    assert evening_of(Tally(EVENING, duo_played=1))["lines"][1:] == [EN("evening.duo_none", played=1)]
    game = new_game(KEY)
    sent = json.dumps(public_view(public_state(GameView.of(game), UiState(), None, 3, tally), EN, 0))
    assert KEY.letters not in sent and json.loads(sent)["key"] is None
