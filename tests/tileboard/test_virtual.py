"""The virtual tile board: records frames, touches tiles, unplugs and replugs like the real one."""

import pytest

from codenames_board.tileboard import (
    BoardConnected,
    BoardDisconnected,
    TileTouched,
    VirtualTileBoard,
    open_tileboard,
)


def test_it_records_every_frame_and_says_what_a_tile_shows():
    board = VirtualTileBoard()
    red = bytes([255, 0, 0]) + bytes(3 * 36)
    board.show(red)
    board.show(bytes(111))
    assert board.frames[1:] == [red, bytes(111)]  # frames[0]: the dark frame sent on plugging in
    assert board.tile_colour(0, board.frames[1]) == (255, 0, 0)
    assert board.tile_colour(0) == (0, 0, 0)


def test_touches_become_events_once_per_edge():
    events = []
    board = VirtualTileBoard(on_event=events.append)
    board.press(3)
    board.press(3)
    board.release(3)
    board.tap(24)
    assert [event for event in events if isinstance(event, TileTouched)] == [
        TileTouched(3, True),
        TileTouched(3, False),
        TileTouched(24, True),
        TileTouched(24, False),
    ]
    with pytest.raises(ValueError, match="no tile 25"):
        board.press(25)


def test_unplugged_it_shows_nothing_and_hears_nothing_then_resends_the_last_frame():
    events = []
    board = VirtualTileBoard(on_event=events.append)
    frame = bytes([0, 0, 255]) * 37
    board.show(frame)
    board.unplug()
    board.show(bytes([9, 9, 9]) * 37)
    board.press(4)
    shown = len(board.frames)
    board.plug()
    assert board.frames[shown:] == [bytes([9, 9, 9]) * 37]  # the host's latest frame, re-sent
    assert [type(event) for event in events] == [BoardConnected, BoardDisconnected, BoardConnected]


def test_open_tileboard_picks_the_driver_by_name(monkeypatch):
    assert isinstance(open_tileboard("virtual"), VirtualTileBoard)
    monkeypatch.setenv("CODENAMES_TILEBOARD", "virtual")
    assert isinstance(open_tileboard(), VirtualTileBoard)
    with pytest.raises(ValueError, match="use one of serial, virtual"):
        open_tileboard("carrier-pigeon")


def test_close_is_safe_twice_and_repr_says_closed():
    board = VirtualTileBoard()
    assert "connected" in repr(board)
    board.close()
    board.close()
    assert "closed" in repr(board)
