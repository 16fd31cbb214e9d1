"""A word the group dislikes, dealt again before the first clue: the dealer's walk, the table's
rules for it, the record's header, a disk that refuses."""

import errno
from datetime import datetime, timezone

import pytest

from codenames_board.config import parse
from codenames_board.deal import Deal
from codenames_board.engine import Identity, Phase
from codenames_board.gestures import ButtonDown, ButtonUp, Intent
from codenames_board.i18n import Translator
from codenames_board.published import Output, Outputs, Refused
from codenames_board.record import read_record
from codenames_board.redeal import MAX_REDEALS
from codenames_board.table import Table
from codenames_board.tileboard import TileTouched, VirtualTileBoard
from codenames_board.words import WordDealer

WORDS = [f"word{n}" for n in range(100)]


# --- the dealer's walk


def test_another_word_is_the_walks_next_and_does_not_come_back_in_the_next_game():
    dealer = WordDealer(WORDS, seed=4)
    board = dealer.deal()
    new = dealer.another(board)
    assert new in WORDS and new not in board
    again = dealer.another(board + [new])
    assert again not in board and again != new
    following = dealer.deal()
    assert not {new, again} & set(following) and not set(board) & set(following)


def test_another_word_skips_words_on_the_board_whatever_their_case():
    dealer = WordDealer(WORDS, seed=4)
    dealer.deal()
    upcoming = dealer._order[dealer.position]
    assert dealer.another([upcoming.upper()]) != upcoming


def test_at_the_end_of_the_walk_another_word_comes_from_a_fresh_walk_never_from_the_board():
    words = WORDS[:30]
    dealer = WordDealer(words, seed=1)
    board = dealer.deal()
    dealt = [dealer.another(board) for _ in range(12)]  # 5 left in this walk, then a new one
    assert not set(dealt) & set(board)
    assert len(set(dealt[:5])) == 5


def test_a_list_with_no_other_word_gives_none_at_once():
    words = WORDS[:25]
    dealer = WordDealer(words, seed=1)
    assert dealer.another(dealer.deal()) is None


def test_the_walk_goes_on_after_a_restart_past_the_redealt_word(tmp_path):
    state = tmp_path / "words.json"
    dealer = WordDealer.resume(WORDS, state, seed=2)
    board = dealer.deal()
    new = dealer.another(board)
    resumed = WordDealer.resume(WORDS, state, seed=99)
    assert new not in resumed.deal()


def test_a_deal_without_a_word_list_has_no_other_word():
    assert Deal(3).another(["x"]) is None
    assert Deal(3, WORDS).another([]) in WORDS


# --- at the table


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Seen(Output):
    """Every published state, as an output gets it."""

    def __init__(self):
        self.states = []

    def show(self, state, now):
        self.states.append(state)


@pytest.fixture
def make_table(tmp_path):
    tables = []

    def make(settings="", words=True, state=None):
        config = parse(f'state_dir = "{state or tmp_path / "state"}"\n{settings}')
        deal = Deal(7, WORDS if words else None)
        seen = Seen()
        table = Table(
            config, Translator("en"), VirtualTileBoard(), Clock(), new_seed=deal.key_seed,
            wall_clock=lambda: datetime(2026, 11, 22, 20, 0, len(tables), tzinfo=timezone.utc),
            deal_words=deal.words, another_word=deal.another, outputs=Outputs([seen]),
        )
        table.start()
        tables.append(table)
        return table, seen

    yield make
    for table in tables:
        table.close()


def redeal(table, tile):
    table.handle(Intent(("redeal", tile)))


def press(table, name):
    table.handle(ButtonDown(name))
    table.handle(ButtonUp(name))


def notices(table):
    return [notice.msgid for notice in table.ui.notices]


def test_before_the_first_clue_a_tile_gets_a_new_word_and_the_record_keeps_it(make_table):
    table, seen = make_table()
    before = list(table.words)
    assert seen.states[-1].redeals == MAX_REDEALS
    redeal(table, 7)
    assert table.words[7] not in before and table.words[:7] + table.words[8:] == before[:7] + before[8:]
    assert seen.states[-1].words == tuple(table.words) and seen.states[-1].redeals == MAX_REDEALS - 1
    assert seen.states[-1].public.words == tuple(table.words)  # the page shows the new word
    header = read_record(table.writer.path).header
    assert header.words == table.words and header.extra["redealt"] == 1 and header.extra["number"] == 1
    assert notices(table) == ["notice.redeal_done"]  # the room sees what changed
    press(table, "clue_confirm")  # the game goes on, recorded after the new header
    assert [action.name for _, action in read_record(table.writer.path).actions] == ["clue"]


def test_after_the_first_clue_a_redeal_is_refused_with_a_notice(make_table):
    table, seen = make_table()
    press(table, "clue_confirm")
    before = list(table.words)
    assert seen.states[-1].redeals == 0
    redeal(table, 3)
    assert table.words == before and notices(table) == ["notice.redeal_too_late"]
    assert Refused() in seen.states[-1].events
    assert "notice.redeal_too_late" in [n.msgid for n in seen.states[-1].public.notices]  # the page says it too
    press(table, "undo")
    press(table, "clue_confirm")  # the clue taken back: it was said, still too late
    assert table.game.phase is Phase.CLUE and not table.game.actions
    redeal(table, 3)
    assert table.words == before and notices(table)[-1] == "notice.redeal_too_late"


def test_at_most_five_redeals_a_game_and_the_count_survives_a_restart(make_table, tmp_path):
    table, seen = make_table()
    for tile in (0, 0, 1, 2):
        redeal(table, tile)
    assert seen.states[-1].redeals == MAX_REDEALS - 4
    table.close()
    again, seen = make_table()  # resumed: the record's header counts the re-deals
    assert again.words == read_record(again.writer.path).header.words
    assert seen.states[-1].redeals == 1
    redeal(again, 4)
    words = list(again.words)
    redeal(again, 5)
    assert again.words == words and notices(again) == ["notice.redeal_done", "notice.redeal_used_up"]
    assert dict(again.ui.notices[-1].params) == {"most": MAX_REDEALS}
    assert read_record(again.writer.path).header.extra["redealt"] == MAX_REDEALS


def test_a_new_game_may_redeal_again(make_table):
    table, seen = make_table()
    for tile in range(MAX_REDEALS):
        redeal(table, tile)
    assert seen.states[-1].redeals == 0
    table.deal()  # the next game (NEW GAME held)
    assert seen.states[-1].redeals == MAX_REDEALS
    assert "redealt" not in read_record(table.writer.path).header.extra


def test_a_table_without_a_word_list_or_a_game_over_refuses(make_table, tmp_path):
    table, seen = make_table(words=False)
    assert seen.states[-1].redeals == 0
    redeal(table, 0)
    assert table.words is None and notices(table) == ["notice.redeal_no_word"]
    listed, seen = make_table(state=tmp_path / "other")
    press(listed, "clue_confirm")
    listed.handle(TileTouched(listed.game.key.identities.index(Identity.ASSASSIN), True))
    assert listed.game.is_over
    redeal(listed, 0)
    assert notices(listed)[-1] == "notice.redeal_too_late"


def test_without_clue_entry_a_word_may_be_redealt_until_the_first_touch(make_table):
    table, seen = make_table("[game]\nclue_entry = false\n")
    assert table.game.phase is Phase.GUESS and seen.states[-1].redeals == MAX_REDEALS
    redeal(table, 2)
    assert read_record(table.writer.path).header.extra["redealt"] == 1
    table.handle(TileTouched(0, True))
    assert seen.states[-1].redeals == 0


@pytest.mark.parametrize("tile", [-1, 25, "3", 2.0, True, None])
def test_a_tile_that_is_not_one_changes_nothing(make_table, tile):
    table, _ = make_table()
    before = list(table.words)
    redeal(table, tile)
    assert table.words == before and read_record(table.writer.path).header.words == before


def test_a_disk_that_refuses_the_new_header_changes_nothing_and_says_so(make_table, monkeypatch):
    from codenames_board.record import writer as writer_module

    table, seen = make_table()
    path = table.writer.path
    before, on_disk = list(table.words), path.read_bytes()

    def refuse(path, content):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer_module, "rewrite", refuse)
    redeal(table, 0)
    assert table.words == before and path.read_bytes() == on_disk
    assert notices(table) == ["notice.redeal_unsaved"]
    assert dict(table.ui.notices[-1].params) == {"why": "the disk is full"}
    assert seen.states[-1].redeals == MAX_REDEALS  # nothing counted
    monkeypatch.undo()
    redeal(table, 0)  # room again: the re-deal works, and the game is recorded on
    assert table.words[0] != before[0] and read_record(path).header.words == table.words
    press(table, "clue_confirm")
    assert len(read_record(path).actions) == 1


def test_a_word_dealt_away_does_not_come_back_in_the_same_game_even_after_the_walk_ends(tmp_path):
    from codenames_board.config import parse as parse_config

    words = [f"w{n:02}" for n in range(26)]  # one word besides the board's: the walk ends at once
    deal = Deal(3, words)
    table = Table(
        parse_config(f'state_dir = "{tmp_path}"\n'), Translator("en"), VirtualTileBoard(), Clock(), new_seed=deal.key_seed,
        wall_clock=lambda: datetime(2026, 11, 22, 20, 0, tzinfo=timezone.utc), deal_words=deal.words,
        another_word=deal.another, outputs=Outputs([Seen()]),
    )
    table.start()
    first = list(table.words)
    redeal(table, 0)
    gone = first[0]
    redeal(table, 1)
    assert gone not in table.words
    table.close()
