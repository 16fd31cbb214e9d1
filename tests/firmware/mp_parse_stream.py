# Runs under MicroPython's unix port (MICROPYPATH=firmware/): the tile
# protocol codec exactly as the Pico runs it. test_tileproto.py writes a
# command file, runs this script on it and compares every answer with what
# CPython computes. Usage:
#
#     micropython mp_parse_stream.py COMMANDS [table]
#
# "table" forces the pure-Python CRC (as on a build without binascii.crc32).
# One command per line, one JSON answer per line on stdout:
#
#     S SIZES HEX   feed the bytes (hex, "-" for none) to a fresh LineReader in
#                   chunks of SIZES (comma-separated, used in turn; 0 = all at
#                   once): {"m": [[word, ...], ...], "d": damaged, "o": overflows}
#     E HEX         encode(payload): the line, as hex
#     D HEX         decode(line): the words, or null
#     N HEX         number(word): its value, or null (ValueError)

import json
import sys
from binascii import hexlify, unhexlify

import tileproto

if len(sys.argv) > 2 and sys.argv[2] == "table":
    tileproto.crc32 = None


def unhex(text):
    return b"" if text == "-" else unhexlify(text)


def words_out(words):
    return None if words is None else [word.decode() for word in words]


def feed(sizes, data):
    reader = tileproto.LineReader()
    messages = []
    if sizes == [0]:
        messages.extend(reader.feed(data))
    else:
        at = 0
        turn = 0
        while at < len(data):
            size = sizes[turn % len(sizes)]
            turn += 1
            messages.extend(reader.feed(data[at : at + size]))
            at += size
    return {"m": [words_out(words) for words in messages], "d": reader.damaged, "o": reader.overflows}


with open(sys.argv[1], "rb") as commands:
    text = commands.read().decode()

for command in text.split("\n"):
    if not command:
        continue
    parts = command.split(" ")
    if parts[0] == "S":
        answer = feed([int(size) for size in parts[1].split(",")], unhex(parts[2]))
    elif parts[0] == "E":
        answer = hexlify(tileproto.encode(unhex(parts[1]))).decode()
    elif parts[0] == "D":
        answer = words_out(tileproto.decode(unhex(parts[1])))
    elif parts[0] == "N":
        try:
            answer = tileproto.number(unhex(parts[1]))
        except ValueError:
            answer = None
    else:
        answer = "bad command"
    print(json.dumps(answer))
