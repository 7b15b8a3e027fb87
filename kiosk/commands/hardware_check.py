"""`tableside hw-test`: for the person installing a kiosk.

Shows each pocket beam live (a line per hit and fault, and the beam states),
sounds the buzzer, and pings the player display, all with the settings file's
pins and ports. A pin in use or missing is named. `--simulate` uses
MockFactory pins driven by a short demo script, and the simulated display.

Exit status: 0 when every part answered, 1 when one did not (each problem is
listed), 2 when the settings or a pin cannot be used at all.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
import warnings
from contextlib import ExitStack
from typing import Any

from gpiozero.exc import PinFactoryFallback

from drivers.bridge import SensorBridge
from drivers.bridge_sim import SimulatedBridge
from drivers.buzzer import BuzzerPlayer
from drivers.display import PlayerDisplay
from drivers.display_protocol import DisplayFrame
from drivers.display_sim import SimulatedDisplay
from drivers.errors import DriverError
from drivers.hits import POCKETS, BeamFault, BeamHit, BeamReport
from drivers.pinfactory import make_pin_factory
from drivers.pockets import PocketBeams
from drivers.simulated import SimulatedBeams
from kiosk.clocks.patterns import DOUBLE_BEEP, duration
from kiosk.config import ConfigError, Settings, load_settings

# Every field of the frame lit, so the installer sees each digit and lamp of the board work
# (version 3's match length too): a field left at its default would stay dark.
TEST_FRAME = DisplayFrame(
    left=888,
    right=888,
    clock="88:88",
    turn="L",
    board=888,
    message="HW TEST 8888",
    games="88-88",
    queen="P",
    left_clock="88:88",
    right_clock="88:88",
    delay="88",
    left_name="HWL",
    right_name="HWR",
    match_length=88,
)
# The demo the simulated beams play each second: one coin through each pocket.
DEMO = ((0.15, 1, 0.012), (0.35, 2, 0.016), (0.55, 3, 0.020), (0.75, 4, 0.014))
# How long past the window the simulated run waits for its own demo's last hits: on a
# busy machine the demo's thread and the beams' filter can run late.
DEMO_GRACE_S = 2.0


def _say(text: str) -> None:
    print(text, flush=True)


def _states_line(states: Any) -> str:
    return "beams: " + ", ".join(f"{p} {states[p]}" for p in POCKETS)


def _report_line(report: BeamReport, t0: float) -> str:
    if isinstance(report, BeamHit):
        return (
            f"{report.t - t0:8.3f} s  pocket {report.pocket}  hit    "
            f"{report.duration * 1000:6.1f} ms"
        )
    return f"{report.t - t0:8.3f} s  pocket {report.pocket}  fault  {report.kind}"


def main(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        print(f"hw-test: the settings cannot be used:\n{exc}", file=sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            # gpiozero warns once per factory it cannot load; the final error says enough.
            warnings.simplefilter("ignore", PinFactoryFallback)
            return _run(settings, simulate=bool(args.simulate), seconds=float(args.seconds))
    except DriverError as exc:
        print(f"hw-test: {exc}", file=sys.stderr)
        return 2


def _run(settings: Settings, *, simulate: bool, seconds: float) -> int:
    reports: queue.Queue[BeamReport] = queue.Queue()
    problems: list[str] = []
    p = settings.pockets
    filter_settings: dict[str, Any] = {"glitch_s": p.glitch_ms / 1000, "stuck_s": p.stuck_s}
    with ExitStack() as stack:
        factory = make_pin_factory("mock" if simulate else p.pin_factory)
        sim_beams: SimulatedBeams | None = None
        bridge: SensorBridge | None = None
        fake_bridge: SimulatedBridge | None = None
        beams: PocketBeams | None = None
        source = "simulated" if simulate and p.source == "gpio" else p.source
        mode = " (simulated)" if simulate else ""
        if source == "bridge":
            port = settings.bridge.port
            if simulate:
                fake_bridge = stack.enter_context(SimulatedBridge())
                port = fake_bridge.port_path
            if not port:
                print("hw-test: pockets.source is bridge but bridge.port is empty", file=sys.stderr)
                return 2
            bridge = SensorBridge(
                port, sink=reports.put, baud=settings.bridge.baud, **filter_settings
            )
            stack.callback(bridge.close)
            _say(f"sensor bridge: {port}{mode}")
        elif source == "simulated":
            sim_beams = SimulatedBeams(
                sink=reports.put, pins=p.pins, pin_factory=factory, watch_s=0.1, **filter_settings
            )
            stack.callback(sim_beams.close)
            beams = sim_beams.beams
            _say(f"beams: GPIO {', '.join(map(str, p.pins))} for pockets 1-4 (simulated)")
        else:
            beams = PocketBeams(
                p.pins, sink=reports.put, pin_factory=factory, watch_s=0.1, **filter_settings
            )
            stack.callback(beams.close)
            _say(f"beams: GPIO {', '.join(map(str, p.pins))} for pockets 1-4")
        if beams is not None:
            _say(_states_line(beams.states()))

        b = settings.buzzer
        if b.silent:
            _say("buzzer: silent by the settings (buzzer.silent = true)")
        else:
            buzzer = BuzzerPlayer(b.pin, tonal=b.tonal, pin_factory=factory)
            stack.callback(buzzer.close)
            buzzer.play(DOUBLE_BEEP)
            kind = "tonal" if b.tonal else "plain"
            if buzzer.wait_idle(duration(DOUBLE_BEEP) + 2.0) and buzzer.last_error is None:
                _say(f"buzzer: played a double beep on GPIO {b.pin} ({kind}){mode}")
            else:
                problems.append(f"buzzer on GPIO {b.pin}: {buzzer.last_error or 'did not finish'}")

        display_port = settings.display.port
        if simulate:
            display_port = stack.enter_context(SimulatedDisplay()).port_path
        if display_port:
            display = PlayerDisplay(display_port, baud=settings.display.baud)
            stack.callback(display.close)
            display.show(TEST_FRAME)
            if display.wait_shown(TEST_FRAME, 2.0):
                _say(f"display: {display_port} answered and shows the test frame{mode}")
                _say(f"display: found at {display.device}; stable path {display.stable_path}")
            else:
                problems.append(f"display on {display_port}: {display.status.detail}")
        else:
            _say("display: none (display.port is empty)")

        _say(f"watching the beams for {seconds:g} s: break each beam by hand")
        t0 = time.monotonic()
        end = t0 + seconds
        hits = dict.fromkeys(POCKETS, 0)
        last_states = dict(beams.states()) if beams is not None else {}
        next_demo = t0
        due: list[tuple[float, int, float]] = []
        played = 0  # the simulated demo's hits so far, each to be reported
        while (now := time.monotonic()) < end or (
            sum(hits.values()) < played and now < end + DEMO_GRACE_S
        ):
            if now >= next_demo and next_demo + 0.8 <= end:
                if sim_beams is not None:
                    sim_beams.play(DEMO)
                    played += len(DEMO)
                if fake_bridge is not None:  # the bridge reports each hit as it clears
                    due.extend((next_demo + t + length, pk, length) for t, pk, length in DEMO)
                    played += len(DEMO)
                next_demo += 1.0
            while fake_bridge is not None and due and due[0][0] <= now:
                _, pocket, length = due.pop(0)
                fake_bridge.hit(pocket, length)
            try:
                report = reports.get(timeout=min(0.05, end - now) if now < end else 0.05)
            except queue.Empty:
                report = None
            if report is not None:
                _say(_report_line(report, t0))
                if isinstance(report, BeamHit):
                    hits[report.pocket] += 1
                elif isinstance(report, BeamFault) and report.kind != "cleared":
                    problems.append(f"pocket {report.pocket}: beam {report.kind.replace('_', ' ')}")
            states = dict(beams.states()) if beams is not None else {}
            if states != last_states:
                _say(_states_line(states))
                last_states = states
        if bridge is not None:
            status = bridge.status
            _say(f"sensor bridge: {status.state} ({status.detail})")
            if bridge.device is not None:
                _say(f"sensor bridge: found at {bridge.device}; stable path {bridge.stable_path}")
            if not status.ok:
                problems.append(f"sensor bridge: {status.detail}")
        _say("hits: " + ", ".join(f"pocket {pk}: {n}" for pk, n in hits.items()))
    for problem in problems:
        _say(f"problem: {problem}")
    _say("hw-test: all parts answered" if not problems else f"hw-test: {len(problems)} problem(s)")
    return 0 if not problems else 1
