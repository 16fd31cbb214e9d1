# Maintenance: the host puts new firmware files on the board over the tile
# protocol (PROTOCOL.md, "Maintenance"), no REPL needed. app.py imports this
# only when MAINT arrives: start-up and the game loop's memory stay as they were.
#
# A file arrives as NAME.new in DATA lines (each one checked by its line's
# CRC and answered GOT); its CRC-32 must then match the one PUT announced.
# Nothing the board runs is replaced before COMMIT, so a transfer cut
# anywhere before it leaves the old firmware whole (the .new files go at the
# next MAINT, HELLO or silence). COMMIT writes a journal (the identity, then
# the names) beside the files and renames it into place in one step, renames
# every NAME.new over NAME (main.py last), writes the identity file, removes
# the journal and resets; a start that finds the journal (a power cut in the
# middle) finishes it with finish().
# MAINT announces the bytes of all the files: a PUT that would take more
# than is left is refused, so the status LEDs' progress never passes it.

import os
from binascii import a2b_base64, crc32

from board import IDENTITY_FILE
from tileproto import message, number

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

VERSION = const(1)  # of the maintenance messages
MAX_DATA = const(256)  # file bytes in one DATA line: 344 base64 characters
MAX_FILE = const(65536)  # bytes in one file
SILENT_MS = const(5000)  # no line for this long: maintenance ends, the old firmware plays on
WAIT_MS = const(100)  # the watchdog (2 s) is fed at least this often
JOURNAL = "fwcommit.txt"
_NAME_CHARS = b"abcdefghijklmnopqrstuvwxyz0123456789_"
_HEX = b"0123456789abcdef"  # PUT's CRC and COMMIT's identity: lower-case hex only
_AMBER = b"\xff\x80\x00"  # the status LEDs fill with it as the files arrive


def _name_ok(name):
    stem = name[:-3]
    return name.endswith(b".py") and 0 < len(stem) <= 24 and all(byte in _NAME_CHARS for byte in stem)


def _replace(source, target):
    """Rename source over target (LittleFS and POSIX replace; a file system that will not: remove first)."""
    try:
        os.rename(source, target)
    except OSError:
        os.remove(target)
        os.rename(source, target)


def _remove(name):
    try:
        os.remove(name)
    except OSError:
        pass


def remove_leftovers():
    """Every NAME.new a cut transfer left (the firmware it would have replaced stays)."""
    for name in os.listdir():
        if name.endswith(".new"):
            _remove(name)


def finish():
    """Carry out the journal: each NAME.new still there over NAME, the identity file, the journal gone."""
    with open(JOURNAL) as journal:
        lines = journal.read().split("\n")
    for name in lines[1:]:
        try:
            os.stat(name + ".new")
        except OSError:
            continue  # renamed before the cut (or nothing to do)
        _replace(name + ".new", name)
    with open(IDENTITY_FILE + ".new", "w") as identity:
        identity.write(lines[0] + "\n")
    _replace(IDENTITY_FILE + ".new", IDENTITY_FILE)
    os.remove(JOURNAL)


class Maintenance:
    """Takes files for one MAINT session of ``app`` (a TileApp); ``total`` bytes are announced."""

    def __init__(self, app, total):
        self.app = app
        self.total = total
        self.done = 0  # bytes of the files kept and of the one arriving: at most total
        self.lit = -1  # status LEDs lit for that
        self.files = {}  # name: size, of the files complete and checked as NAME.new
        self.name = None  # the file being received
        self.file = None
        self.size = 0
        self.crc = 0  # what PUT announced
        self.running = 0  # CRC-32 of what arrived
        self.got = 0

    def run(self):
        """Answer lines until COMMIT (which resets the board), HELLO (returned: the game loop
        answers it) or SILENT_MS of silence (None)."""
        app, link = self.app, self.app.link
        remove_leftovers()
        self.progress()
        self.send("MAINT", VERSION, MAX_DATA)
        heard = app.ticks_ms()
        while not (link.closed or app.stopped):
            for words in link.receive():
                heard = app.ticks_ms()
                if words[0] == b"HELLO":
                    self.end()
                    return words
                self.handle(words)
            link.flush()
            if app.feed is not None:
                app.feed()
            if app.diff(app.ticks_ms(), heard) >= SILENT_MS:
                break
            link.wait(WAIT_MS)
        self.end()
        return None

    def send(self, *fields):
        self.app.link.send(message(*fields))

    def refuse(self, why, *detail):
        self.send("ERROR", "maint", why, *detail)

    def handle(self, words):
        kind = words[0]
        try:
            if kind == b"PUT":
                crc = words[3]
                if len(crc) != 8 or any(byte not in _HEX for byte in crc):
                    raise ValueError
                self.put(words[1], number(words[2]), int(crc, 16))
            elif kind == b"DATA":
                self.data(number(words[1]), a2b_base64(words[2]))
            elif kind == b"COMMIT":
                self.commit(words[1])
            elif kind != b"BEAT":  # a BEAT only keeps the session alive
                self.refuse("refused", kind)
        except (IndexError, ValueError):  # binascii's base64 error is a ValueError too
            self.refuse("syntax", kind)
        except OSError as error:  # the flash is full or failing
            self.drop()
            self.refuse("write", self.name or "-", error.args[0] if error.args else 0)

    def put(self, name, size, crc):
        self.drop()
        self.name = None  # a new PUT ends the last file: a DATA now is this one's, or refused
        if not _name_ok(name):
            self.refuse("name", name)
            return
        name = name.decode()
        others = self.done - self.files.get(name, 0)  # a file sent again replaces its first copy
        if size > MAX_FILE or others + size > self.total:
            self.refuse("size", name, size)
            return
        if name in self.files:
            del self.files[name]
            self.done = others
            self.progress()
        self.name, self.size, self.crc, self.running, self.got = name, size, crc, 0, 0
        self.file = open(name + ".new", "wb")
        if size:
            self.send("GOT", name, 0)
        else:
            self.complete()

    def data(self, offset, chunk):
        count = len(chunk)
        if not 0 < count <= MAX_DATA:
            raise ValueError
        elif self.name is not None and offset + count == self.got and offset < self.got:
            self.send("GOT", self.name, self.got)  # a repeat (the last file's too): the host missed our GOT
        elif self.file is None:
            self.refuse("state", "DATA")
        elif offset != self.got:
            self.refuse("offset", self.name, self.got)
        elif offset + count > self.size:
            self.refuse("size", self.name, offset + count)
        else:
            self.file.write(chunk)
            self.running = crc32(chunk, self.running)
            self.got += count
            self.done += count
            self.progress()
            if self.got == self.size:
                self.complete()
            else:
                self.send("GOT", self.name, self.got)

    def complete(self):
        """The file is all there: checked against PUT's CRC, kept as NAME.new, or dropped."""
        name = self.name
        self.file.close()
        self.file = None
        if self.running & 0xFFFFFFFF != self.crc:
            _remove(name + ".new")
            self.done -= self.size
            self.progress()
            self.refuse("crc", name)
            self.name = None
        else:
            self.files[name] = self.size
            self.send("GOT", name, self.size)  # self.name stays: a repeat of the last DATA is answered again

    def commit(self, identity):
        if self.file is not None:
            self.refuse("missing", self.name)
            return
        if not self.files:
            self.refuse("missing", "-")
            return
        if not 0 < len(identity) <= 16 or any(byte not in _HEX for byte in identity):
            raise ValueError
        names = [name for name in self.files if name != "main.py"]
        if "main.py" in self.files:
            names.append("main.py")  # last: a board cut off here still starts the old main.py
        with open(JOURNAL + ".new", "w") as journal:
            journal.write(identity.decode() + "\n" + "\n".join(names) + "\n")
        _replace(JOURNAL + ".new", JOURNAL)
        self.files = {}
        app = self.app
        if app.feed is not None:
            app.feed()  # a fresh 2 s for the renames
        finish()
        self.send("DONE", identity)
        link = app.link
        for _ in range(50):  # DONE must leave before the reset: at most 50 x WAIT_MS
            link.flush()
            if not link.queued:
                break
            link.wait(WAIT_MS)
        if app.reset is not None:
            app.reset()
        app.stopped = True  # no reset (a test's TileApp): the loop ends

    def drop(self):
        """Forget the file being received (its NAME.new goes)."""
        if self.file is not None:
            self.file.close()
            self.file = None
            _remove(self.name + ".new")
            self.done -= self.got
            self.progress()

    def end(self):
        self.drop()
        if self.files:
            self.files = {}
            remove_leftovers()

    def progress(self):
        leds = self.app.leds
        tiles, count = self.app.tiles, leds.count
        lit = (count - tiles) * self.done // self.total
        if lit == self.lit:
            return
        self.lit = lit
        frame = leds.frame
        frame[:] = bytes(len(frame))
        for led in range(tiles, tiles + lit):
            frame[3 * led : 3 * led + 3] = _AMBER
        if lit < count - tiles:  # the next LED glows dim: maintenance shows from the start
            frame[3 * (tiles + lit)] = 0x40
            frame[3 * (tiles + lit) + 1] = 0x20
        leds.show(frame)
