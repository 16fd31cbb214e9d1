"""The web page's history: the list of games and one game turn by turn, read from real records."""

import json
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenames_board import stats, story
from codenames_board.engine import UNLIMITED, Clue, EndTurn, Key, Penalty, Timeout, Touch, Undo, new_game
from codenames_board.record import MAX_RECORD_BYTES, Header, RecordWriter, read_record
from codenames_board.web import history

# Red starts: red agents on tiles 0-8, blue 9-16, bystanders 17-23, the assassin on 24.
KEY = Key.from_text("RRRRRRRRRBBBBBBBBNNNNNNNA:red")
WORDS = [f"word{tile}" for tile in range(25)]


def write(folder, number, actions, variant="classic", key=KEY, words=None, seed=7, name=None):
    """A record as the table writes it (numbered, a time on each line); an item of ``actions`` may be
    ``(action, extra fields)``. ``number`` None: a record without a number, as the console writes."""
    extra = {} if number is None else {"number": number}
    header = Header(variant, key, words, "en", seed, "2026-11-22T20:00:00Z", extra)
    path = folder / (name or f"game-{number}.jsonl")
    with RecordWriter.create(path, header) as writer:
        for minute, item in enumerate(actions):
            action, fields = item if isinstance(item, tuple) else (item, {})
            writer.append(action, time=f"2026-11-22T20:{minute % 60:02}:00Z", **fields)
    return path


RED_WINS = [Clue(UNLIMITED)] + [Touch(tile) for tile in range(9)]
ASSASSIN = [Clue(1), Touch(24)]  # red touches it: blue wins
DUO_WIN = [Clue(UNLIMITED)] + [Touch(tile) for tile in range(9)]  # no shadow agent covered: score 8
UNFINISHED = [Clue(2), Touch(0), EndTurn(), Clue(1), Touch(9)]


def event(kind, tile=None, identity=None, words=None):
    return {"kind": kind, "tile": tile, "name": None if tile is None else f"{'ABCDE'[tile // 5]}{tile % 5 + 1}",
            "word": words[tile] if words and tile is not None else None, "identity": identity}


# --- the list


def test_the_list_is_newest_first_with_outcomes_clue_counts_and_the_stats(tmp_path):
    write(tmp_path, 1, RED_WINS)
    write(tmp_path, 2, ASSASSIN)
    write(tmp_path, 3, DUO_WIN, variant="duo")
    write(tmp_path, 4, UNFINISHED)
    write(tmp_path, None, [Clue(3)], name="console.jsonl")  # the console's records have no number
    payload = history.games(tmp_path)
    assert payload["folder"] == str(tmp_path)
    assert payload["stats"] == stats.collect(tmp_path).to_json()
    assert payload["stats"]["finished"] == 3
    listed = [(g["number"], g["variant"], g["finished"], g["winner"], g["reason"], g["score"], g["clues"], g["error"])
              for g in payload["games"]]
    assert listed == [
        (4, "classic", False, None, None, None, 2, None),
        (3, "duo", True, "red", "agents", 8, 1, None),
        (2, "classic", True, "blue", "assassin", None, 1, None),
        (1, "classic", True, "red", "agents", None, 1, None),
        (None, "classic", False, None, None, None, 1, None),
    ]
    assert payload["games"][0]["created"] == "2026-11-22T20:00:00Z"
    assert payload["games"][0]["name"] == "game-4.jsonl"
    json.dumps(payload)  # plain JSON values only


def test_each_game_in_the_list_names_its_evening_when_its_record_does(tmp_path):
    for number, evening in ((1, "2026-11-22T19:58:00Z"), (2, "tonight"), (3, ["2026-11-22T19:58:00Z"]), (4, None)):
        path = write(tmp_path, number, ASSASSIN)
        if evening is not None:  # the header as the table writes it, with the evening it belongs to
            header, rest = path.read_text().split("\n", 1)
            path.write_text(json.dumps({**json.loads(header), "evening": evening}) + "\n" + rest)
    listed = {g["number"]: g["evening"] for g in history.games(tmp_path)["games"]}
    assert listed == {1: "2026-11-22T19:58:00Z", 2: None, 3: None, 4: None}  # not a time: none


def test_an_empty_or_missing_folder_lists_nothing(tmp_path):
    assert history.games(tmp_path)["games"] == []
    assert history.games(tmp_path / "missing")["games"] == []
    assert history.game(tmp_path / "missing", 1) is None


def test_the_list_holds_the_newest_games_only(tmp_path):
    for number in range(1, history.MOST_LISTED + 6):  # header-only records, as the writer makes them
        header = Header("classic", KEY, None, "en", number, None, {"number": number})
        (tmp_path / f"{number}.jsonl").write_text(json.dumps(header.to_json()) + "\n")
    listed = history.games(tmp_path)["games"]
    assert [g["number"] for g in listed] == list(range(history.MOST_LISTED + 5, 5, -1))
    assert history.game(tmp_path, 1)["number"] == 1  # an older game still opens by its number


def test_records_that_cannot_be_read_are_listed_with_why_and_the_rest_still_are(tmp_path):
    write(tmp_path, 1, RED_WINS)
    (tmp_path / "junk.jsonl").write_text("not a record\n")
    bad_line = write(tmp_path, 2, RED_WINS)
    lines = bad_line.read_text().splitlines()
    lines[3] = '{"action": "touch", "tile": '  # damage before the last line: not a torn line
    bad_line.write_text("\n".join(lines) + "\n")
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({**Header("classic", KEY, extra={"number": 3}).to_json()}) + "\n")
    with big.open("a") as file:
        file.write(" " * MAX_RECORD_BYTES)
    write(tmp_path, 4, [Clue(1), Touch(0), Touch(1), Penalty()])  # fine, then a line the rules refuse:
    with (tmp_path / "game-4.jsonl").open("a") as file:
        file.write('{"action": "touch", "tile": 17}\n')  # a cover on a bystander
    (tmp_path / "folder.jsonl").mkdir()
    games = {g["name"]: g for g in history.games(tmp_path)["games"]}
    assert games["game-1.jsonl"]["error"] is None and games["game-1.jsonl"]["finished"] is True
    assert (games["junk.jsonl"]["number"], games["junk.jsonl"]["error"]) == (None, "error.not_a_record")
    assert (games["game-2.jsonl"]["error"], games["game-2.jsonl"]["line"]) == ("error.bad_json", 4)
    assert games["big.jsonl"]["error"] == "error.too_big"
    assert games["big.jsonl"]["params"] == {"size": big.stat().st_size, "most": MAX_RECORD_BYTES}
    refused = games["game-4.jsonl"]
    assert (refused["error"], refused["line"], refused["cause"]) == ("error.rejected", 6, "error.not_own_agent")
    assert refused["params"] == {}  # the refused rule's parameters (tile 17 is no agent) are not given
    assert games["folder.jsonl"]["error"] == "error.unreadable"
    assert history.game(tmp_path, 2)["error"] == "error.bad_json"
    assert history.game(tmp_path, 4) == {"number": 4, "name": "game-4.jsonl", **{
        key: refused[key] for key in ("error", "line", "params", "cause")}}


def test_a_torn_last_line_is_dropped_and_said(tmp_path):
    path = write(tmp_path, 1, UNFINISHED)
    with path.open("a") as file:
        file.write('{"action": "touch", "ti')
    listed = history.games(tmp_path)["games"][0]
    assert (listed["error"], listed["torn"], listed["clues"]) == (None, True, 2)
    shown = history.game(tmp_path, 1)
    assert shown["torn"] is True
    assert shown["turns"][-1]["events"] == [event("touch", 9, "blue")]


# --- one game


def test_a_classic_game_turn_by_turn_with_its_key_once_over(tmp_path):
    actions = [Clue(2), Touch(0), Touch(17), Clue(UNLIMITED), Touch(9), EndTurn(), Clue(0), Touch(1), Touch(24)]
    write(tmp_path, 5, actions, words=WORDS)
    shown = history.game(tmp_path, 5)
    assert {key: shown[key] for key in ("number", "variant", "created", "finished", "start", "key", "words")} == {
        "number": 5, "variant": "classic", "created": "2026-11-22T20:00:00Z", "finished": True, "start": "red",
        "key": KEY.letters, "words": WORDS,
    }
    assert shown["turns"] == [
        {"team": "red", "clue": {"word": None, "count": 2},
         "events": [event("touch", 0, "red", WORDS), event("touch", 17, "bystander", WORDS)]},
        {"team": "blue", "clue": {"word": None, "count": "unlimited"},
         "events": [event("touch", 9, "blue", WORDS), event("end_turn")]},
        {"team": "red", "clue": {"word": None, "count": 0},
         "events": [event("touch", 1, "red", WORDS), event("touch", 24, "assassin", WORDS)]},
    ]
    assert shown["outcome"] == {"winner": "blue", "reason": "assassin", "score": None}
    assert shown["turns"][0]["events"][0]["name"] == "A1" and shown["turns"][0]["events"][1]["word"] == "word17"


def test_a_game_without_words_shows_none_for_them(tmp_path):
    write(tmp_path, 1, [Clue(1), Touch(12)])
    shown = history.game(tmp_path, 1)
    assert shown["words"] is None
    assert shown["turns"][0]["events"] == [event("touch", 12, "blue")]
    assert shown["turns"][0]["events"][0]["name"] == "C3"


def test_a_duo_game_shows_the_covers_and_the_score(tmp_path):
    # Red plays against the shadow team (blue): a bystander ends the turn, the spymaster covers tile 9.
    actions = [Clue(2), Touch(0), Touch(17), Touch(9), Clue(UNLIMITED)] + [Touch(tile) for tile in range(1, 9)]
    write(tmp_path, 1, actions, variant="duo")
    shown = history.game(tmp_path, 1)
    assert [(turn["team"], turn["clue"], [e["kind"] for e in turn["events"]]) for turn in shown["turns"]] == [
        ("red", {"word": None, "count": 2}, ["touch", "touch", "cover"]),  # the cover under the turn it follows
        ("red", {"word": None, "count": "unlimited"}, ["touch"] * 8),
    ]
    assert shown["turns"][0]["events"][2] == {**event("cover", 9, "blue"), "by": "red"}
    assert shown["outcome"] == {"winner": "red", "reason": "agents", "score": 7}
    assert history.games(tmp_path)["games"][0]["score"] == 7


def test_a_duo_game_lost_on_the_shadow_agents_says_so(tmp_path):
    actions = []
    for revealed, covered in ((9, 10), (11, 12), (13, 14), (15, 16)):  # each turn: a shadow agent, then a cover
        actions += [Clue(1), Touch(revealed), Touch(covered)]
    write(tmp_path, 1, actions, variant="duo")
    assert history.game(tmp_path, 1)["outcome"] == {"winner": "blue", "reason": "shadow", "score": None}
    assert history.games(tmp_path)["games"][0]["reason"] == "shadow"


def test_a_penalty_the_cover_after_it_a_skipped_cover_and_a_timeout(tmp_path):
    actions = [Clue(1), Touch(0), Penalty(), Touch(9), Clue(2), Touch(10), Penalty(), EndTurn(), Timeout()]
    write(tmp_path, 1, actions)
    shown = history.game(tmp_path, 1)
    assert shown["turns"] == [
        {"team": "red", "clue": {"word": None, "count": 1},
         "events": [event("touch", 0, "red"), event("penalty"), {**event("cover", 9, "blue"), "by": "blue"}]},
        {"team": "blue", "clue": {"word": None, "count": 2},
         "events": [event("touch", 10, "blue"), event("penalty"), {**event("skip"), "by": "red"}]},
        {"team": "red", "clue": None, "events": [event("timeout")]},
    ]
    assert shown["finished"] is False and shown["key"] is None and shown["outcome"] is None


def test_undone_actions_are_not_shown(tmp_path):
    actions = [Clue(2), Touch(0), Touch(24), Undo(), Touch(1), EndTurn(), Undo(), Undo(), Touch(2)]
    write(tmp_path, 1, actions)
    shown = history.game(tmp_path, 1)
    assert shown["turns"] == [
        {"team": "red", "clue": {"word": None, "count": 2},
         "events": [event("touch", 0, "red"), event("touch", 2, "red")]},
    ]
    assert shown["finished"] is False and shown["key"] is None
    assert history.games(tmp_path)["games"][0]["finished"] is False  # the assassin was taken back


def test_a_clue_word_in_the_record_is_read_and_shown(tmp_path):
    # The record line {"action": "clue", "count": 2, "word": "river"}: read without fail whether the
    # engine's Clue has a word yet or not, and shown once it has.
    path = write(tmp_path, 1, [(Clue(2), {"word": "river"}), Touch(0)])
    assert '"word": "river"' in path.read_text().splitlines()[1]
    shown = history.game(tmp_path, 1)
    has_word = "word" in Clue.__dataclass_fields__
    assert shown["turns"][0]["clue"] == {"word": "river" if has_word else None, "count": 2}


def test_a_clue_with_a_word_shows_it_and_one_without_shows_none(tmp_path):
    @dataclass(frozen=True)
    class WordClue(Clue):  # the engine's coming Clue(count, word=None), whatever the engine has today
        word: str | None = None

    record = read_record(write(tmp_path, 1, [Clue(1), Touch(0), Touch(17), Clue(2)]))
    record.actions[0] = (record.actions[0][0], WordClue(1, "river"))
    _, standing = story.standing(record)
    assert [turn["clue"] for turn in story.turns(standing, None)] == [
        {"word": "river", "count": 1}, {"word": None, "count": 2},
    ]


def test_numbers_that_are_not_there_give_none(tmp_path):
    write(tmp_path, 1, RED_WINS)
    write(tmp_path, None, RED_WINS, name="console.jsonl")  # number -1 inside the shelf: never addressable
    for number in (0, 2, -1, -(10**30), 10**30, 2**63, True):
        assert history.game(tmp_path, number) is None, number
    assert history.game(tmp_path, 1)["number"] == 1


# --- secrecy


def twin(key, revealed):
    """Another key that agrees with ``key`` on the ``revealed`` tiles: two other tiles of different
    identities swapped (None when every other tile has the same identity)."""
    hidden = [tile for tile in range(25) if tile not in revealed]
    pairs = [(first, second) for first in hidden for second in hidden if key[first] is not key[second]]
    if not pairs:
        return None
    first, second = pairs[0]
    identities = list(key.identities)
    identities[first], identities[second] = identities[second], identities[first]
    return Key(tuple(identities), key.start)


def payloads(folder):
    listing = history.games(folder)
    del listing["folder"]
    return json.dumps(listing, sort_keys=True), json.dumps(history.game(folder, 1), sort_keys=True)


def test_an_unfinished_game_shows_nothing_of_its_unrevealed_tiles(tmp_path):
    actions = [Clue(2), Touch(0), Touch(17), Clue(1), Touch(9), Penalty(), Touch(1), Clue(3), Touch(2), Touch(3)]
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    write(mine, 1, actions, words=WORDS, seed=7)
    other = twin(KEY, {0, 17, 9, 1, 2, 3})
    assert other != KEY
    write(theirs, 1, actions, key=other, words=WORDS, seed=8)
    assert payloads(mine) == payloads(theirs)  # byte for byte: nothing depends on the unrevealed tiles
    shown = history.game(mine, 1)
    assert not shown["finished"] and shown["key"] is None
    text = payloads(mine)[1]
    assert KEY.letters not in text and '"seed"' not in text


@dataclass
class Scripted:
    """A random run of legal actions (undos included) on a key; ``touched`` every tile touched."""

    actions: list
    touched: set


def scripted(key, variant, choices):
    game, actions = new_game(key, variant), []
    for choice in choices:
        legal = game.legal_actions()
        if game.is_over or not legal:
            break
        actions.append(legal[choice % len(legal)])
        game.play(actions[-1])
    if game.is_over:
        actions.append(Undo())  # unfinished: the secret is still to keep
    return Scripted(actions, {action.tile for action in actions if isinstance(action, Touch)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 60), max_size=40),
       variant=st.sampled_from(["classic", "duo"]), words=st.booleans())
def test_two_keys_that_agree_on_the_revealed_tiles_give_the_same_history(
    tmp_path_factory, seed, choices, variant, words
):
    key = Key.generate(seed)
    run = scripted(key, variant, choices)
    other = twin(key, run.touched)
    if other is None:
        return
    folder = tmp_path_factory.mktemp("games")
    write(folder / "mine", 1, run.actions, variant, key, WORDS if words else None, seed)
    write(folder / "theirs", 1, run.actions, variant, other, WORDS if words else None, seed + 1)
    mine = payloads(folder / "mine")
    assert mine == payloads(folder / "theirs")
    assert json.loads(mine[1])["key"] is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tail=st.binary(max_size=200), cut=st.integers(0, 400))
def test_damaged_records_never_stop_the_history(tmp_path_factory, tail, cut):
    folder = tmp_path_factory.mktemp("games")
    data = write(folder, 1, UNFINISHED).read_bytes()
    (folder / "game-1.jsonl").write_bytes(data[:cut] + tail)
    listed = history.games(folder)["games"]
    assert len(listed) == 1
    shown = history.game(folder, 1)
    assert shown is None or "turns" in shown or shown["error"].startswith("error.")
    json.dumps(listed), json.dumps(shown)


def test_a_fifo_named_like_a_record_never_hangs_the_history(tmp_path):
    import os
    import threading

    write(tmp_path, 1, [Clue(1)])
    os.mkfifo(tmp_path / "20261102-200000-classic.jsonl")
    answers = []
    reader = threading.Thread(target=lambda: answers.append((history.games(tmp_path), history.game(tmp_path, 1))))
    reader.start()
    reader.join(30)
    assert not reader.is_alive(), "a FIFO hung the history"
    listed, game = answers[0]
    assert [entry["number"] for entry in listed["games"] if entry.get("error") is None] == [1]
    assert game is not None
