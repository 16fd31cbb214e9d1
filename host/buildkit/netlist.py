"""The circuit (``circuit.build``) as a KiCad netlist: the S-expression format Eeschema exports
(version "E"), which Pcbnew reads with File > Import > Netlist.

Every part is a ``comp``; a part off the tile board has no footprint and says where it is in
its ``Where`` field, so a board drawn from the netlist gets the tile board's parts only. The
``tstamps`` are fixed UUIDs made from the references: the same input gives the same bytes.
"""

from __future__ import annotations

import uuid

from .circuit import Circuit
from .drawing import GENERATED

NAMESPACE = uuid.UUID("4c2f7d1e-5b1a-4f0e-9f57-0a8c1d3e2b64")  # this project's, for the tstamps


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tstamp(ref: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"codenames-board/{ref}"))


def netlist(circuit: Circuit, title: str = "codenames-board tile board and Pi wiring") -> str:
    """The netlist's text, one item a line, indented as KiCad writes it."""
    lines = [
        '(export (version "E")',
        "  (design",
        f"    (source {quote('wiring/codenames-board.net')})",
        f"    (tool {quote(GENERATED.replace('`', ''))})",
        '    (sheet (number "1") (name "/") (tstamps "/")',
        "      (title_block",
        f"        (title {quote(title)})",
        '        (company "codenames-board")',
        "        (source \"host/buildkit/circuit.py\")",
        '        (comment (number "1") (value "Parts without a footprint are off the tile board: see their Where field.")))))',
        "  (components",
    ]
    for part in circuit.parts:
        lines += [
            f"    (comp (ref {quote(part.ref)})",
            f"      (value {quote(part.value)})",
            f"      (footprint {quote(part.footprint)})",
            '      (datasheet "~")',
            "      (fields",
            f'        (field (name "Where") {quote(part.place)})',
            f'        (field (name "Parts list") {quote(part.bom)})'
            + (f'\n        (field (name "Note") {quote(part.note)})' if part.note else "")
            + ")",
            '      (sheetpath (names "/") (tstamps "/"))',
            f"      (tstamps {quote(_tstamp(part.ref))}))",
        ]
    lines[-1] += ")"
    lines.append("  (nets")
    for code, net in enumerate(circuit.nets, 1):
        lines.append(f"    (net (code {quote(str(code))}) (name {quote(net.name)})")
        for ref, number in net.nodes:
            function = circuit.part(ref).name_of(number)
            lines.append(f"      (node (ref {quote(ref)}) (pin {quote(number)}) (pinfunction {quote(function)}) (pintype \"passive\"))")
        lines[-1] += ")"
    lines[-1] += "))"
    return "\n".join(lines) + "\n"
