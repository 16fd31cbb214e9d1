"""The schematic, the KiCad netlist and the perfboard layout: read back from the generated files
and checked against the pin tables (config, firmware/board.py, the level shifter's table in
wiring/README.md, electrical.buzzer_driver()), not against the model that made them."""

import csv
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from codenames_firmware import board

from buildkit import circuit, electrical, perfboard, wiring
from codenames_board.config import parse

ROOT = Path(__file__).resolve().parents[2]
# The header pins, written out again here on purpose (the Raspberry Pi's and the Pico's pinouts).
PI_PIN_OF_GPIO = {5: 29, 6: 31, 13: 33, 19: 35, 26: 37, 16: 36, 20: 38, 12: 32, 21: 40, 17: 11, 4: 7}
PI_GROUNDS = {6, 9, 14, 20, 25, 30, 34, 39}
PICO_PIN_OF_GP = {4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 16: 21, 22: 29}  # the Pico datasheet's pinout
TILES = [f"{row}{column}" for row in "ABCDE" for column in range(1, 6)]


def read_sexpr(text):
    """A small S-expression reader: lists of atoms and quoted strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+', text)
    stack = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token[1:-1].replace('\\"', '"') if token.startswith('"') else token)
    assert len(stack) == 1 and len(stack[0]) == 1
    return stack[0][0]


def items(node, key):
    return [child for child in node[1:] if isinstance(child, list) and child and child[0] == key]


def item(node, key):
    found = items(node, key)
    assert len(found) == 1, (key, node)
    return found[0]


class Netlist:
    def __init__(self, text):
        root = read_sexpr(text)
        assert root[0] == "export" and item(root, "version")[1] == "E"
        self.parts = {}
        for comp in items(item(root, "components"), "comp"):
            fields = {field[1][1]: field[2] for field in items(item(comp, "fields"), "field")}
            self.parts[item(comp, "ref")[1]] = {
                "value": item(comp, "value")[1], "footprint": item(comp, "footprint")[1], **fields
            }  # fmt: skip
        self.nets = {}
        for net in items(item(root, "nets"), "net"):
            nodes = {(item(node, "ref")[1], item(node, "pin")[1]): item(node, "pinfunction")[1] for node in items(net, "node")}
            self.nets[item(net, "name")[1]] = nodes

    def net_of(self, ref, pin):
        found = [name for name, nodes in self.nets.items() if (ref, str(pin)) in nodes]
        assert len(found) <= 1
        return found[0] if found else None

    def pin(self, ref, function):
        found = [pin for name, nodes in self.nets.items() for (r, pin), f in nodes.items() if r == ref and f == function]
        assert len(found) == 1, (ref, function, found)
        return found[0]

    def ref_of(self, value_start):
        found = [ref for ref, part in self.parts.items() if part["value"].startswith(value_start)]
        assert len(found) == 1, (value_start, found)
        return found[0]


def netlist_of(config=None, pin_table=None):
    return Netlist(wiring.generate(config, pin_table)["codenames-board.net"])


@pytest.fixture(scope="module")
def net():
    return Netlist((ROOT / "wiring" / "codenames-board.net").read_text("utf-8"))


def pico_node(pin):
    return ("J1", str(pin)) if pin <= 20 else ("J2", str(pin - 20))


def test_every_electrode_reaches_the_pad_of_its_tile(net):
    for tile, (controller, electrode) in enumerate(board.PADS):
        address = board.MPR121S[controller][1]
        socket = net.ref_of(f"MPR121 {controller + 1} (0x{address:02X}) electrodes")
        name = net.net_of(socket, net.pin(socket, f"E{electrode}"))
        pads = [ref for (ref, _pin), function in net.nets[name].items() if function == TILES[tile] and net.parts[ref]["Where"] != "tile board"]
        assert len(pads) == 1, (TILES[tile], net.nets[name])
        assert len(net.nets[name]) == 3  # the electrode, the wire's hole, the pad


def test_i2c_power_and_addresses_follow_the_pin_table(net):
    three = net.net_of(*pico_node(36))  # 3V3(OUT)
    expected_addr = {0x5A: "GND", 0x5B: three}  # a supply rail only: never SDA or SCL (0x5C, 0x5D)
    irqs = set()
    for index, (bus, address, irq) in enumerate(board.MPR121S):
        sda, scl = (net.net_of(*pico_node(PICO_PIN_OF_GP[gp])) for gp in board.I2C_PINS[bus])
        socket = net.ref_of(f"MPR121 {index + 1} (0x{address:02X}) power")
        assert net.net_of(socket, net.pin(socket, "SDA")) == sda
        assert net.net_of(socket, net.pin(socket, "SCL")) == scl
        assert net.net_of(socket, net.pin(socket, "VIN")) == three
        assert net.net_of(socket, net.pin(socket, "ADDR")) == expected_addr[address]
        line = net.net_of(socket, net.pin(socket, "IRQ"))  # its own Pico pin, and nothing else on it
        assert line == net.net_of(*pico_node(PICO_PIN_OF_GP[irq])) and len(net.nets[line]) == 2
        irqs.add(line)
    assert len(irqs) == len(board.MPR121S)
    for bus, (sda_gp, _) in enumerate(board.I2C_PINS):  # each bus: its boards' SDA and the Pico's, no other
        sda = net.net_of(*pico_node(PICO_PIN_OF_GP[sda_gp]))
        assert len(net.nets[sda]) == 1 + sum(1 for on, _, _ in board.MPR121S if on == bus)


def test_every_button_reaches_its_pi_pin_and_ground(net):
    config = parse("")
    for key in ("sand_timer", "end_turn", "clue_down", "clue_up", "clue_confirm", "undo", "new_game"):
        pin = PI_PIN_OF_GPIO[getattr(config.pins, key)]
        name = net.net_of("A1", pin)
        buttons = [ref for ref, _ in net.nets[name] if ref.startswith("SW")]
        assert len(buttons) == 1 and len(net.nets[name]) == 2, (key, net.nets[name])
        assert net.net_of(buttons[0], "2") == "GND"


def test_gnd_joins_every_ground_pin(net):
    grounds = {(ref, pin) for ref, pin in net.nets["GND"]}
    for ref, part in net.parts.items():
        for name, nodes in net.nets.items():
            for (r, pin), function in nodes.items():
                if r == ref and function in ("GND", "VSS", "-", "COM", "E") and part["value"] != "buzzer":  # its - is the coil's
                    assert name == "GND", (ref, pin, function)
    assert {pin for ref, pin in grounds if ref == "A1"} <= {str(pin) for pin in PI_GROUNDS}
    assert {pico_node(8), pico_node(23)} <= grounds


def test_the_level_shifter_is_wired_as_the_readme_says(net):
    readme = (ROOT / "wiring" / "README.md").read_text("utf-8")
    table = readme.split("### The level shifter")[1].split("\n\n")[2]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        for pin in cells[0].split(", "):
            rows[pin] = cells[2]
    led = net.net_of(*pico_node(PICO_PIN_OF_GP[board.LED_PIN]))
    for pin, to in rows.items():
        here = net.net_of("U1", pin)
        if to.startswith("GND") or to == "the common ground":
            assert here == "GND", pin
        elif to.startswith("VCC") or to.startswith("the LED supply's 5 V"):
            assert here == "+5V_LED", pin
        elif to == "nothing":
            assert here is None, pin
        elif pin == "2":
            assert here == led and any(ref.startswith("R") and net.parts[ref]["value"] == "10k" for ref, _ in net.nets[here])
        elif pin == "3":
            (resistor,) = [ref for ref, _ in net.nets[here] if ref != "U1"]
            assert net.parts[resistor]["value"] == "330"
            other = net.net_of(resistor, "2" if (resistor, "1") in net.nets[here] else "1")
            assert ("J13", "2") in net.nets[other] and any(f == "DIN" for f in net.nets[other].values())
    capacitor = [ref for ref, _ in net.nets["+5V_LED"] if net.parts[ref]["value"] == "100n"]
    assert capacitor and net.net_of(capacitor[0], "2") == "GND"


def test_the_buzzer_stage_matches_the_computed_driver(net):
    d = electrical.buzzer_driver()
    buzzer = net.net_of("A1", PI_PIN_OF_GPIO[parse("").pins.buzzer])
    (base_resistor,) = [ref for ref, _ in net.nets[buzzer] if ref.startswith("R")]
    assert net.parts[base_resistor]["value"] == f"{d.base_ohms / 1000:g}k"
    transistor = net.ref_of(d.transistor.name)
    base = net.net_of(transistor, "2")
    assert (base_resistor, "1") in net.nets[buzzer] and (base_resistor, "2") in net.nets[base]
    assert net.net_of(transistor, "3") == "GND"
    collector = net.net_of(transistor, "1")
    (series,) = [ref for ref, _ in net.nets[collector] if ref.startswith("R")]
    assert net.parts[series]["value"] == f"{d.series_ohms:g} {d.series_watts:g}W"
    coil = net.net_of(series, "1")
    diode = net.ref_of(electrical.FLYBACK.name)
    assert net.net_of(diode, "2") == coil  # the anode at the coil's low end
    assert net.net_of(diode, "1") == "+5V_LED"  # the cathode (ring) at 5 V: the LED supply's, on the tile board
    assert net.net_of("LS1", "1") == "+5V_LED" and net.net_of("LS1", "2") == coil
    # its legs on the perfboard's 2.54 mm holes: the wide TO-92 footprint (the narrow one's pads are 1.27 mm apart)
    assert net.parts[transistor]["footprint"].endswith("TO-92_Inline_Wide")
    # the display's ribbon covers the Pi's 5 V pins: nothing else takes them, and only two wires come from the Pi
    assert net.net_of("A1", 2) == net.net_of("A1", 4) == "+5V_PI"
    assert {ref for ref, _ in net.nets["+5V_PI"]} == {"A1", "DS1"}
    (wires,) = [ref for ref, _ in net.nets[buzzer] if ref.startswith("J")]
    assert {function for nodes in net.nets.values() for (ref, _), function in nodes.items() if ref == wires} == {"BUZZER", "GND"}


def test_no_net_is_a_single_pin_unless_it_leaves_the_board(net):
    singles = {name for name, nodes in net.nets.items() if len(nodes) < 2}
    assert singles == {"LED_DOUT"}


def test_every_part_is_in_the_parts_list_with_enough_of_it(net):
    with open(ROOT / "hardware" / "bom.csv", encoding="utf-8") as rows:
        bom = {row["part"]: float(row["quantity"]) for row in csv.DictReader(rows)}
    model = circuit.build(parse(""), board)
    needed = {}
    for part in model.parts:
        assert part.bom in bom, (part.ref, part.bom)
        assert net.parts[part.ref]["Parts list"] == part.bom
        needed[part.bom] = needed.get(part.bom, 0) + part.bom_share
    for row, amount in needed.items():
        assert amount <= bom[row] + 1e-9, (row, amount, bom[row])


def test_the_header_strips_hold_every_socket_with_a_pin_lost_at_each_cut():
    model = circuit.build(parse(""), board)
    pieces = sorted((len(part.pins) for part in model.parts if part.bom == "female header strip"), reverse=True)
    per_breakout = len(circuit.MPR121_CONTROL) + len(circuit.MPR121_ELECTRODES)
    assert sum(pieces) == 2 * 20 + len(board.MPR121S) * per_breakout
    strips: list[int] = []  # first fit, longest first; every piece after a strip's first costs the pin its cut destroys
    for piece in pieces:
        for index, used in enumerate(strips):
            if used + 1 + piece <= 40:
                strips[index] += 1 + piece
                break
        else:
            strips.append(piece)
    with open(ROOT / "hardware" / "bom.csv", encoding="utf-8") as rows:
        row = next(row for row in csv.DictReader(rows) if row["part"] == "female header strip")
    assert int(row["quantity"]) == len(strips) and "1 x 40" in row["example"]
    assert f"{sum(pieces)} pins in {len(pieces)} pieces" in row["notes"] and f"{len(strips)} x 40" in row["notes"]
    assert f"{len(circuit.MPR121_CONTROL)} pins" in row["notes"] and f"{len(circuit.MPR121_ELECTRODES)}: the 12 electrodes" in row["notes"]


def test_every_connectors_wire_ends_on_its_own_net():
    model = circuit.build(parse(""), board)
    for part in model.parts:
        if part.leads:
            # a wire on every pin but those left free (the DC jack's switch lug), which come last
            assert len(part.leads) == len([n for n, _ in part.pins if model.net_at(part.ref, n)]), part.ref
            for (number, _), far in zip(part.pins, part.leads):
                assert model.net_at(part.ref, number) == model.net_at(*far), (part.ref, number, far)
                assert model.part(far[0]).place != circuit.TILE_BOARD


def test_the_resistors_footprints_are_their_pitch_on_the_perfboard():
    model = circuit.build(parse(""), board)
    places = {place.ref: place for place in perfboard.placements(model)}
    for part in model.parts:
        if part.footprint.startswith("Resistor_THT:"):
            pitch = float(re.search(r"_P([\d.]+)mm_", part.footprint)[1])
            (a, b) = places[part.ref].pins.values()
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == round(pitch / perfboard.PITCH), part.ref
    half_watt = [p for p in electrical.TILE_BOARD_PARTS if p.name.startswith("resistor, 0.5 W")]
    quarter = [p for p in electrical.TILE_BOARD_PARTS if p.name.startswith("resistor, 1/4 W")]
    on_board = [p for p in model.parts if p.place == circuit.TILE_BOARD and p.footprint.startswith("Resistor_THT:")]
    assert sum(p.count for p in half_watt) == sum("DIN0309" in p.footprint for p in on_board) == 1
    assert sum(p.count for p in quarter) == sum("DIN0207" in p.footprint for p in on_board)
    assert "12.7 mm" in half_watt[0].source


def test_tile_board_parts_have_kicad_footprints_and_the_others_none(net):
    for ref, part in net.parts.items():
        if part["Where"] == "tile board":
            assert re.fullmatch(r"[A-Za-z_0-9.]+:[A-Za-z_0-9.,\-]+", part["footprint"]), ref
        else:
            assert part["footprint"] == "", ref


def test_a_moved_pin_moves_in_the_netlist():
    moved = netlist_of(config=parse("[pins]\nundo = 17\n"))
    assert moved.net_of("A1", 11) == "UNDO" and moved.net_of("A1", 36) is None
    import types

    table = types.SimpleNamespace(**{name: getattr(board, name) for name in dir(board) if name.isupper()})
    table.LED_PIN = 22
    moved = netlist_of(pin_table=table)
    assert moved.net_of(*pico_node(29)) == "LED_DATA_3V3" and moved.net_of(*pico_node(21)) is None


def test_the_perfboard_layout_has_no_overlap_and_places_every_tile_board_part():
    model = circuit.build(parse(""), board)
    assert perfboard.check(model) == []
    placed = {place.ref for place in perfboard.placements(model)}
    assert placed == {part.ref for part in model.parts if part.place == circuit.TILE_BOARD}
    assert perfboard.BOARD == tuple(sorted(electrical.perfboard(), reverse=True))


def test_the_perfboard_links_join_every_on_board_net():
    model = circuit.build(parse(""), board)
    where = {place.ref: place.pins for place in perfboard.placements(model)}
    links = perfboard.links(model)
    for net in model.nets:
        spots = {where[ref][pin] for ref, pin in net.nodes if ref in where}
        groups = {spot: {spot} for spot in spots}
        for name, a, b in links:
            if name == net.name:
                joined = groups[a] | groups[b]
                for spot in joined:
                    groups[spot] = joined
        assert len({frozenset(group) for group in groups.values()}) <= 1, net.name


def test_a_pad_wire_lands_at_the_top_edge_above_its_electrode():
    model = circuit.build(parse(""), board)
    places = {place.ref: place for place in perfboard.placements(model)}
    for ref in ("J9", "J10", "J11"):
        for pin, (column, row) in places[ref].pins.items():
            assert row == 3 and (column, 2) in places[ref].relief


def test_the_mounting_holes_leave_room_for_the_standoffs_and_the_first_layouts_corners_did_not(monkeypatch):
    model = circuit.build(parse(""), board)
    assert perfboard.mount_problems(model) == []
    # the first layout: J13 reached the corner (the screw head on the terminal block) and tile A1's pad wire's
    # strain-relief hole sat 2.5 mm from the hole drilled at B2
    first = perfboard.placements(model)
    moved = {"J13": (41, 29), "J9": (3, 3)}
    shifted = []
    for place in first:
        if place.ref in moved:
            dx = moved[place.ref][0] - min(c for c, _ in place.pins.values())
            pins = {n: (c + dx, r) for n, (c, r) in place.pins.items()}
            relief = tuple((c + dx, r) for c, r in place.relief)
            body = (place.body[0] + dx, place.body[1], place.body[2] + dx, place.body[3])
            place = perfboard.Placement(place.ref, pins, body, place.round, relief, place.under)
        shifted.append(place)
    problems = perfboard.mount_problems(model, shifted)
    assert any("AD46: its screw head sits on J13" in p for p in problems), problems
    assert any("B2 is 2.5 mm from J9's hole B3" in p for p in problems), problems
    text = wiring.generate()["README.md"]
    assert f"drill out the four mounting holes B2, B46, AD2, AD46 to {perfboard.MOUNT_DRILL:g} mm" in text


def test_a_strain_relief_hole_is_drilled_to_take_the_insulated_wire_and_the_rows_say_so():
    # 24 AWG over its insulation does not pass a perfboard's 1 mm hole; the drill leaves board between neighbours
    assert perfboard.WIRE_OD_MAX < perfboard.RELIEF_DRILL < perfboard.PITCH - 0.5
    model = circuit.build(parse(""), board)
    places = {place.ref: place for place in perfboard.placements(model)}
    relieved = [ref for ref, place in places.items() if place.relief]
    assert {"J9", "J10", "J11", "J14", "J15"} <= set(relieved)
    text = wiring.generate()["README.md"]
    # the first such row says how, once; every other row points back to it
    first, *others = relieved
    row = next(line for line in text.splitlines() if line.startswith(f"| {first} |"))
    assert f"drilled out to {perfboard.RELIEF_DRILL:g} mm" in row, first
    for ref in others:
        row = next(line for line in text.splitlines() if line.startswith(f"| {ref} |"))
        assert f"Each wire as {first}'s, through row " in row, ref


def test_the_drawings_are_svg_and_name_every_part():
    files = wiring.generate()
    for name in ("schematic.svg", "perfboard.svg"):
        root = ElementTree.fromstring(files[name])
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = " ".join(ElementTree.fromstring(files["schematic.svg"]).itertext())
    for part in circuit.build(parse(""), board).parts:
        assert part.ref in text, part.ref
    assert all(tile in text for tile in TILES)


def _holes(model):
    """hole -> its net's name (or the part's ref, for a pin on no net and a strain-relief hole)."""
    out = {}
    for place in perfboard.placements(model):
        for number, spot in place.pins.items():
            net = model.net_at(place.ref, number)
            out[spot] = net.name if net else place.ref
        for spot in place.relief:
            out[spot] = place.ref
    return out


def _wire_faults(model, wires):
    """What is wrong with a list of wires under the board, checked from the placements and the nets alone."""
    holes = _holes(model)
    faults = []
    for wire in wires:
        for end in (wire.a, wire.b):
            if holes.get(end) != wire.net:
                faults.append(f"{wire.net}: {perfboard.hole_name(end)} is on {holes.get(end)}")
        if wire.kind not in (perfboard.BARE, perfboard.THIN_WIRE, perfboard.TRUNK_WIRE):
            faults.append(f"{wire.net}: {wire.kind}?")
        if wire.kind == perfboard.BARE:
            (ax, ay), (bx, by) = wire.a, wire.b
            if abs(ax - bx) + abs(ay - by) != 1:
                faults.append(f"{wire.net}: a bare link from {perfboard.hole_name(wire.a)} to {perfboard.hole_name(wire.b)}")
            for (x, y), net in holes.items():
                on_line = (x - ax) * (by - ay) == (y - ay) * (bx - ax)
                between = min(ax, bx) <= x <= max(ax, bx) and min(ay, by) <= y <= max(ay, by) and (x, y) not in (wire.a, wire.b)
                if on_line and between and net != wire.net:
                    faults.append(f"{wire.net}: a bare link over {perfboard.hole_name((x, y))} ({net})")
    where = {place.ref: place.pins for place in perfboard.placements(model)}
    for net in model.nets:
        spots = {where[ref][pin] for ref, pin in net.nodes if ref in where}
        parent = {spot: spot for spot in spots}

        def root(spot):
            while parent[spot] != spot:
                spot = parent[spot]
            return spot

        for wire in wires:
            if wire.net == net.name and wire.a in parent and wire.b in parent:
                parent[root(wire.a)] = root(wire.b)
        if len({root(spot) for spot in spots}) > 1:
            faults.append(f"{net.name} is not joined")
    return faults


def test_the_wires_under_the_board_join_each_net_and_no_bare_wire_touches_another():
    model = circuit.build(parse(""), board)
    wires = perfboard.wires(model)
    assert _wire_faults(model, wires) == []
    assert [wire for wire in wires if wire.bare] and all(perfboard.over(w.a, w.b) == [] for w in wires if w.bare)
    # every hole takes at most two wires (each net one chain)
    ends = [end for wire in wires for end in (wire.a, wire.b)]
    assert max(ends.count(end) for end in ends) <= 2
    # the LED supply's path from J12 through C2 to J13 is in the thicker wire
    trunk = {w.net for w in wires if w.kind == perfboard.TRUNK_WIRE}
    assert trunk == {"+5V_LED", "GND"} and sum(w.kind == perfboard.TRUNK_WIRE for w in wires) == 4


def test_the_buzzers_current_goes_back_to_the_supply_before_any_logic_ground():
    model = circuit.build(parse(""), board)
    where = {place.ref: place.pins for place in perfboard.placements(model)}
    for name in ("GND", "+5V_LED"):
        net = next(net for net in model.nets if net.name == name)
        owner = {where[ref][number]: ref for ref, number in net.nodes if ref in where}
        chain = [wire for wire in perfboard.wires(model) if wire.net == name]
        order = [owner[chain[0].a]] + [owner[wire.b] for wire in chain]  # each net is one chain, drawn end to end
        assert all(wire.a == before.b for before, wire in zip(chain, chain[1:]))
        start = order.index("J12") + 1
        loud = [ref for ref in order if ref in perfboard.LOUD]
        assert loud and order[start : start + len(loud)] == loud, (name, order)
    # the logic grounds the buzzer's current must not pass: both touch controllers' and the Pico's
    ground = [ref for ref, _ in next(net for net in model.nets if net.name == "GND").nodes if ref in where]
    assert {"J3", "J5", "J7", "J1"} <= set(ground)


def test_a_wrong_wire_under_the_board_is_caught():
    from dataclasses import replace

    model = circuit.build(parse(""), board)
    wires = perfboard.wires(model)
    holes = _holes(model)
    first = next(w for w in wires if w.net == "+5V_LED" and not w.bare)
    ground = next(spot for spot, net in holes.items() if net == "GND")
    along = next(w for w in wires if w.net == "I2C_SDA" and w.a[1] == w.b[1] and abs(w.a[0] - w.b[0]) > 1)
    mutants = [
        [replace(first, b=ground) if w is first else w for w in wires],  # a jumper to a wrong-net hole
        [replace(along, kind=perfboard.BARE) if w is along else w for w in wires],  # a bare wire along row M
        [w for w in wires if w is not first],  # a jumper left out
    ]
    for mutant in mutants:
        assert _wire_faults(model, mutant) != []
    assert any("over" in fault for fault in _wire_faults(model, mutants[1]))


def test_each_polarised_part_has_its_marks_drawn_and_listed():
    model = circuit.build(parse(""), board)
    root = ElementTree.fromstring(wiring.generate()["perfboard.svg"])
    ns = "{http://www.w3.org/2000/svg}"
    groups = {g.get("id"): " ".join(g.itertext()).split() for g in root.iter(f"{ns}g")}
    readme = (ROOT / "wiring" / "README.md").read_text()
    expected = {"D1": {"K", "(ring)", "A"}, "C2": {"+", "−"}, "Q1": {"C", "B", "E"}, "U1": {"notch", "pin", "1"},
                "J1": {"pin", "1", "(GP0)"}, "J2": {"USB", "pin", "40"}}  # fmt: skip
    polarised = [part for part in model.parts if part.place == circuit.TILE_BOARD and perfboard.polarised(model, part.ref)]
    assert {part.ref for part in polarised} >= {"D1", "C2", "Q1", "U1", "J1", "J2", "J3", "J4", "J5", "J6", "J7", "J8"}
    for part in polarised:
        want = expected.get(part.ref) or {name.removeprefix("E") for _, name in part.pins}  # an MPR121: every pin's label
        assert want <= set(groups.get(f"marks-{part.ref}", ())), part.ref
        row = next(line for line in readme.splitlines() if line.startswith(f"| {part.ref} |"))
        assert "either way" not in row, part.ref
    assert "body-Q1" in groups and "<path" in wiring.generate()["perfboard.svg"]
    ways = perfboard.orientation(model)
    assert "ring (cathode, K)" in ways["D1"] and "+ (the longer leg)" in ways["C2"] and "flat face" in ways["Q1"]
    assert "notch" in ways["U1"] and "USB end" in ways["J1"]


def test_the_parts_list_has_the_wire_for_every_jumper_under_the_board():
    model = circuit.build(parse(""), board)
    jumpers = [wire for wire in perfboard.wires(model) if not wire.bare]
    # each jumper as listed plus the 10 mm the wire list asks for (5 mm stripped at each end)
    wrap_m = sum(wire.mm + 10 for wire in jumpers if wire.kind == perfboard.THIN_WIRE) / 1000
    bom = {row["part"]: row for row in csv.DictReader(open(ROOT / "hardware" / "bom.csv", encoding="utf-8"))}
    assert float(bom["wire-wrap wire"]["quantity"]) >= wrap_m * electrical.WIRE_SPARE
    # the supply path's jumpers are cut from the LED link wire the parts list already has
    assert perfboard.TRUNK_WIRE.endswith("LED link wire") and "LED link wire" in bom
    assert {wire.kind for wire in jumpers} == {perfboard.THIN_WIRE, perfboard.TRUNK_WIRE}


# -- the schematic read back as a drawing: pins, wires, labels and text, by their coordinates alone -------------
SVG = "{http://www.w3.org/2000/svg}"


def _xy(text):
    return [tuple(float(v) for v in point.split(",")) for point in text.split()]


def _on(point, a, b, slack=0.5):
    (x, y), (ax, ay), (bx, by) = point, a, b
    if abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) > slack * max(abs(bx - ax) + abs(by - ay), 1):
        return False
    return min(ax, bx) - slack <= x <= max(ax, bx) + slack and min(ay, by) - slack <= y <= max(ay, by) + slack


class Drawing:
    """The schematic's pins, wires (each polyline on its own), labels, symbol bodies and texts."""

    def __init__(self, text):
        root = ElementTree.fromstring(text)
        self.pins, self.wires, self.labels, self.boxes, self.texts = [], [], [], [], []
        for group in root.iter(f"{SVG}g"):
            kind = group.get("class")
            if kind == "pin":
                self.pins.append(((group.get("data-ref"), group.get("data-pin")), _xy(group.get("data-ends"))))
            elif kind == "wire":
                self.wires += [_xy(line.get("points")) for line in group.iter(f"{SVG}polyline")]
            elif kind == "label":
                self.labels.append((group.get("data-net"), _xy(group.get("data-at"))[0]))
            elif kind == "symbol":
                self.boxes.append(tuple(float(v) for v in group.get("data-box").split()))
        for element in root.iter(f"{SVG}text"):
            words = "".join(element.itertext())
            bold = any(span.get("font-weight") == "bold" for span in element) or element.get("font-weight") == "bold"
            size = float(element.get("font-size"))
            width = len(words) * size * (0.66 if bold else 0.6)  # DejaVu Sans, roughly
            x, y = float(element.get("x")), float(element.get("y"))
            left = {"start": x, "middle": x - width / 2, "end": x - width}[element.get("text-anchor")]
            self.texts.append((words, (left, y - 0.75 * size, left + width, y + 0.2 * size)))

    def groups(self):
        """Union-find over everything that touches: a pin's ends, a wire's points, an end on a wire, a label's
        point on a pin's end or a wire, labels of one name."""
        parent = {}

        def root(key):
            parent.setdefault(key, key)
            while parent[key] != key:
                parent[key] = parent[parent[key]]
                key = parent[key]
            return key

        def join(a, b):
            parent[root(a)] = root(b)

        points = [(("pin",) + node, end) for node, ends in self.pins for end in ends]
        points += [(("label", index), at) for index, (_, at) in enumerate(self.labels)]
        points += [(("wire", index), line[0]) for index, line in enumerate(self.wires)]
        points += [(("wire", index), line[-1]) for index, line in enumerate(self.wires)]
        for key, at in points:
            root(key)
            for index, line in enumerate(self.wires):
                if any(_on(at, a, b) for a, b in zip(line, line[1:])):
                    join(key, ("wire", index))
        for index, (name, at) in enumerate(self.labels):
            join(("label", index), ("net", name))
            for key, other in points:
                if key[0] == "pin" and abs(other[0] - at[0]) + abs(other[1] - at[1]) < 0.5:
                    join(("label", index), key)
        return root


def _drawings():
    import types

    table = types.SimpleNamespace(**{name: getattr(board, name) for name in dir(board) if name.isupper()})
    table.LED_PIN = 22
    for config, pins in ((None, None), (parse('[controls]\nclue_input = "encoder"\n'), table)):
        yield circuit.build(config or parse(""), pins or board), Drawing(wiring.generate(config, pins)["schematic.svg"])


def test_the_schematic_draws_every_pin_once_and_joins_each_net_and_nothing_else():
    for model, drawing in _drawings():
        drawn = [node for node, _ in drawing.pins]
        assert sorted(drawn) == sorted((part.ref, number) for part in model.parts for number, _ in part.pins)
        root = drawing.groups()
        seen = {}
        for net in model.nets:
            roots = {root(("pin",) + node) for node in net.nodes}
            assert len(roots) == 1, (net.name, net.nodes)
            assert roots.pop() not in seen.values(), net.name
            seen[net.name] = root(("pin",) + net.nodes[0])
        for node in drawn:
            if model.net_at(*node) is None:  # a pin on no net touches nothing
                assert root(("pin",) + node) not in seen.values(), node
        # wires are drawn between pins: most signal nets are wires, not only labels
        wired = {net.name for net in model.nets if any(root(("wire", i)) == seen[net.name] for i in range(len(drawing.wires)))}
        assert {"I2C_SDA", "I2C_SCL", "LED_DATA_3V3", "LED_DATA_5V", "LED_DIN", "BUZZER_BASE", "BUZZER_C", "+5V_JACK"} <= wired
        assert all(f"PAD_{tile}" in wired for tile in TILES)


def test_the_schematic_has_no_overlapping_text_and_no_wire_through_a_part():
    for _, drawing in _drawings():
        texts = sorted(drawing.texts, key=lambda item: item[1][0])
        for index, (words, (x0, y0, x1, y1)) in enumerate(texts):
            for other, (a0, b0, a1, b1) in texts[index + 1 :]:
                if a0 >= x1 - 1:
                    break
                assert y1 - 1 <= b0 or b1 - 1 <= y0, (words, other)
        for line in drawing.wires:
            for (ax, ay), (bx, by) in zip(line, line[1:]):
                assert ax == bx or ay == by, line  # wires run across and down
                for x, y, w, h in drawing.boxes:
                    crosses = max(ax, bx) > x + 1 and min(ax, bx) < x + w - 1 and max(ay, by) > y + 1 and min(ay, by) < y + h - 1
                    assert not crosses, ((ax, ay), (bx, by), (x, y, w, h))
