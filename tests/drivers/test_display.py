"""The player display: its protocol (pure, fake time), over loop:// and over a pty."""

from __future__ import annotations

import itertools

import pytest
import serial

from drivers.display import PlayerDisplay
from drivers.display_protocol import (
    DisplayFrame,
    DisplayLink,
    FrameError,
    Reply,
    decode_frame,
    decode_reply,
    encode_frame,
    encode_reply,
)
from drivers.display_sim import SimulatedDisplay
from drivers.lines import MAX_LINE, LineError, seal, unseal
from tests.waiting import wait_until

FRAME = DisplayFrame(left=12, right=9, clock="0:15", turn="L", board=3, message="QUEEN DUE")


def ack_of(sent: bytes) -> bytes:
    seq, _ = decode_frame(unseal(sent))
    return encode_reply(Reply("A", seq))


# -- framing ------------------------------------------------------------------------------


def test_display_frame_round_trip_and_checksum() -> None:
    line = encode_frame(7, FRAME)
    assert line.startswith(b"F 7 L=12 R=9 C=0:15 T=L B=3 M=QUEEN_DUE G=- Q=- X=- Y=- D=- N=/ P=0 *")
    assert decode_frame(unseal(line)) == (7, FRAME)
    garbled = line.replace(b"L=12", b"L=13")
    with pytest.raises(LineError, match="checksum mismatch"):
        unseal(garbled)


def test_display_crc_is_ccitt_false() -> None:
    # the standard check value of CRC-16/CCITT-FALSE for "123456789"
    assert seal("123456789").endswith(b" *29B1\n")


def test_display_bad_frames_name_the_field() -> None:
    with pytest.raises(FrameError, match="left"):
        DisplayFrame(left=1000)
    with pytest.raises(FrameError, match="clock"):
        DisplayFrame(clock="soon")
    with pytest.raises(FrameError, match="turn"):
        DisplayFrame(turn="X")  # type: ignore[arg-type]
    with pytest.raises(FrameError, match="message"):
        DisplayFrame(message="much too long a message")
    with pytest.raises(FrameError, match="games"):
        DisplayFrame(games="100-0")
    with pytest.raises(FrameError, match="queen"):
        DisplayFrame(queen="Q")
    with pytest.raises(FrameError, match="left_clock"):
        DisplayFrame(left_clock="1h")
    with pytest.raises(FrameError, match="right_name"):
        DisplayFrame(right_name="अमित")  # a display draws Latin only: initials come transliterated


def test_display_version_2_fields_round_trip_and_version_1_is_still_read() -> None:
    full = DisplayFrame(
        left=999, right=999, clock="999:59", turn="R", board=999, message="M" * 12,
        games="99-99", queen="P", left_clock="999:59", right_clock="999:59", delay="999:59",
        left_name="ABC", right_name="XYZ", match_length=99,
    )  # fmt: skip
    line = encode_frame(9999, full)
    assert len(line) <= MAX_LINE  # the longest frame fits a line
    assert decode_frame(unseal(line)) == (9999, full)
    assert b" G=99-99 Q=P X=999:59 Y=999:59 D=999:59 N=ABC/XYZ P=99 *" in line
    # A version 1 frame (no G..N) reads with their defaults; a later field is skipped.
    old = seal("F 17 L=12 R=9 C=0:15 T=L B=3 M=QUEEN_DUE")
    assert decode_frame(unseal(old)) == (17, FRAME)
    later = seal("F 18 L=12 R=9 C=0:15 T=L B=3 M=QUEEN_DUE Q=L Z=7")
    assert decode_frame(unseal(later))[1].queen == "L"


def test_display_version_3_match_length_and_version_2_is_still_read() -> None:
    frame = DisplayFrame(left=4, right=2, message="CRAWFORD", match_length=5)
    assert b" L=4 R=2 " in encode_frame(1, frame) and b" P=5 *" in encode_frame(1, frame)
    v2 = seal("F 3 L=4 R=2 C=- T=- B=0 M=CRAWFORD G=- Q=- X=- Y=- D=- N=/")
    assert decode_frame(unseal(v2))[1] == DisplayFrame(left=4, right=2, message="CRAWFORD")
    with pytest.raises(FrameError, match="match_length"):
        DisplayFrame(match_length=100)


def test_display_replies_decode() -> None:
    assert decode_reply(encode_reply(Reply("A", 42))) == Reply("A", 42)
    assert decode_reply(encode_reply(Reply("N"))) == Reply("N", None)
    assert decode_reply(encode_reply(Reply("R", boot="b7"))) == Reply("R", None, "b7")
    with pytest.raises(LineError):
        decode_reply(b"A 4 *0000")


# -- the link, with time passed in --------------------------------------------------------


def test_display_link_sends_then_waits_for_the_ack() -> None:
    link = DisplayLink()
    first = link.connect(0.0)
    assert first.startswith(b"F 1 ")
    assert link.show(FRAME, 0.01) == b""  # one frame in flight at a time
    follow = link.receive(ack_of(first), 0.02)  # acked: the newer picture goes at once
    assert decode_frame(unseal(follow)) == (2, FRAME)
    assert link.receive(ack_of(follow), 0.03) == b""
    assert link.state == "ok" and link.acked == FRAME


def test_display_link_resends_on_missing_ack_then_reports_silent() -> None:
    link = DisplayLink(ack_timeout_s=0.25, retries=3, backoff_max_s=2.0)
    link.connect(0.0)
    link.show(FRAME, 0.0)
    times = []
    for ms in range(0, 8000, 10):
        if link.poll(ms / 1000):
            times.append(ms / 1000)
    assert times[:3] == [0.25, 0.5, 0.75]  # resends every ack timeout
    assert link.state == "silent"
    gaps = [round(b - a, 2) for a, b in itertools.pairwise(times)]
    assert gaps == [0.25, 0.25, 0.25, 0.5, 1.0, 2.0, 2.0]  # then backing off to the maximum


def test_display_link_late_ack_of_an_older_frame_does_not_count() -> None:
    link = DisplayLink()
    old = link.connect(0.0)
    newer = link.poll(0.3)  # resent under a new number
    assert newer
    assert link.receive(ack_of(old), 0.31) == b""
    assert link.state == "starting"
    link.receive(ack_of(newer), 0.32)
    assert link.state == "ok"


def test_display_link_refusal_resends_at_once() -> None:
    link = DisplayLink()
    link.connect(0.0)
    again = link.receive(encode_reply(Reply("N")), 0.01)
    assert again.startswith(b"F 2 ")


def test_display_link_resynchronises_after_the_display_resets() -> None:
    link = DisplayLink()
    first = link.connect(0.0)
    link.show(FRAME, 0.0)
    second = link.receive(ack_of(first), 0.01)
    link.receive(ack_of(second), 0.02)
    assert link.acked == FRAME
    resend = link.receive(encode_reply(Reply("R", boot="x")), 5.0)
    assert decode_frame(unseal(resend))[1] == FRAME
    assert link.acked is None and link.resets == 1


def test_display_link_keepalive_and_garbled_replies() -> None:
    link = DisplayLink(keepalive_s=2.0)
    first = link.connect(0.0)
    link.receive(ack_of(first), 0.01)
    assert link.poll(1.0) == b""
    assert link.poll(2.02).startswith(b"F ")  # nothing said for 2 s: send again
    assert link.receive(b"A 2 *FFFF", 2.03) == b""
    assert link.garbled == 1


# -- over pyserial ------------------------------------------------------------------------


def test_display_frames_cross_a_loop_port() -> None:
    port = serial.serial_for_url("loop://", timeout=0.5)
    with SimulatedDisplay(announce=False) as sim:
        link = DisplayLink()
        port.write(link.show(FRAME, 0.0))
        reply = sim.handle(port.readline())  # the frame, read back from the port
        port.write(reply)
        assert link.receive(port.readline(), 0.01) == b""
    assert sim.shown == FRAME and link.acked == FRAME
    port.close()


def test_display_over_a_pty_shows_the_frame() -> None:
    with SimulatedDisplay() as sim, PlayerDisplay(sim.port_path) as display:
        display.show(FRAME)
        assert sim.wait_for(FRAME, 5.0)
        assert display.wait_shown(FRAME, 5.0)
        assert wait_until(lambda: display.status.state == "ok")


def test_display_silent_is_reported_and_recovers() -> None:
    with (
        SimulatedDisplay() as sim,
        PlayerDisplay(sim.port_path, ack_timeout_s=0.05, retries=1, keepalive_s=0.2) as display,
    ):
        display.show(FRAME)
        assert display.wait_shown(FRAME, 5.0)
        sim.mute = True
        assert wait_until(lambda: display.status.state == "silent")
        assert "does not answer" in display.status.detail
        sim.mute = False
        assert wait_until(lambda: display.status.state == "ok")


def test_display_garbled_frames_are_refused_and_resent() -> None:
    with SimulatedDisplay() as sim, PlayerDisplay(sim.port_path) as display:
        assert wait_until(lambda: display.status.state == "ok")
        sim.corrupt_next(2)
        display.show(FRAME)
        assert sim.wait_for(FRAME, 5.0)
        assert sim.refused == 2


def test_display_reset_is_resynchronised() -> None:
    with SimulatedDisplay() as sim, PlayerDisplay(sim.port_path) as display:
        display.show(FRAME)
        assert sim.wait_for(FRAME, 5.0)
        sim.reset()  # a power cycle: blank
        assert sim.wait_for(FRAME, 5.0)
        assert display.link.resets >= 1


def test_display_unplugged_is_a_status_not_an_exception() -> None:
    with PlayerDisplay("/dev/tableside-no-such-display", backoff_s=(0.01, 0.05)) as display:
        display.show(FRAME)  # must not raise
        assert wait_until(lambda: display.status.state == "unplugged")
        assert "/dev/tableside-no-such-display" in display.status.detail
        assert wait_until(lambda: display.reconnects >= 3)  # and it keeps trying
    assert display.status.state == "closed"


def test_display_plugged_in_later_is_found() -> None:
    sim = SimulatedDisplay()
    path = sim.port_path
    opened: list[str] = []

    def opener(url: str, **kw: object) -> serial.Serial:
        opened.append(url)
        if len(opened) < 3:
            raise serial.SerialException(f"could not open port {url}")
        return serial.serial_for_url(path, **kw)

    url = "/dev/serial/by-id/display"
    with sim, PlayerDisplay(url, opener=opener, backoff_s=(0.01, 0.02)) as d:
        d.show(FRAME)
        assert sim.wait_for(FRAME, 5.0)
        assert wait_until(lambda: d.status.state == "ok")
    assert len(opened) >= 3
