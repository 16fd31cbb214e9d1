"""The electrical design computed from datasheet figures: each rule a part must meet, and the parts list meeting it."""

import math
from pathlib import Path

import pytest
from codenames_firmware import board

from buildkit import cables, circuit, electrical, hardware, mechanics, perfboard, power, wiring
from codenames_board.config import parse

ROOT = Path(__file__).resolve().parents[2]


def parts():
    return {part.part: part for part in hardware.read_bom((ROOT / "hardware" / "bom.csv").read_text("utf-8"))}


# --- the buzzer


def test_the_buzzer_pin_sources_less_than_the_pis_per_pin_limit():
    driver = electrical.buzzer_driver()
    assert driver.pin_ma <= electrical.PI_PIN_LIMIT_MA <= 16
    # straight on the pin, the coil would draw ten times that
    assert electrical.PI_GPIO_V / electrical.MAGNETIC_TRANSDUCER.coil_ohms * 1000 > 5 * electrical.PI_PIN_LIMIT_MA


def test_the_buzzer_transistor_is_saturated_at_the_most_coil_current():
    driver = electrical.buzzer_driver()
    assert driver.base_min_ma * driver.transistor.hfe_min >= electrical.OVERDRIVE * driver.coil_max_ma
    assert driver.saturated and driver.coil_max_ma < driver.transistor.ic_max_ma


def test_the_coil_stays_within_its_rating_and_the_diode_carries_its_current():
    driver = electrical.buzzer_driver()
    assert driver.coil_v <= electrical.MAGNETIC_TRANSDUCER.rated_v
    assert driver.diode_ok
    assert (driver.coil_max_ma / 1000) ** 2 * driver.series_ohms <= driver.series_watts


def test_a_low_gain_transistor_would_need_more_than_the_pin_gives():
    assert electrical.buzzer_driver(transistor=electrical.P2N2222A).pin_ma > electrical.PI_PIN_LIMIT_MA


def test_the_parts_list_has_the_buzzer_driver_the_wiring_computes():
    driver, bom = electrical.buzzer_driver(), parts()
    assert f"NPN transistor {driver.transistor.name}" in bom
    assert f"resistor {electrical.ohms(driver.base_ohms)}" in bom
    series = bom[f"resistor {electrical.ohms(driver.series_ohms)}"]
    assert f"{driver.series_watts:g} W" in series.example
    assert f"diode {electrical.FLYBACK.name}" in bom
    assert "magnetic transducer" in bom["buzzer"].example and "never straight from a pin" in bom["buzzer"].notes


# --- the level shifter


def test_the_level_shifter_has_its_bypass_pull_down_and_tied_inputs():
    readme = wiring.generate()["README.md"]
    shifter = readme.split("### The level shifter")[1].split("###")[0]
    for needed in ("100 nF ceramic from pin 14 to pin 7", "10 kΩ to GND", "2A, 3A, 4A | GND", "2OE, 3OE, 4OE | VCC"):
        assert needed in shifter, needed
    assert f"{power.power_budget().chain_max_ma} mA" in shifter
    bom = parts()
    assert "ceramic capacitor 100 nF" in bom and "resistor 10 kΩ" in bom
    diagram = wiring.generate()["block-diagram.svg"]
    assert "100 nF" in diagram and "10 kΩ" in diagram


# --- the tile board


def test_the_parts_do_not_fit_50_by_70_mm_and_the_chosen_board_holds_them():
    need = electrical.parts_area() * electrical.ROUTING
    assert 50 * 70 < electrical.parts_area()  # not even the bare parts
    width, height = electrical.perfboard()
    inner = (width - 2 * electrical.EDGE_MARGIN) * (height - 2 * electrical.EDGE_MARGIN)
    assert inner >= need
    smaller = [size for size in electrical.PERFBOARDS if size[0] * size[1] < width * height]
    assert all((w - 6) * (h - 6) < need for w, h in smaller)
    # the row says what to buy; its notes, the size by area and why it is not enough
    example, notes = parts()["perfboard"].example, parts()["perfboard"].notes
    assert f"{width} x {height} mm" in notes
    # the layout's holes: a board with fewer cannot take it
    assert f"cut down to {perfboard.ROWS} x {perfboard.COLUMNS} holes" in example
    # cut through the row of holes beyond the layout's: a pitch more each way
    assert f"about {(perfboard.ROWS + 1) * perfboard.PITCH:.0f} x {(perfboard.COLUMNS + 1) * perfboard.PITCH:.0f} mm" in notes
    assert f"board only where it has {perfboard.ROWS} x {perfboard.COLUMNS} holes" in notes


def test_the_board_area_counts_every_part_and_pad_wire():
    names = {part.name: part.count for part in electrical.TILE_BOARD_PARTS}
    assert names["MPR121 breakout in headers"] == len(board.MPR121S)
    assert names["pad wire point"] == board.TILES
    assert electrical.perfboard(boards=((50, 70),) * 0 + ((1000, 1000),)) == (1000, 1000)
    with pytest.raises(ValueError):
        electrical.perfboard(boards=((50, 70),))


# --- the chain's wires


def test_the_links_fit_pixel_pads_and_carry_the_glitch_current():
    points = electrical.chain_feeds()
    budget = power.power_budget()
    drop = cables.chain_drop(points, budget.chain_max_ma / budget.leds)
    assert electrical.LINK_AWG >= 22  # 18-20 AWG does not solder to a 10 mm pixel board
    # one feed: the links' heating limit, which the fuse stays below (the chain's voltage is computed, not ruled)
    assert max(drop.link_amps) <= electrical.WIRES[electrical.LINK_AWG].chassis_a
    assert electrical.LED_FUSE.rating_ma / 1000 < electrical.WIRES[electrical.LINK_AWG].chassis_a
    assert max(drop.feed_amps) <= electrical.WIRES[electrical.FEED_AWG].max_a
    assert drop.lowest >= electrical.WS2812_VDD_MIN
    # the currents add up: what the feeds bring is what the LEDs draw
    assert sum(drop.feed_amps) == pytest.approx(budget.chain_max_ma / 1000, rel=1e-6)


def test_thinner_links_would_overrun_their_rating():
    points = electrical.chain_feeds()
    drop = cables.chain_drop(points, 61, link_awg=24)
    assert max(drop.link_amps) > electrical.WIRES[24].max_a


def test_one_feed_alone_would_let_the_far_end_sag():
    assert cables.chain_drop([0], 61).lowest < cables.chain_drop([0, 18, 36], 61).lowest


def test_one_feed_keeps_the_last_led_within_the_ws2812bs_supply_at_the_cap_and_at_a_glitch():
    # Worldsemi's WS2812B datasheet: VDD 3.5-5.3 V; its characteristics (VIH = 0.7 VDD) at 4.5-5.5 V
    assert (electrical.WS2812_VDD_MIN, electrical.WS2812_VDD_CHARACTERISED, electrical.WS2812_VIH) == (3.5, 4.5, 0.7)
    budget = power.power_budget()
    assert (budget.brightness, budget.drawn_max_ma, budget.cap_ma, budget.chain_max_ma) == (96, 872, 2000, 2257)
    main = " ".join((ROOT / "hardware" / "README.md").read_text(encoding="utf-8").split())  # the guide's short budget
    assert (f"At the default brightness the LEDs draw at most {budget.drawn_max_ma} mA, and the firmware caps them at "
            f"{budget.cap_ma} mA whatever the settings; a glitch on the data line that lights every LED full white draws "
            f"{budget.chain_max_ma} mA, still under the supply's and the fuse's 3 A") in main
    assert budget.chain_max_ma < 3000
    assert electrical.chain_feeds() == [0]  # the start alone: no fewer is possible
    check = cables.feed_check(electrical.chain_feeds(), budget.cap_ma, budget.chain_max_ma)
    assert check.enough
    cap, glitch = check.last_led
    # the hand computation's 4.48 and 4.42 had J12 on the floor; hung under the LED board its pair runs 8 cm further
    assert cap == pytest.approx(4.45, abs=0.01) and glitch == pytest.approx(4.37, abs=0.01)
    assert min(cap, glitch) >= electrical.WS2812_VDD_MIN + 0.85
    # at the shipped brightness the firmware never lets more through than its full white: within the characterised range
    in_use = cables.chain_drop(electrical.chain_feeds(), budget.drawn_max_ma / budget.leds)
    assert in_use.lowest >= electrical.WS2812_VDD_CHARACTERISED and in_use.volts[-1] == pytest.approx(4.76, abs=0.01)
    # the data line: the supply only falls along the chain, so each LED's DIN gets the LED before it's output at a
    # higher VDD than its own 0.7 VDD; the first gets the 74AHCT125's, VOH >= VCC - 0.1 V (TI SN74AHCT125, IOH =
    # -50 uA), its VCC on the tile board ahead of the J13 cable, so at least the first LED's VDD
    for drop in (check.at_cap, check.at_glitch):
        assert all(a >= b for a, b in zip(drop.volts, drop.volts[1:]))
        assert all(a >= electrical.WS2812_VIH * b for a, b in zip(drop.volts, drop.volts[1:]))
        assert drop.volts[0] - 0.1 >= electrical.WS2812_VIH * drop.volts[0]
    # the old three feeds would be more than needed: each sits far above the minimum too
    more = cables.feed_check([0, 18, board.LEDS - 1], budget.cap_ma, budget.chain_max_ma)
    assert more.enough and min(more.last_led) > max(check.last_led)
    # the wiring guide and the power budget say which and why
    readme = " ".join((ROOT / "wiring" / "README.md").read_text("utf-8").split())
    assert f"the last LED has {cap:.2f} V, at the glitch {glitch:.2f} V" in readme
    assert f"Its last LED still gets {cap:.2f} V at the cap and {glitch:.2f} V" in power.markdown(budget)


def test_the_parts_list_has_at_least_the_wire_the_layout_needs():
    points = electrical.chain_feeds()
    bom = parts()
    assert bom["power wire"].quantity >= cables.power_wire_m(points)
    assert "18 AWG" in bom["power wire"].example
    assert bom["LED link wire"].quantity >= cables.link_wire_m()
    assert "22 AWG" in bom["LED link wire"].example
    # 25 tiles on an 88 x 63 mm pitch: 20 links across, 4 down
    assert sum(electrical.link_lengths()[: board.TILES - 1]) == 20 * 88 + 4 * 63


def test_the_layout_is_the_models(need_tool):
    need_tool("openscad")
    figs = mechanics.figures(ROOT / "hardware" / "enclosure.scad")
    assert list(figs["pitch"]) == list(electrical.TILE_PITCH)
    floor = mechanics.figures(ROOT / "hardware" / "enclosure.scad", 'tile_board_mount="floor"')  # the variant
    positions = electrical.led_positions()
    for tile, centre in enumerate(figs["tiles"]):
        assert positions[board.CHAIN[tile]] == pytest.approx(tuple(centre))
    feeds = {name: xy for name, xy, _ in figs["feeds"]}
    assert list(feeds) == ["A1"]  # the chain's one feed (chain_feeds()); the strand adds E5 and the strip end
    strand = {name: xy for name, xy, _ in mechanics.figures(ROOT / "hardware" / "enclosure.scad", 'leds="strand"')["feeds"]}
    assert math.dist(strand["strip end"], positions[-1]) < 20
    jack = dict((name, xyz) for name, xyz in figs["points"])["DC jack"]
    assert tuple(jack) == pytest.approx(electrical.DC_JACK)
    assert list(figs["pad"]) == list(electrical.PAD) and figs["rib_t"] == electrical.RIB_T
    assert figs["chamber"][0] == electrical.RIB_H and figs["box_z"][1] == electrical.LEDBOARD_UNDER_Z
    (tile_board,) = [(list(low), list(high), z) for name, low, high, z in floor["floor_boards"] if name == "tile board"]
    assert tile_board == ([*electrical.FLOOR_TILE_BOARD[0]], [*electrical.FLOOR_TILE_BOARD[1]], electrical.FLOOR_TILE_BOARD[2])


def test_the_led_supply_goes_through_lever_connectors_and_the_first_led_has_one_feed():
    points = electrical.chain_feeds()
    feeds = cables.feed_paths(points)
    assert [feed.point for feed in feeds] == points
    # the jack's two lugs take one wire each; the lever connectors hold it and every feed
    assert len(feeds) + 1 <= electrical.LEVER_WAYS
    assert feeds[0].tail > electrical.FEED_SLACK and all(feed.tail == electrical.injection_tail() for feed in feeds[1:])
    model = circuit.build(parse(""), board)
    assert model.part("J12").leads == (("J17", "2"), ("J18", "2"))
    # the jack's red lead goes through the fuse F1 (joined to it in J23) to the 5 V lever connector
    assert model.part("J16").leads == (("J23", "1"), ("J18", "1")) and model.net_at("J16", "3") is None  # the switch lug
    assert model.part("F1").leads == (("J23", "2"), ("J17", "1"))
    assert model.net_at("F1", "1").name == model.net_at("J16", "1").name == "+5V_JACK"
    assert model.net_at("F1", "2").name == model.net_at("J17", "1").name == "+5V_LED"
    for ref, net in (("J17", "+5V_LED"), ("J18", "GND")):
        names = [name for _, name in model.part(ref).pins]
        assert names[:len(feeds) + 1] == electrical.lever_ways(points)[:len(feeds) + 1]
        for number, name in model.part(ref).pins:
            assert (model.net_at(ref, number).name if model.net_at(ref, number) else None) == (None if name == "spare" else net)
    # chain index 0 through J13 alone: 5 V, data and GND; its current fits the J13 cable's gauge
    assert {model.net_at("J13", n).name for n in ("1", "2", "3")} == {"+5V_LED", "LED_DIN", "GND"}
    budget = power.power_budget(parse(""))
    drop = cables.chain_drop(points, budget.chain_max_ma / budget.leds)
    assert drop.feed_amps[0] <= electrical.WIRES[electrical.LINK_AWG].chassis_a
    # every LED's injection point on the lever connectors is a part of the model
    for feed in feeds[1:]:
        assert any(part.value == f"WS2812B, chain index {feed.point}" for part in model.parts)
    bom = parts()
    levers = [part for part in model.parts if part.bom == "lever connector 5-way"]
    assert bom["lever connector 5-way"].quantity == len(levers) == electrical.lever_connectors(points) == 2
    assert "221-415" in bom["lever connector 5-way"].example
    # J23, between the jack and the fuse: two ways, both taken, so the J12 pair's red cannot go in ahead of the fuse
    (join,) = [part for part in model.parts if part.bom == "lever connector 2-way"]
    assert join.ref == "J23" and bom["lever connector 2-way"].quantity == 1 and "221-412" in bom["lever connector 2-way"].example
    assert [model.net_at("J23", number).name for number, _ in join.pins] == ["+5V_JACK", "+5V_JACK"]
    assert {ref for ref, _ in next(net for net in model.nets if net.name == "+5V_JACK").nodes} == {"J16", "J23", "F1"}
    assert "centre-positive" in bom["LED supply"].example and "lug 3 (the switch) left unconnected" in bom["DC barrel jack"].notes
    readme = " ".join((ROOT / "wiring" / "README.md").read_text("utf-8").split())
    assert f"**{math.ceil(cables.first_led_cable() / 10):.0f} cm**" in readme and "leave the switch lug unconnected" in readme  # rounded up
    guide = " ".join(hardware.guide_text(ROOT / "hardware").split())
    assert f"**the J13 cable** ({math.ceil(cables.first_led_cable() / 10):.0f} cm of red, green and black 22 AWG" in guide
    assert f"The J13 cable: {math.ceil(cables.first_led_cable() / 10):.0f} cm each of red, green and black 22 AWG" in guide


def test_the_firmware_guide_gives_the_hardware_guides_pad_size():
    import re

    guide = hardware.guide_text(ROOT / "hardware")
    size = re.search(r"copper foil, (\d+ x \d+) mm", guide)[1]
    firmware = " ".join((ROOT / "firmware" / "README.md").read_text("utf-8").split())
    assert f"a PCB pad, {size} mm" in firmware


def test_every_other_feed_meets_its_led_in_a_pair_of_lever_connectors_and_no_pad_takes_two_wires():
    points = electrical.chain_feeds()
    model = circuit.build(parse(""), board)
    # a wire link arrives at a pixel board and at a strip piece's first LED; inside a strip piece the copper does
    first_of_pieces = {0, board.TILES, board.TILES + board.TIMER_LEDS}
    for point in range(1, board.LEDS):
        assert electrical.link_arrives(point) == (point < board.TILES or point in first_of_pieces), point
    joins = dict(electrical.injection_joins(points))
    assert sorted(joins) == points[1:]
    for way, point in enumerate(points[1:], 3):
        led = next(part for part in model.parts if part.value == f"WS2812B, chain index {point}")
        pair = [part for part in model.parts if part.bom == "lever connector 5-way" and part.value.endswith(f"chain {point}")]
        assert len(pair) == 2, point
        for joint in pair:
            names = dict((name, number) for number, name in joint.pins)
            assert tuple(name for _, name in joint.pins) == joins[point]
            net = model.net_at(joint.ref, names["feed"]).name
            rail = "J17" if net == "+5V_LED" else "J18"
            # the feed from the jack's lever connectors, the tail to the LED, one net
            assert model.net_at(rail, str(way)).name == net == model.net_at(joint.ref, names["LED"]).name
            assert model.net_at(led.ref, led.number_of("VDD" if rail == "J17" else "VSS")).name == net
            assert ("link from chain %d" % (point - 1) in names) == electrical.link_arrives(point)
            assert all(model.net_at(joint.ref, number) is None for name, number in names.items() if name == "spare")
    # the tails and the links' detour are in the wire to buy; the tail reaches from under the board to the pads
    assert electrical.injection_tail() > electrical.LEDBOARD_T + electrical.FEED_HOLE_TO_LED
    # under the board to the lever connectors, up through the hole to the pad, and the strand the lever takes
    reach = electrical.INJECTION_REACH + electrical.LEDBOARD_T + electrical.FEED_HOLE_TO_LED
    assert electrical.injection_tail() >= reach + electrical.LEVER_STRIP + 5
    bare = 3 * (sum(electrical.link_lengths()) + cables.first_led_cable()) / 1000 * electrical.WIRE_SPARE
    assert cables.link_wire_m() > bare + 2 * (len(points) - 1) * electrical.injection_tail() / 1000
    readme = " ".join((ROOT / "wiring" / "README.md").read_text("utf-8").split())
    # the pixel boards have one feed: no lever connectors under the LED board; the strand's feeds still meet theirs
    assert points == [0] and not [part for part in model.parts if part.place.startswith("under the LED board")]
    assert sorted(dict(electrical.injection_joins(electrical.strand_feeds()))) == electrical.strand_feeds()[1:]
    assert "The strand's injection points" in readme and f"a {electrical.LINK_AWG} AWG tail of" in readme


def test_the_led_fuse_carries_the_capped_draw_and_opens_before_a_wire_runs_hot():
    budget = power.power_budget(parse(""))
    fuse = electrical.LED_FUSE
    # above the normal worst case (the cap at any brightness, the shifter, the buzzer), with the makers' derating
    assert fuse.continuous_ma >= budget.in_use_max_ma == budget.cap_ma + power.LEVEL_SHIFTER_MA + power.BUZZER_MA
    # a glitch's full white does not blow it either
    assert fuse.rating_ma > budget.glitch_max_ma
    # below the thinnest fused wire's limit (22 AWG links, 18 AWG feeds) and the one supply for the Pi and the LEDs
    assert fuse.rating_ma < power.fused_wire_ma() == electrical.WIRES[electrical.LINK_AWG].chassis_a * 1000
    assert fuse.rating_ma <= budget.supply_ma < power.rating(3000 / power.MARGIN + budget.glitch_max_ma)
    assert power.fuse_fits(budget)
    bom = parts()
    assert "3 A" in bom["fuse with inline holder"].example and "only with another 3 A fuse" in bom["fuse with inline holder"].notes
    guide = " ".join(hardware.guide_text(ROOT / "hardware").split())
    assert f"**The fuse: {power.amps(fuse.rating_ma)}**" in guide and "## Safety" in guide
