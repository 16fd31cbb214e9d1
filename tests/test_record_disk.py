"""The table on a real, tiny ext4 file system (a loop device): a disk that fills up, and a disk
that turns read-only mid-game as an SD card does after an error (``errors=remount-ro``).

These need root (mount, losetup) and mkfs.ext4; elsewhere they skip, saying why. The faults
are the kernel's own: ENOSPC from ext4's block allocator, EROFS after ext4 aborts its journal
(``/sys/fs/ext4/<device>/trigger_fs_error``, the file system's own test hook).
"""

import errno
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from codenames_board.config import parse
from codenames_board.i18n import Translator
from codenames_board.record import read_record
from codenames_board.table import ButtonDown, ButtonUp, Table
from codenames_board.tileboard import VirtualTileBoard
from patience import PATIENCE_S


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def ext4(tmp_path, need_tool):
    """A 2 MiB ext4 file system mounted at tmp_path / "disk"; yields (mount point, device name)."""
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI runs as root: these tests mount a real tiny file system")
        pytest.skip("mounting a tiny ext4 file system needs root")
    need_tool("mkfs.ext4", "e2fsprogs")
    need_tool("losetup", "mount")
    image, mount = tmp_path / "sd.img", tmp_path / "disk"
    with open(image, "wb") as file:
        file.truncate(2 * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    mount.mkdir()
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(mount)], check=True)
    device = os.path.basename(subprocess.run(["findmnt", "-no", "SOURCE", str(mount)], capture_output=True, text=True, check=True).stdout.strip())
    yield mount, device, image
    subprocess.run(["umount", "-l", str(mount)], check=False)


def make_table(state, seed=7, **options):
    config = parse(f'state_dir = "{state}"\n')
    board = VirtualTileBoard(status_leds=config.tiles.timer_leds + config.tiles.turn_leds)
    table = Table(
        config, Translator("en"), board, Clock(), new_seed=lambda: seed,
        wall_clock=lambda: datetime(2026, 11, 22, 20, 0, 0, tzinfo=timezone.utc), **options,
    )
    table.post = table.handle  # the record's sync thread tells the table at once (no controller here)
    board.on_event = table.handle
    table.start()
    return table, board


def press(table, name):
    table.handle(ButtonDown(name))
    table.handle(ButtonUp(name))


def unrevealed_agent(table):
    return next(tile for tile in table.game.key.agents(table.game.turn) if not table.game.is_revealed(tile))


def touch_and_take_back(table, board):
    """One touch, then UNDO (asked, confirmed): two record lines that leave the game as it was. A touch the
    full disk refused is not taken back (the UNDO would take back the clue, should its shorter line fit)."""
    before = len(table.game.actions)
    board.tap(unrevealed_agent(table))
    if len(table.game.actions) == before:
        return
    press(table, "undo")
    press(table, "clue_confirm")


def fill(folder: Path) -> Path:
    """Fill the file system with a file until the kernel says it is full."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as file:
        try:
            while True:
                file.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


def test_a_disk_that_fills_up_refuses_actions_and_the_game_goes_on_once_there_is_room(ext4):
    mount, _, _ = ext4
    table, board = make_table(mount / "state")
    press(table, "clue_confirm")  # a clue of 1
    filler = fill(mount)
    accepted = 0
    for _ in range(2000):  # the record's last block fills up, then a line needs a new one
        touch_and_take_back(table, board)
        if table.ui.notices and table.ui.notices[-1].msgid == "notice.record_unwritable":
            break
        accepted += 1
    else:
        pytest.fail("the disk never said it was full")
    assert accepted > 0
    notice = table.ui.notices[-1]
    assert dict(notice.params)["why"] == "the disk is full"
    # Whatever was refused (a touch, or the UNDO after it), memory and disk still agree.
    assert table.writer.wait_synced(timeout=PATIENCE_S)
    assert read_record(table.writer.path).replay().state() == table.game.state()
    filler.unlink()  # room again
    board.tap(unrevealed_agent(table))
    assert table.ui.notices[-1].msgid == "notice.record_saved"
    state = table.game.state()
    assert table.writer.wait_synced(timeout=PATIENCE_S)
    table.close()
    again, _ = make_table(mount / "state")  # a restart resumes the very same game
    assert again.game.state() == state
    record = read_record(again.writer.path)
    assert record.torn_line is None
    again.close()


def test_an_sd_card_that_turns_read_only_mid_game_loses_nothing_that_was_saved(ext4):
    mount, device, image = ext4
    table, board = make_table(mount / "state")
    press(table, "clue_up")
    press(table, "clue_confirm")  # a clue of 2
    board.tap(unrevealed_agent(table))
    assert table.writer.wait_synced(timeout=PATIENCE_S)
    saved = table.game.state()
    Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("1\n")  # ext4 aborts: read-only from now on
    board.tap(unrevealed_agent(table))
    assert table.game.state() == saved  # refused: never shown
    assert dict(table.ui.notices[-1].params)["why"] == "the disk is read-only"
    table.close()  # a last repair fails (read-only) and says so in the log; nothing raises
    # The Pi restarts: the card is checked and mounted again.
    subprocess.run(["umount", str(mount)], check=True)
    subprocess.run(["e2fsck", "-p", "-f", str(image)], check=False)
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(mount)], check=True)
    again, _ = make_table(mount / "state")
    assert again.game.state() == saved
    again.close()


def test_a_word_redealt_on_a_card_that_turned_read_only_is_refused_and_the_record_keeps_the_old_words(ext4):
    from codenames_board.deal import Deal
    from codenames_board.gestures import Intent

    mount, device, image = ext4
    deal = Deal(7, [f"word{n}" for n in range(60)])
    table, _ = make_table(mount / "state", deal_words=deal.words, another_word=deal.another)
    table.handle(Intent(("redeal", 0)))  # one works
    words = list(table.words)
    assert read_record(table.writer.path).header.words == words
    Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("1\n")  # read-only from now on
    table.handle(Intent(("redeal", 1)))
    assert table.words == words
    assert table.ui.notices[-1].msgid == "notice.redeal_unsaved"
    assert dict(table.ui.notices[-1].params)["why"] == "the disk is read-only"
    table.close()
    subprocess.run(["umount", str(mount)], check=True)
    subprocess.run(["e2fsck", "-p", "-f", str(image)], check=False)
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(mount)], check=True)
    again, _ = make_table(mount / "state", deal_words=deal.words, another_word=deal.another)
    assert again.words == words  # the word that was shown before the fault; the refused one never was
    assert read_record(again.writer.path).header.extra["redealt"] == 1
    again.close()
