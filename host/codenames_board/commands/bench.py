"""``codenames-board bench``: the speed and memory figures, measured from outside."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..benchroot import default_root
from ..clibase import EXIT_USAGE, add_lang, positive
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    bench = commands.add_parser("bench", help=tr("cli.bench"), description=tr("cli.bench"))
    bench.add_argument("what", choices=["touch", "run", "tiles", "web"], help=tr("cli.bench_what"))
    bench.add_argument("--touches", type=positive(int, tr, 1_000_000), default=None, metavar="N", help=tr("cli.bench_touches"))
    bench.add_argument("--seconds", type=positive(float, tr, 3600), default=None, metavar="SECONDS", help=tr("cli.bench_seconds"))
    bench.add_argument("--clients", type=positive(int, tr, 40), default=20, metavar="N", help=tr("cli.bench_clients"))
    bench.add_argument(
        "--arm64", nargs="?", const=str(default_root()), default=None, metavar="DIR",
        help=tr("cli.bench_arm64", root=default_root()),
    )
    add_lang(bench, tr)
    bench.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..bench import bench_run, bench_tiles
    from ..progress import Progress

    if args.what == "touch":
        return _bench_touch(args.touches or 1000, None if args.arm64 is None else Path(args.arm64), tr)
    if args.what == "web":
        return _bench_web(args.touches or 300, args.clients, args.seconds or 10.0, tr)
    seconds = args.seconds or 3.0
    if args.what == "run":
        with Progress(tr) as progress:
            result = bench_run(seconds, progress=progress)
        print(tr("bench.run_title", runs=result["runs"]))
        print(tr("bench.run_start", median=f"{result['start_s']:.2f}", max=f"{result['start_max_s']:.2f}"))
        print(tr("bench.run_idle", cpu=f"{result['idle_cpu_percent']:.2f}", seconds=seconds))
        print(tr("bench.run_memory", mb=f"{result['rss_mb']:.0f}"))
        return 0
    with Progress(tr) as progress:
        result = bench_tiles(args.touches or 2000, seconds, progress=progress)
    print(tr("bench.tiles_title", touches=result["touches"]))
    print(tr("bench.tiles_latency", p50=f"{result['p50_ms']:.3f}", p99=f"{result['p99_ms']:.3f}", max=f"{result['max_ms']:.3f}"))
    print(tr("bench.tiles_fps", fps=f"{result['fps']:.0f}", sent=result["frames_sent"], received=result["frames_received"]))
    return 0


def _bench_touch(touches: int, root: Path | None, tr: Translator) -> int:
    from ..benchroot import RootNotReady, check, emulated
    from ..benchtouch import PI_BUDGET_MS, MicroPythonMissing, bench_resume, bench_touch, pi_estimate
    from ..progress import Progress

    if root is not None:
        try:
            check(root)
        except RootNotReady as problem:
            print(tr(problem.msgid, **problem.params), file=sys.stderr)
            return EXIT_USAGE
    with Progress(tr) as progress:
        try:
            result = bench_touch(touches, progress=progress, root=root)
        except MicroPythonMissing:
            progress.close()
            import shlex

            print(tr("bench.no_micropython", python=shlex.quote(sys.executable)), file=sys.stderr)  # this venv's pip
            return 1
        progress("bench.progress_resume")
        resume = bench_resume()

    def ms(part: dict) -> dict:
        return {name: f"{part[name]:.2f}" for name in ("p50", "p99", "max")}

    parts = result["total"]
    print(tr("bench.touch_title", touches=result["touches"], games=result["games"]))
    print(tr("bench.touch_setup"))
    if root is not None:
        print(tr("bench.touch_arm64" if emulated() else "bench.touch_arm64_native", root=str(root)))
    print(tr("bench.touch_pad", **ms(parts["pad"])))
    print(tr("bench.touch_host", over=result["over_10ms"], **ms(parts["host"])))
    print(tr("bench.touch_frame", **ms(parts["frame"])))
    print(tr("bench.touch_total", **ms(parts["total"])))
    frames = result["frames"]
    print(tr("bench.touch_frames", count=frames["count"], p50=frames["p50_us"], p99=frames["p99_us"], max=frames["max_us"]))
    alone, bytewise = result["firmware_alone"], result["firmware_bytewise"]
    print(tr(
        "bench.touch_alone", p50=alone["frame_us"]["p50"], p99=alone["frame_us"]["p99"],
        set_p50=alone["set_us"]["p50"], byte_p50=bytewise["frame_us"]["p50"],
        byte_set_p50=bytewise["set_us"]["p50"], byte_set_p99=bytewise["set_us"]["p99"],
    ))
    scan, polled = alone["scan_us"], alone["scan_poll_us"]
    print(tr("bench_irq.scan", p50=scan["p50"], p99=scan["p99"], poll_p50=polled["p50"], poll_p99=polled["p99"]))
    pty, fsync = result["pty_ms"], result["fsync_ms"]
    print(tr(
        "bench.touch_floors", pty=f"{pty['p50']:.2f}", pty99=f"{pty['p99']:.2f}",
        ratio=f"{parts['host']['p50'] / pty['p50']:.1f}",
        fsync=f"{fsync['p50']:.2f}", fsync99=f"{fsync['p99']:.2f}",
    ))
    print(tr("bench.touch_start", first=f"{result['first_frame_s']:.2f}", ready=f"{result['ready_s']:.2f}"))
    print(tr("bench.touch_resume", actions=resume["actions"], every=resume["undo_every"], seconds=f"{resume['resume_s']:.2f}"))
    print(tr("bench.touch_memory", mb=f"{result['rss_mb']:.0f}"))
    print(tr("bench.touch_left_out"))
    print(tr(
        "bench.touch_pi", total=f"{sum(PI_BUDGET_MS.values()):g}",
        **{name: f"{value:g}" for name, value in PI_BUDGET_MS.items()},
    ))
    estimate = pi_estimate(result)
    source = result["debounce_source"]
    low, high = estimate["sense_ms"]
    print(tr(
        "bench.touch_debounce", debounce=result["debounce"], low=f"{low:g}", high=f"{high:g}",
        source=tr("bench.debounce_config", path=source) if source else tr("bench.debounce_default"),
    ))
    if root is None:  # the host factor is a Pi core against this machine's own, not against an emulator
        usb_low, usb_high = estimate["usb_ms"]
        print(tr(
            "bench.touch_method", host_factor=estimate["host_factor"], fw_factor=estimate["fw_factor"],
            low=f"{low:g}", high=f"{high:g}", usb_low=f"{usb_low:g}", usb_high=f"{usb_high:g}",
            leds=f"{estimate['leds_ms']:.2f}",
        ))
        print(tr(
            "bench.touch_estimate", host_factor=estimate["host_factor"], fw_factor=estimate["fw_factor"],
            low=f"{estimate['low']:.0f}", high=f"{estimate['high']:.0f}",
        ))
    return 0


def _bench_web(touches: int, clients: int, seconds: float, tr: Translator) -> int:
    from ..benchtouch import MicroPythonMissing
    from ..benchweb import BUDGETS, bench_web
    from ..progress import Progress

    with Progress(tr) as progress:
        try:
            result = bench_web(touches, clients, seconds, progress=progress)
        except MicroPythonMissing:
            progress.close()
            import shlex

            print(tr("bench.no_micropython", python=shlex.quote(sys.executable)), file=sys.stderr)
            return 1

    def ms(part: dict) -> dict:
        return {name: f"{part[name]:.2f}" for name in ("p50", "p99", "max")}

    def mb(pair: tuple[float, float]) -> dict:
        return {"rss": f"{pair[0]:.0f}", "hwm": f"{pair[1]:.0f}"}

    (before, after), budget = result["load"], BUDGETS
    print(tr("bench.web_title", touches=touches, clients=clients, games=result["games"][1]))
    print(tr("bench.web_setup"))
    print(tr("bench.web_load", cpus=result["cpus"], before=f"{before[0]:.2f}", after=f"{after[0]:.2f}"))
    print(tr("bench.web_page", clients=clients, budget=budget["page_p99_ms"], **ms(result["page_ms"])))
    print(tr("bench.web_page_first", **ms(result["first_ms"])))
    print(tr("bench.web_page_last", **ms(result["last_ms"])))
    print(tr("bench.web_led_off", **ms(result["led_off_ms"])))
    print(tr("bench.web_led_on", clients=clients, **ms(result["led_on_ms"])))
    print(tr("bench.web_host", off=f"{result['host_off_ms']['p99']:.2f}", on=f"{result['host_on_ms']['p99']:.2f}"))
    queued, held = result["stuck_queued"]
    print(tr("bench.web_stuck", drops=result["stuck_drops"], queued=f"{queued / 1024:.0f}", held=f"{held / 1024:.0f}"))
    print(tr("bench.web_memory_on", clients=clients, budget=budget["rss_mb"], **mb(result["memory_on_mb"])))
    print(tr("bench.web_memory_off", **mb(result["memory_off_mb"])))
    print(tr(
        "bench.web_idle", seconds=f"{result['idle_seconds']:g}", clients=result["idle_clients"],
        on=f"{result['idle_on_percent']:.2f}", off=f"{result['idle_off_percent']:.2f}",
        budget=budget["idle_cpu_percent"],
    ))
    print(tr("bench.web_left_out"))
    return 0
