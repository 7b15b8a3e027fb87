"""Every reader of records and settings, fed mutated files through the `tableside` command
in-process: each answer is exit 0 or a refusal naming the file; any traceback is a failure,
and so is a hang (pytest-timeout). Over 1,000 inputs in all, in seconds.

The seeds are the scenario files in tests/data and the settings shipped in config/; the
mutations are byte flips, cuts, splices, and the inputs that broke readers before: JSON
nested 1,000 deep, integers of 5,000 digits, NaN and Infinity, lone surrogates, duplicate
keys, bad UTF-8, a line of a megabyte, deep TOML arrays."""

from __future__ import annotations

import contextlib
import io
import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"

SEEDS = {
    "replay": sorted((DATA / "carrom").glob("*.jsonl"))[:12],
    "clock": [p for p in sorted((DATA / "clock").glob("*.jsonl")) if "bad_" not in p.name][:8],
    "bhukhar": [DATA / "bhukhar" / "session.jsonl"],
    "config": [ROOT / "config" / "default.toml"],
}
COMMANDS = {
    "replay": ["replay"],
    "clock": ["clock", "replay"],
    "bhukhar": ["bhukhar", "standings"],
    "config": ["config", "check"],
}

#: What broke the readers before, spliced in anywhere.
POISON = [
    b"[" * 1000 + b"]" * 1000,
    b'{"a":' * 600 + b"1" + b"}" * 600,
    b"1" * 5000,
    b"NaN",
    b"-Infinity",
    b"1e999",
    b'"\\ud800"',
    b'"\\udfff\\ud800"',
    b'"player":"A","player":"B"',
    b"\xff\xfe\xc3",
    b"\x00",
    b"x" * 300_000,
    b"warn_minutes = nan",
    b"calibration = [[inf, 1], [2, 3], [4, 5], [6, 7]]",
    b"a = " + b"[" * 500 + b"]" * 500,
    b'pin_hash = "pbkdf2_sha256$' + b"9" * 5000 + b"$00112233445566778899$" + b"ab" * 32 + b'"',
    b'pin_hash = "pbkdf2_sha256$999999999$0011223344556677$' + b"ab" * 32 + b'"',
    b"\n" * 3,
    b"\r\n",
    b"\xef\xbb\xbf",
]


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS[kind])).read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "cut", "poison", "dup", "insert"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            i = min(at, len(data) - 1)
            data[i] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[at : at + draw(st.integers(1, 200))]
        elif op == "poison":
            data[at:at] = draw(st.sampled_from(POISON))
        elif op == "dup" and data:
            end = min(len(data), at + draw(st.integers(1, 400)))
            data[at:at] = data[at:end]
        else:
            data[at:at] = draw(st.binary(max_size=20))
    return bytes(data)


def run_reader(kind: str, path: Path) -> int:
    """The command in-process; an exception escaping it fails the test with its traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main([*COMMANDS[kind], str(path)])
    assert code in (0, 1), code
    if code == 1:
        assert str(path) in err.getvalue(), err.getvalue()[:300]  # names the file
    return code


FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_fuzz_reader_never_raises_or_hangs(kind: str, tmp_path: Path) -> None:
    path = tmp_path / ("s.toml" if kind == "config" else "r.jsonl")
    seen = 0

    @FUZZ
    @given(mutated(kind))
    def one(data: bytes) -> None:
        nonlocal seen
        path.write_bytes(data)
        run_reader(kind, path)
        seen += 1

    one()
    assert seen >= 250  # four readers: over 1,000 inputs in all


def _with_deadline(kind: str, path: Path, seconds: float = 10.0) -> int:
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(run_reader(kind, path)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert result, f"{kind} hung on {path}"
    return result[0]


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_fuzz_reader_refuses_a_fifo_without_a_writer(kind: str, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _with_deadline(kind, fifo) == 1


@pytest.mark.parametrize("kind", sorted(COMMANDS))
@pytest.mark.parametrize("special", ["/dev/zero", "folder"])
def test_fuzz_reader_refuses_devices_and_folders(kind: str, special: str, tmp_path: Path) -> None:
    path = Path(special) if special.startswith("/") else tmp_path
    assert _with_deadline(kind, path) == 1


@pytest.mark.parametrize(
    ("kind", "text", "says"),
    [
        ("clock", b'{"event":"clock","player":"A","player":"B"}\n', "appears twice"),
        ("replay", b'{"event":"match","t":NaN}\n', "NaN is not a JSON number"),
        ("bhukhar", b'{"event":"session"}\n\xff\n', "2: not UTF-8 text"),
        ("clock", b'{"event":"clock"}\n\xc3\x28\n', "2: not UTF-8 text"),
        ("replay", b"[" * 1000 + b"]" * 1000 + b"\n", "nested deeper"),
        ("replay", b'{"event":"match","t":' + b"1" * 5000 + b"}\n", "digits"),
        ("bhukhar", b'{"event":"session","name":"\\ud800"}\n', "lone surrogate"),
        ("config", b"[bhukhar]\nwarn_minutes = [nan]\n", "2: bhukhar.warn_minutes"),
        ("config", b"[camera]\na = " + b"[" * 100 + b"]" * 100 + b"\n", "2: not valid TOML"),
    ],
)
def test_fuzz_reader_names_the_line_of_what_it_refuses(
    kind: str, text: bytes, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "input"
    path.write_bytes(text)
    assert cli_main([*COMMANDS[kind], str(path)]) == 1
    assert says in capsys.readouterr().err


def test_fuzz_pin_hash_iterations_are_bounded(tmp_path: Path) -> None:
    from kiosk.config import check_settings

    path = tmp_path / "s.toml"
    path.write_text(
        '[umpire]\npin_hash = "pbkdf2_sha256$999999999$0011223344556677$' + "ab" * 32 + '"\n'
    )
    problems = check_settings(path)
    assert [p.key for p in problems] == ["umpire.pin_hash"]
