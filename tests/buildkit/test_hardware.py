"""hardware/: the parts list, the power budget and the OpenSCAD model agree with the code and each other.

The OpenSCAD tests render the real model with the real openscad (Debian's
package); where it is missing they are skipped, except on CI (the CI variable
set), which must have it.
"""

import math
import re
import shutil
import subprocess
from pathlib import Path

import pygame
import pytest
from codenames_firmware import board

from buildkit import hardware, mechanics, power, steps
from codenames_board import compositor
from codenames_board.config import BUTTON_PINS, REQUIRED_PINS, parse

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SCAD = HARDWARE / "enclosure.scad"
README = hardware.guide_text(HARDWARE)  # the guide: its main path and its appendices
REGENERATE = "python host/buildkit hardware"


def parts():
    return {part.part: part for part in hardware.read_bom((HARDWARE / "bom.csv").read_text("utf-8"))}


# --- the parts list


def test_committed_readme_is_what_the_parts_list_and_power_budget_generate():
    assert hardware.readme(HARDWARE) == (HARDWARE / "README.md").read_text("utf-8"), f"hardware/README.md is out of date: run `{REGENERATE}`"


def test_check_mode_says_up_to_date(capsys):
    assert hardware.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def _away(monkeypatch, tmp_path):
    """hardware.py as if the build kit ran away from a checkout (a copy with no hardware/ around it), in an empty
    current folder."""
    monkeypatch.setattr(hardware, "__file__", str(tmp_path / "copy" / "host" / "buildkit" / "hardware.py"))
    monkeypatch.chdir(tmp_path)


def test_check_away_from_a_checkout_says_in_one_line_where_the_folder_is(monkeypatch, tmp_path, capsys):
    _away(monkeypatch, tmp_path)
    assert hardware.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no hardware/ folder here" in err and "git clone" in err and "--folder" in err


def test_check_away_from_a_checkout_takes_the_current_folders_hardware(monkeypatch, tmp_path, capsys):
    _away(monkeypatch, tmp_path)
    shutil.copytree(HARDWARE, tmp_path / "hardware")
    assert hardware.main(["--check"]) == 0
    assert f"{tmp_path / 'hardware' / 'README.md'}: up to date" in capsys.readouterr().out
    bom = tmp_path / "hardware" / "bom.csv"
    bom.write_text(bom.read_text("utf-8").replace("white label,25,", "white label,26,"), "utf-8")
    assert hardware.main(["--check", "--folder", str(tmp_path / "hardware")]) == 1


def test_check_notices_a_changed_price(monkeypatch, tmp_path, capsys):
    _away(monkeypatch, tmp_path)
    shutil.copytree(HARDWARE, tmp_path / "hardware")
    costs = tmp_path / "hardware" / "costs.csv"
    costs.write_text(costs.read_text("utf-8").replace("Raspberry Pi Pico,5.00,", "Raspberry Pi Pico,6.00,"), "utf-8")
    assert hardware.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert hardware.main([]) == 0 and hardware.main(["--check"]) == 0  # rewritten: up to date again
    assert "| Raspberry Pi Pico | 1 |" in (tmp_path / "hardware" / "README.md").read_text("utf-8")


def test_a_part_without_a_price_is_one_line_naming_it(monkeypatch, tmp_path, capsys):
    _away(monkeypatch, tmp_path)
    shutil.copytree(HARDWARE, tmp_path / "hardware")
    bom = tmp_path / "hardware" / "bom.csv"
    bom.write_text(bom.read_text("utf-8") + "hot glue sticks,10,7 mm,for the LEDs\n", "utf-8")
    assert hardware.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "costs.csv: no price for 'hot glue sticks' of bom.csv: add a row" in err


def test_the_readme_shows_every_part_of_the_csv():
    section = README.split("<!-- generated: bom -->")[1].split("<!-- end: bom -->")[0]
    for part in parts().values():
        assert f"| {part.part} | {part.quantity or 'optional'} |" in section


def test_led_quantities_are_the_firmwares_led_counts():
    bom = parts()
    assert bom["WS2812B LED on a round breakout board"].quantity == board.TILES
    assert board.STATUS_LEDS == board.TIMER_LEDS + board.TURN_LEDS
    assert bom["WS2812B LED strip"].quantity == math.ceil(board.STATUS_LEDS / 60)  # sold by the metre, 60 LEDs/m
    assert f"{board.STATUS_LEDS} LEDs" in bom["WS2812B LED strip"].notes
    assert f"({board.TIMER_LEDS})" in bom["WS2812B LED strip"].notes and f"({board.TURN_LEDS})" in bom["WS2812B LED strip"].notes


def test_one_mpr121_per_address_in_the_pin_table():
    assert parts()["MPR121 touch controller breakout"].quantity == len(board.MPR121S)
    for _, address, _ in board.MPR121S:
        assert f"0x{address:02X}" in parts()["MPR121 touch controller breakout"].notes


def test_one_button_per_button_pin():
    bom = parts()
    # the sand timer is the big one; the rest of the required buttons and the clue buttons are 30 mm
    assert bom["arcade button 60 mm"].quantity == 1
    assert bom["arcade button 30 mm"].quantity == len(REQUIRED_PINS) - 1 + len(BUTTON_PINS)
    assert bom["rotary encoder (optional)"].quantity == 0


def test_the_led_supply_in_the_parts_list_is_the_power_budgets():
    supply = power.power_budget().supply_ma
    assert f"5 V {power.amps(supply)}" in parts()["LED supply"].example


def test_a_bad_parts_list_gets_one_line_naming_the_line_and_the_fix():
    good = "part,quantity,example,notes\n"
    with pytest.raises(hardware.BomError, match=r"bom.csv:1: the header must be part,quantity,example,notes"):
        hardware.read_bom("name,count\n")
    with pytest.raises(hardware.BomError, match=r"bom.csv:2: quantity 'two' is not a whole number: write e.g. 1"):
        hardware.read_bom(good + "LED,two,x,y\n")
    with pytest.raises(hardware.BomError, match=r"bom.csv:3: 5 fields, expected 4: quote a field that has a comma"):
        hardware.read_bom(good + "LED,1,x,y\nbutton,1,x,y,z\n")
    with pytest.raises(hardware.BomError, match=r"bom.csv:2: the part is empty"):
        hardware.read_bom(good + ",1,x,y\n")
    assert hardware.read_bom(good + "\nLED,1,x,\"a, b\"\n") == [hardware.Part("LED", 1, "x", "a, b")]


# --- the costs


def costs():
    return hardware.read_costs((HARDWARE / "costs.csv").read_text("utf-8"))


def test_every_part_has_one_price_and_every_price_a_part():
    names = [cost.part for cost in costs()]
    assert sorted(names) == sorted(parts()) and len(set(names)) == len(names)
    assert {cost.currency for cost in costs()} == {"USD"}
    assert all(cost.basis and cost.sold_as for cost in costs())


def test_the_pi_parts_and_the_game_are_parts_of_the_list():
    assert set(hardware.PI_PARTS) | set(hardware.GAME_PARTS) <= set(parts())


def test_the_totals_are_the_rows_whole_packs_summed():
    bom, prices = parts(), {cost.part: cost for cost in costs()}
    paid = {}
    for name, part in bom.items():
        cost = prices[name]
        packs = -(-part.quantity // cost.pack)  # whole packs: a bag of 100 screws for 20
        paid[name] = packs * cost.price
    kit = sum(cents for name, cents in paid.items() if name not in (*hardware.PI_PARTS, *hardware.GAME_PARTS))
    pi = sum(paid[name] for name in hardware.PI_PARTS)
    totals = hardware.totals(list(bom.values()), hardware.priced(list(bom.values()), costs()))
    assert (totals.kit, totals.pi, totals.game, totals.with_pi) == (kit, pi, paid["Codenames game"], kit + pi)
    section = README.split("### What it costs")[1].split("<!-- end: bom -->")[0]
    assert f"| {hardware.money(kit)} |" in section and f"**{hardware.money(kit + pi)}**" in section
    assert f"| {hardware.money(paid['Codenames game'])} |" in section


def test_the_mdf_routes_cost_swaps_the_printed_top_for_its_own_rows():
    bom, prices = parts(), {cost.part: cost for cost in costs()}
    mdf = [name for name in bom if "for the MDF route" in name]
    # the sheet, the strips, the acrylic, its glue, the chambers' foam board, the hood's PLA, its nuts and washers
    assert len(mdf) == 7 and all(bom[name].quantity == 0 for name in mdf)
    assert {"foam board for the MDF route (optional)", "M3 nut and washer for the MDF route (optional)",
            "PLA for the MDF route (optional)"} <= set(mdf)
    printed = hardware.totals(list(bom.values()), hardware.priced(list(bom.values()), costs())).kit
    dropped = sum(prices[name].cost(bom[name].quantity) for name in ("top plate", "threaded insert M3"))
    expected = printed - dropped + sum(prices[name].price for name in mdf)
    assert hardware.mdf_route(list(bom.values()), hardware.priced(list(bom.values()), costs())) == expected
    section = README.split("### What it costs")[1].split("<!-- end: bom -->")[0]
    assert f"| {hardware.money(expected)} |" in section and "the faster route instead" in section
    assert "$19 more" not in README


def test_packs_are_paid_whole_and_optional_parts_not_at_all():
    screws = hardware.Cost("screw", 400, 100, "a box of 100", "USD", "2026-11", "x")
    assert (screws.cost(20), screws.cost(100), screws.cost(101), screws.cost(0)) == (400, 400, 800, 0)
    listed = [hardware.Part("screw", 20, "", ""), hardware.Part("encoder (optional)", 0, "", ""),
              hardware.Part("Raspberry Pi", 1, "", ""), hardware.Part("Codenames game", 1, "", "")]
    prices = hardware.priced(listed, [screws, hardware.Cost("encoder (optional)", 200, 1, "one", "USD", "2026-11", "x"),
                                      hardware.Cost("Raspberry Pi", 4500, 1, "one", "USD", "2026-11", "x"),
                                      hardware.Cost("Codenames game", 2000, 1, "one", "USD", "2026-11", "x")])
    totals = hardware.totals(listed, prices)
    assert (totals.kit, totals.pi, totals.game, totals.with_pi) == (400, 4500, 2000, 4900)
    assert totals.optional == (("encoder (optional)", 200),)


def test_the_readme_shows_each_parts_cost_and_the_optional_ones_apart():
    section = README.split("<!-- generated: bom -->")[1].split("<!-- end: bom -->")[0]
    bom = parts()
    for cost in costs():
        part = bom[cost.part]
        if part.quantity:
            assert f" | {hardware.money(cost.cost(part.quantity))} |" in next(
                line for line in section.splitlines() if line.startswith(f"| {cost.part} |")), cost.part
    assert "| rotary encoder (optional) | optional |" in section and "the rotary encoder would add $2.00" in section
    assert "November 2026" in section and "check your shop" in section


def test_a_bad_costs_list_gets_one_line_naming_the_line_and_the_fix():
    head = ",".join(hardware.COST_COLUMNS) + "\n"
    row = "LED,{price},{pack},a bag,{currency},{checked},shop\n"

    def bad(**changes):
        fields = {"price": "1.00", "pack": "10", "currency": "USD", "checked": "2026-11", **changes}
        return head + row.format(**fields)

    with pytest.raises(hardware.BomError, match=r"costs.csv:1: the header must be part,price,pack"):
        hardware.read_costs("part,price\n")
    with pytest.raises(hardware.BomError, match=r"costs.csv:2: price '1,50' is not an amount: write e.g. 7.95"):
        hardware.read_costs(head + 'LED,"1,50",10,a bag,USD,2026-11,shop\n')
    with pytest.raises(hardware.BomError, match=r"costs.csv:2: pack '0' is not a whole number"):
        hardware.read_costs(bad(pack="0"))
    with pytest.raises(hardware.BomError, match=r"costs.csv:2: checked 'Nov 2026' is not a month"):
        hardware.read_costs(bad(checked="Nov 2026"))
    with pytest.raises(hardware.BomError, match=r"costs.csv:3: currency EUR differs from USD above"):
        hardware.read_costs(bad() + row.format(price="2", pack="1", currency="EUR", checked="2026-11"))
    assert hardware.read_costs(bad(price="7.5"))[0].price == 750
    listed = [hardware.Part("LED", 1, "", "")]
    with pytest.raises(hardware.BomError, match=r"'button' is not in bom.csv"):
        hardware.priced(listed, hardware.read_costs(bad() + row.format(price="1", pack="1", currency="USD", checked="2026-11").replace("LED", "button")))
    with pytest.raises(hardware.BomError, match=r"'LED' has two rows"):
        hardware.priced(listed, hardware.read_costs(bad() + bad().split("\n", 1)[1]))


# --- the guide


def _messages():
    """Every English message of the host, as a pattern: its {placeholders} match any text."""
    import tomllib

    def walk(table):
        for value in table.values():
            yield from walk(value) if isinstance(value, dict) else [value]

    locale = tomllib.loads((ROOT / "host" / "codenames_board" / "locale" / "en.toml").read_text("utf-8"))
    return [re.compile(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(text))) for text in walk(locale) if isinstance(text, str)]


def test_the_troubleshooting_table_quotes_the_programs_real_messages():
    section = README.split("### Troubleshooting")[1]
    quoted = re.findall(r'"([^"|]{12,})"', section)
    assert len(quoted) >= 12
    messages = _messages()
    for text in quoted:
        assert any(pattern.fullmatch(text) for pattern in messages), f"not a message of the program: {text!r}"


def test_the_guide_has_the_checks_before_the_first_power_on_and_the_one_tile_step():
    guide = README.split("## Assembly, step by step")[1]
    checks = guide.split("### Before the first power-on: the multimeter checks")[1].split("###")[0]
    rows = re.findall(r"^\| (\d+) \|", checks, re.M)
    assert rows == [str(n) for n in range(1, len(rows) + 1)] and len(rows) >= 12
    assert "10 kΩ (9.5-10.5)" in checks and "330 Ω (314-347)" in checks
    assert {"resistor 10 kΩ", "resistor 330 Ω", "electrolytic capacitor 1000 µF"} <= set(parts())
    assert "Stage 1, the LED supply alone" in guide and "Stage 3, together" in guide
    prototype = guide.split("### One tile first: the prototype")[1].split("###")[0]
    assert "part=\"tile_coupon\"" in prototype and "codenames-board selftest --pads" in prototype
    assert "part = \"all\"; // [" in SCAD.read_text("utf-8") and "tile_coupon" in SCAD.read_text("utf-8").split("part = \"all\"; // [")[1].split("]")[0]


def test_a_readme_without_its_markers_is_refused():
    with pytest.raises(hardware.BomError, match="needs one '<!-- generated: power -->'"):
        hardware.replace_sections("no markers here", {"power": "x\n"})


# --- the power budget


def test_budget_follows_the_firmwares_led_model():
    budget = power.power_budget()
    leds = board.LEDS
    full_led = 3 * board.LED_MA_PER_CHANNEL + board.LED_MA_IDLE
    assert budget.leds == leds
    assert budget.dark_ma == leds * board.LED_MA_IDLE
    assert budget.chain_max_ma == leds * full_led
    assert budget.worst_ma == compositor.frame_ma(bytes([255]) * 3 * leds, 96)
    assert budget.drawn_max_ma == min(budget.worst_ma, 2000)
    assert budget.dark_ma < budget.typical_ma < budget.drawn_max_ma <= budget.cap_ma


def test_supply_rating_is_the_next_common_rating_with_the_margin():
    assert power.rating(2257) == 3000  # 2708 mA needed
    assert power.rating(2500) == 3000  # exactly 3000
    assert power.rating(2501) == 4000
    assert power.rating(100) == 1000
    assert power.rating(9000) == 11000  # past the table: whole amperes
    budget = power.power_budget()
    assert budget.supply_ma >= budget.chain_max_ma * power.MARGIN >= budget.drawn_max_ma * power.MARGIN


def test_budget_follows_the_config():
    bright = power.power_budget(parse("[tiles]\nbrightness = 255\nmax_current_ma = 1500\ntimer_leds = 30\n"))
    assert bright.leds == 25 + 30 + 2
    assert bright.worst_ma == bright.chain_max_ma == 57 * 61
    assert bright.drawn_max_ma == 1500
    assert bright.supply_ma == power.rating(57 * 61 + power.LEVEL_SHIFTER_MA + power.BUZZER_MA) == 5000


def test_usb_brightness_is_the_brightest_typical_frame_within_the_usb_cap():
    budget = power.power_budget()
    from codenames_board.colours import palette_of

    frame = compositor.Compositor(compositor.Layout(), palette_of(parse("").colours)).typical_frame()
    assert compositor.frame_ma(frame, budget.usb_brightness) <= power.USB_LED_CAP_MA
    assert compositor.frame_ma(frame, budget.usb_brightness + 1) > power.USB_LED_CAP_MA
    assert not budget.fits_usb
    assert power.power_budget(parse("[tiles]\nmax_current_ma = 400\n")).fits_usb


@pytest.mark.parametrize("brightness", [0, 96, 255])
@pytest.mark.parametrize("cap", [100, 2000, 10000])
def test_the_supply_covers_whatever_the_firmware_lets_through(brightness, cap):
    budget = power.power_budget(parse(f"[tiles]\nbrightness = {brightness}\nmax_current_ma = {cap}\n"))
    assert budget.drawn_max_ma <= min(budget.chain_max_ma, cap)
    assert budget.supply_ma >= budget.drawn_max_ma * power.MARGIN
    assert f"at least {power.amps(budget.supply_ma)}" in power.markdown(budget)


def test_wiring_page_quotes_the_same_supply():
    wiring = (ROOT / "wiring" / "README.md").read_text("utf-8")
    budget = power.power_budget()
    assert f"A supply of at least {power.amps(budget.supply_ma)} for the LEDs" in wiring
    assert f"up to {budget.chain_max_ma} mA at full white" in wiring


def test_power_command_prints_a_configs_budget(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[tiles]\nbrightness = 40\nmax_current_ma = 400\n")
    assert power.main(["--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"from `{config}`" in out and "`[tiles] brightness = 40`" in out and "is within it" in out


def test_power_command_with_a_bad_config_says_what_is_wrong(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[tiles]\nbrightness = 400\n")
    assert power.main(["--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(config) in err[0] and "brightness" in err[0]


# --- the OpenSCAD model


def test_model_led_counts_are_the_firmwares():
    text = SCAD.read_text("utf-8")
    assert re.search(rf"^timer_leds = {board.TIMER_LEDS};", text, re.M)
    assert re.search(rf"^turn_leds = {board.TURN_LEDS};", text, re.M)
    assert re.search(r"^card = \[70, 45\];", text, re.M)


@pytest.fixture(scope="module")
def renders(tmp_path_factory, need_tool_module):
    """Every render the tests look at, run side by side (the plate takes half a minute)."""
    need_tool_module("openscad")
    need_tool_module("xvfb-run", "xvfb")
    out = tmp_path_factory.mktemp("scad")
    jobs = {
        "top.stl": hardware.scad_command(SCAD, out / "top.stl", 'part="top"'),
        "hood.stl": hardware.scad_command(SCAD, out / "hood.stl", 'part="hood"'),
        "piece.stl": hardware.scad_command(SCAD, out / "piece.stl", 'part="top_piece"', "piece=[1,0]"),
        "ledboard.svg": hardware.scad_command(SCAD, out / "ledboard.svg", 'part="ledboard_2d"'),
        "top_2d.svg": hardware.scad_command(SCAD, out / "top_2d.svg", 'part="top_2d"'),
        "floor_2d.svg": hardware.scad_command(SCAD, out / "floor_2d.svg", 'part="floor_2d"'),
        "back_2d.svg": hardware.scad_command(SCAD, out / "back_2d.svg", 'part="back_2d"'),
        "table.png": hardware.picture_command(SCAD, out / "table.png"),
    }
    running = {name: subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for name, command in jobs.items()}
    logs = {}
    for name, process in running.items():
        logs[name] = process.communicate(timeout=600)[0]
        assert process.returncode == 0, f"{name}: openscad failed:\n{logs[name]}"
    return out, logs


def echo_of(log):
    return {line for line in log.splitlines() if line.startswith("ECHO:")}


def stl_bounds(path):
    vertices = [tuple(map(float, match)) for match in re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", path.read_text())]
    assert len(vertices) > 1000
    return [(min(v[i] for v in vertices), max(v[i] for v in vertices)) for i in range(3)]


def test_every_part_renders_without_an_error_or_a_collision_warning(renders):
    _, logs = renders
    for name, log in logs.items():
        assert "ERROR" not in log, f"{name}:\n{log}"
        assert not [line for line in echo_of(log) if "WARNING" in line], f"{name}:\n{log}"
        assert "not closed" not in log and "non-planar" not in log.lower(), name


def test_the_solids_are_single_closed_volumes(renders):
    _, logs = renders
    for name in ("top.stl", "hood.stl", "piece.stl"):
        # CGAL counts the outer (infinite) volume too: 2 is one closed solid
        assert re.search(r"Volumes:\s+2\b", logs[name]), f"{name}:\n{logs[name]}"


def test_the_plate_has_the_size_the_docs_give(renders):
    out, logs = renders
    echo = "\n".join(echo_of(logs["top.stl"]))
    plate = re.search(r"plate ([\d.]+) x ([\d.]+) mm, ([\d.]+) mm thick", echo)
    width, depth, height = (float(value) for value in plate.groups())
    (x0, x1), (y0, y1), (z0, z1) = stl_bounds(out / "top.stl")
    assert (round(x1 - x0, 1), round(y1 - y0, 1), round(z1 - z0, 1)) == (width, depth, height)
    pitch = re.search(r"tile pitch (\d+) x (\d+) mm", echo).groups()
    guide = " ".join(README.split())
    assert f"an {pitch[0]} x {pitch[1]} mm pitch" in guide and f"(an {pitch[0]} x {pitch[1]} mm grid" in guide
    board_size = f"{round(width)} x {round(depth)} mm"
    assert board_size in parts()["LED board"].example and board_size in parts()["box floor"].example
    assert f"3 mm MDF, {board_size}" in guide


def test_a_piece_fits_the_bed_turned_over_for_printing(renders):
    out, logs = renders
    echo = "\n".join(echo_of(logs["top.stl"]))
    thickness = float(re.search(r"mm, ([\d.]+) mm thick", echo)[1])
    (x0, x1), (y0, y1), (z0, z1) = stl_bounds(out / "piece.stl")
    assert (x0, y0, z0) == pytest.approx((0, 0, 0), abs=1e-3)
    assert x1 <= 220 and y1 <= 220 and z1 == pytest.approx(thickness)
    text = (out / "piece.stl").read_text()
    # the top face lies on the bed: many facets face down and lie flat at z = 0
    facets = re.findall(r"facet normal (\S+) (\S+) (\S+)\s+outer loop\s+((?:vertex \S+ \S+ \S+\s+){3})", text)
    on_bed = [
        facet for facet in facets
        if float(facet[2]) == pytest.approx(-1)
        and all(abs(float(z)) < 1e-3 for z in re.findall(r"vertex \S+ \S+ (\S+)", facet[3]))
    ]
    assert len(on_bed) > 50


def test_screws_and_pieces_match_the_parts_list_and_the_guide(renders):
    _, logs = renders
    echo = "\n".join(echo_of(logs["ledboard.svg"]))
    edge, up, hood = (int(n) for n in re.search(r"screws: (\d+) along the edges, (\d+) up through the LED board, (\d+) for the hood", echo).groups())
    bom = parts()
    corners = mechanics.BOX_CORNER_SCREWS
    assert bom["wood screw 3 x 40 mm"].quantity == edge + corners
    assert f"({edge})" in bom["wood screw 3 x 40 mm"].notes and f"({corners})" in bom["wood screw 3 x 40 mm"].notes
    assert bom["self-tapping screw 3 x 16 mm"].quantity == up and f"({up})" in bom["self-tapping screw 3 x 16 mm"].notes
    assert bom["screw M3 x 12 mm"].quantity == bom["threaded insert M3"].quantity == hood
    guide = " ".join(README.split())
    assert up == 6 and "the 6 self-tapping 3 x 16 mm screws down through the LED board's six 3.4 mm holes inside the grid" in guide
    assert f"{edge} countersunk screws (3 x 40 mm)" in guide
    columns, rows = (int(n) for n in re.search(r"pieces: (\d+) x (\d+)", echo).groups())
    assert f"cut into {columns} x {rows} pieces" in guide
    assert "nine pieces" in guide and columns * rows == 9


def test_the_checks_catch_a_piece_too_large_for_the_bed(need_tool):
    need_tool("openscad")
    echo = hardware.echoes(SCAD, "cuts_x=[]")
    assert re.search(r'WARNING: piece \[0, 0\] is 470 x [\d.]+ mm: larger than the bed; add a cut', echo), echo


def test_the_checks_catch_an_edge_screw_through_the_mdf_routes_acrylic(need_tool):
    # the first acrylic ran 8 mm past the walls: the side strips were cut back to 6 mm under eight edge screws
    need_tool("openscad")
    echo = hardware.echoes(SCAD, "acrylic_margin=8")
    assert len(re.findall(r"WARNING: the edge screw at \[[\d.]+, [\d.]+\] goes through the MDF route's acrylic", echo)) == 8, echo


def test_the_committed_picture_is_the_model_as_it_is(renders):
    out, _ = renders
    fresh, committed = pygame.image.load(str(out / "table.png")), pygame.image.load(str(HARDWARE / "table.png"))
    assert fresh.get_size() == committed.get_size() == hardware.PICTURE_SIZE
    # different OpenGL drivers shade a little differently: compare coarsely
    small = (120, 90)
    a = pygame.transform.smoothscale(fresh, small)
    b = pygame.transform.smoothscale(committed, small)
    differing = sum(
        1 for x in range(small[0]) for y in range(small[1])
        if max(abs(p - q) for p, q in zip(a.get_at((x, y))[:3], b.get_at((x, y))[:3])) > 40
    )
    assert differing < 0.02 * small[0] * small[1], f"hardware/table.png is out of date: run `{REGENERATE} --picture`"


def test_the_drawings_have_every_hole(renders):
    out, logs = renders
    echo = "\n".join(echo_of(logs["ledboard.svg"]))
    edge, up, hood = (int(n) for n in re.search(r"screws: (\d+) along the edges, (\d+) up through the LED board, (\d+) for the hood", echo).groups())
    # OpenSCAD writes a 2D result as one path, a subpath ("M") per contour: the outline and each hole
    top = (out / "top_2d.svg").read_text().count("\nM ")
    ledboard = (out / "ledboard.svg").read_text().count("\nM ")
    buttons = len(REQUIRED_PINS) + len(BUTTON_PINS)
    frames = 25 * 4  # four windows around each card (flat card places: the near one is not parted)
    buzzer = 7  # sound holes
    status_led, cable_slot = 1, 1
    assert top == 1 + frames + board.STATUS_LEDS + buttons + status_led + buzzer + cable_slot + hood + edge
    # the LED board: a mark per LED, a wire hole per pad, a hole per button, status LED and buzzer, the feeds
    # (the hood's screws go into inserts in the plate: no holes for nuts)
    feeds = len(re.findall(r'\["[^"]+", \[[\d.]+, [\d.]+\], \d+\]', next(line for line in echo.splitlines() if "figure feeds" in line)))
    assert feeds == 1  # the chain's one feed, A1's (buildkit/electrical.py's chain_feeds())
    hung = 4  # the hung tile board's standoffs' screws
    assert ledboard == 1 + edge + up + board.LEDS + 25 + buttons + status_led + 1 + feeds + cable_slot + hung
    # the floor: its screws, the Pi's four mounting holes, the hatch under the hung tile board, five vents under the Pi;
    # the back wall: the USB-C and DC entries
    floor_screws = int(re.search(r'\["floor", "printed", (\d+),', echo)[1])
    assert (out / "floor_2d.svg").read_text().count("\nM ") == 1 + floor_screws + 4 + 1 + 5
    back = (out / "back_2d.svg").read_text()
    assert back.count("\nM ") == 1 + 2
    # the plank as cut: 67 mm (the box's 70 less the floor under it), so a 1:1 print lines up with its edges
    assert 'height="67mm"' in back and 'width="470mm"' in back


def test_the_stl_command_renders_the_nine_pieces_and_the_hood(need_tool):
    need_tool("openscad")
    parts = hardware.printable_parts(SCAD)
    assert [name for name, _ in parts] == [f"top-{i}-{j}.stl" for j in range(3) for i in range(3)] + ["hood.stl"]
    assert parts[4][1] == ['part="top_piece"', "piece=[1,1]"]


def test_the_stl_command_passes_a_define_to_every_part(need_tool, monkeypatch, tmp_path, capsys):
    # step 4 of the guide prints the encoder's plate with --define 'clue_input="encoder"': every piece and the hood
    # get it, and the pieces are counted with it
    need_tool("openscad")
    shutil.copytree(HARDWARE, tmp_path / "hardware")
    run, rendered = subprocess.run, []

    def record(command, *args, **kwargs):
        if str(command[command.index("-o") + 1]).endswith(".stl"):
            rendered.append(command)
            return subprocess.CompletedProcess(command, 0)
        return run(command, *args, **kwargs)  # the model's echoes: OpenSCAD for real

    monkeypatch.setattr(hardware.subprocess, "run", record)
    define = 'clue_input="encoder"'
    args = ["--folder", str(tmp_path / "hardware"), "--stl", str(tmp_path / "stl"), "--define", define]
    readme = tmp_path / "hardware" / "README.md"
    readme.write_text(readme.read_text("utf-8") + "a builder's note\n", "utf-8")
    assert hardware.main(args) == 0
    assert readme.read_text("utf-8").endswith("a builder's note\n")  # --stl only renders: the README stays as it was
    assert len(rendered) == 10
    assert all(command[command.index(define) - 1] == "-D" for command in rendered)
    # the define reaches the model: the pieces of an encoder plate have the encoder's hole
    assert "encoder" in [panel[0] for panel in mechanics.figures(SCAD, define)["panels"]]
    assert "encoder" not in [panel[0] for panel in mechanics.figures(SCAD)["panels"]]


@pytest.mark.parametrize("text", ["clue_input", "=1", "clue input=1", "leds="])
def test_a_define_that_is_not_name_equals_value_is_one_line_naming_the_form(text, capsys):
    with pytest.raises(SystemExit) as exit_:
        hardware.main(["--check", "--define", text])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "give NAME=VALUE" in err and "--define 'clue_input=\"encoder\"'" in err


def test_no_render_of_the_model_prints_a_warning(need_tool, tmp_path):
    # the guide says a WARNING line means two things collide: no render may print one for anything else (a camera
    # set in the file made OpenSCAD warn "Viewall and autocenter disabled" on every render)
    need_tool("openscad")
    for part in ("ledboard_2d", "floor_2d"):
        out = tmp_path / f"{part}.svg"
        result = subprocess.run(hardware.scad_command(SCAD, out, f'part="{part}"', "$fn=8"), capture_output=True, text=True, check=True)
        assert out.stat().st_size > 1000 and "WARNING" not in result.stdout + result.stderr, part
    command = hardware.picture_command(SCAD, Path("table.png"))
    assert "--camera=235,298.5,-20,52,0,205,1552.2" in command


# --- the build guide's step pictures: drawn from the model, and not older than it


def test_the_step_pictures_are_not_older_than_the_model():
    # hardware/steps/SOURCES holds what --steps drew them from (the model's files, OpenSCAD's arguments) and each
    # picture's sha256: a change to either since then fails here, without OpenSCAD
    committed = (HARDWARE / "steps" / steps.MANIFEST).read_text("utf-8")
    changed = steps.stale(committed, hardware.step_manifest(HARDWARE))
    assert not changed, steps.stale_message(changed)


def _step_folder(tmp_path):
    """A copy of hardware/ with what the step pictures are drawn from, and the pictures."""
    folder = tmp_path / "hardware"
    shutil.copytree(HARDWARE / "steps", folder / "steps")
    shutil.copy(HARDWARE / steps.TABLE, folder / steps.TABLE)
    for name in steps.scad_files(HARDWARE):
        shutil.copy(HARDWARE / name, folder / name)
    return folder


def test_the_step_manifest_is_the_same_anywhere_and_names_what_changed(tmp_path, monkeypatch):
    folder = _step_folder(tmp_path)
    committed = (HARDWARE / "steps" / steps.MANIFEST).read_text("utf-8")
    assert hardware.step_manifest(folder) == committed  # no absolute path, no time
    assert steps.scad_files(HARDWARE) == ["enclosure.scad", "steps.scad"]  # what enclosure.scad includes counts
    (folder / "steps.scad").write_text((folder / "steps.scad").read_text("utf-8").replace("\n", "\r\n"), "utf-8")
    assert hardware.step_manifest(folder) == committed  # a checkout with CRLF line ends
    (folder / "steps.scad").write_text((folder / "steps.scad").read_text("utf-8") + "// moved\n", "utf-8")
    (folder / "steps" / "04-plate.png").write_bytes(b"")
    changed = steps.stale(committed, hardware.step_manifest(folder))
    assert changed == ["steps.scad", "steps/04-plate.png"]
    failure = steps.stale_message(changed)  # one line: what changed and the command that draws them again
    assert "\n" not in failure and "steps.scad, steps/04-plate.png" in failure
    assert "`.venv/bin/python host/buildkit hardware --steps`" in failure
    (folder / steps.TABLE).write_bytes(b"drawn with a --define")  # the whole table's picture, drawn again alone
    assert steps.stale(committed, hardware.step_manifest(folder)) == ["steps.scad", steps.TABLE, "steps/04-plate.png"]
    (folder / steps.TABLE).unlink()
    assert f"{steps.TABLE} missing: the whole table" in hardware.step_manifest(folder)
    monkeypatch.setitem(steps.PICTURES, "05-ledboard.png", (5, (0, 0, 90, 0)))  # a camera turned
    assert "steps/05-ledboard.png" in steps.stale(committed, hardware.step_manifest(folder))
    monkeypatch.setitem(steps.PICTURES, "17-more.png", (17, (0, 0, 0, 0)))  # a picture not drawn yet
    assert "steps/17-more.png missing: openscad" in hardware.step_manifest(folder)


def test_steps_says_what_it_wrote_and_its_manifest_holds(tmp_path, monkeypatch, capsys):
    # OpenSCAD stood in for: each "picture" is its own command line, so the manifest must match what was drawn
    folder = _step_folder(tmp_path)
    drawn = []

    def draw(command, **kwargs):
        output = Path(command[command.index("-o") + 1])
        output.write_text(" ".join(command[command.index("-o"):]))
        drawn.append(output.name)

    monkeypatch.setattr(hardware, "openscad", lambda: "openscad")
    monkeypatch.setattr(hardware, "echoes", lambda scad, *defines: 'ECHO: "figure camera = [1, 2, 3, 4, 5, 6, 7]"')
    monkeypatch.setattr(hardware.subprocess, "run", draw)
    assert hardware.main(["--steps", "--folder", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert drawn == [*steps.PICTURES, steps.TABLE]
    assert out[:-1] == [*(str(folder / "steps" / name) for name in steps.PICTURES), str(folder / steps.TABLE),
                        str(folder / "steps" / steps.MANIFEST)]
    assert "look at each one" in out[-1]
    assert not steps.stale((folder / "steps" / steps.MANIFEST).read_text("utf-8"), hardware.step_manifest(folder))
    assert steps.stale((HARDWARE / "steps" / steps.MANIFEST).read_text("utf-8"), hardware.step_manifest(folder)) == [
        steps.TABLE, *(f"steps/{name}" for name in steps.PICTURES)]
