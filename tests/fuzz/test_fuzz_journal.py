"""Every reader of a journal, and every record reader, fed structure-aware mutations: a row's
column set to what a technician or a damaged card could leave (t='abc', 1e308, a seq far out,
`"event": {"a": 1}`, JSON that is not an object, NaN, deep nesting), rows deleted or doubled,
the meta table changed, the seal rewritten (`{"seq": 1e400}`), bytes flipped, the file cut.

Each input goes through the kiosk's start (`Journal(path)` and its reads), `journal verify`,
and two of `export` (carrom, --clock, --bhukhar), `protest` and `journal restore` (the mutated
file as the backup). The answer must be a refusal naming the file (and the entry, for a row),
never a traceback; a run that takes over 10 s is a hang. The record readers (`replay`,
`clock replay`, `bhukhar standings`) get their lines' values replaced the same way.
400 journal inputs and 900 record inputs here (make test); bench/bench_fuzz.py runs the
journal's for as long as asked, with other inputs each run (docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.cli import main as cli_main
from kiosk.engine.journal import Journal, JournalError
from kiosk.rules.bhukhar.record import SessionStart, Team
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.carrom_table import CarromTable

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"


class Hang(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def fire(_signum: int, _frame: object) -> None:
        raise Hang(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def make_seed(folder: Path) -> Path:
    """One journal holding a carrom match (strokes, an undo), a backgammon clock and a Bhukhar
    session, as the kiosk writes them."""
    path = folder / "journal.db"
    clock, wall = ManualClock(100.0), ManualClock(1.7e9)
    journal = Journal(path)
    carrom = CarromTable(journal, clock=clock, wall=wall)
    carrom.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    carrom.confirm(carrom.proposal.edited(pocketed=["white", "white"]), role=Role.UMPIRE)
    clock.advance(7.5)
    carrom.confirm(carrom.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    carrom.confirm(carrom.proposal.edited(pocketed=["black"], striker=True), role=Role.UMPIRE)
    carrom.undo(role=Role.UMPIRE)
    table = BackgammonTable(journal, clock=clock, wall=wall)
    table.start_match(("Nikos", "Eleni"), 5, role=Role.UMPIRE)
    table.start("Nikos", role=Role.PLAYER)
    clock.advance(9.5)
    table.press("Nikos", role=Role.PLAYER)
    teams = (Team("A", ("Ravi", "Mina", "Anil")), Team("B", ("Uma", "Jay", "Dev")))
    BhukharTable.create(journal, SessionStart(teams, 30, (5.0,), (1,)), clock=clock, wall=wall)
    journal.checkpoint()
    journal.close()
    return path


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_seed(tmp_path_factory.mktemp("seed"))


#: What a hand or a damaged card could leave in a column.
POISON: list[Any] = [
    "abc",
    1e308,
    -1e308,
    None,
    "",
    2**62,
    -1,
    0,
    9.5,
    '{"a":',
    "[1]",
    '"text"',
    "{}",
    '{"event":{"a":1}}',
    '{"event":"stroke","pocketed":"x","t":1e308}',
    '{"event":"match","rules":5,"players":[1,2]}',
    '{"t":NaN}',
    "[" * 2000 + "]" * 2000,
    '{"a":' + "1" * 5000 + "}",
    "x" * 20_000,
    b"\xff\xfe",
    '{"event":"press","player":"Nikos","t":-5}',
    '{"round":1e400}',
]
COLUMNS = {
    "entries": ["seq", "match_id", "t", "wall", "source", "kind", "data", "prev", "hash", "mac"],
    "matches": ["id", "kind", "header", "wall_start", "finished", "seq", "prev", "hash"],
    "meta": ["value"],
}
SEALS = [
    b'{"seq": 1e400, "hash": "x"}',
    b'{"seq": "7", "hash": "x"}',
    b'{"seq": -1, "hash": ""}',
    b'{"seq": 99999999999999999999999, "hash": ""}',
    b'{"seq": 3}',
    b'{"seq": 3, "hash": "ab", "key": "zz"}',
    b"[]",
    b"",
    b"\xff" * 10,
    b'{"seq": 2, "hash": "' + b"a" * 64 + b'"}',
    b"{" * 5000,
]

Mutation = tuple[Any, ...]


@st.composite
def mutations(draw: st.DrawFn) -> list[Mutation]:
    out: list[Mutation] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(["value", "value", "value", "delete", "double", "seal", "bytes"])
            | st.sampled_from(["cut", "index", "wal"])
        )
        if kind == "value":
            table = draw(st.sampled_from(sorted(COLUMNS)))
            out.append(
                (
                    kind,
                    table,
                    draw(st.sampled_from(COLUMNS[table])),
                    draw(st.integers(0, 40)),
                    draw(st.sampled_from(POISON)),
                )
            )
        elif kind in ("delete", "double"):
            out.append(
                (kind, draw(st.sampled_from(["entries", "matches"])), draw(st.integers(0, 40)))
            )
        elif kind == "seal":
            out.append((kind, draw(st.sampled_from(SEALS))))
        elif kind in ("bytes", "cut"):
            out.append((kind, draw(st.floats(0, 1)), draw(st.integers(0, 255))))
        else:
            out.append((kind,))
    return out


def mutate(path: Path, changes: list[Mutation]) -> None:
    for change in changes:
        kind = change[0]
        if kind == "seal":
            Path(f"{path}.seal").write_bytes(change[1])
            continue
        if kind in ("bytes", "cut"):
            raw = bytearray(path.read_bytes())
            at = int(change[1] * max(0, len(raw) - 1))
            if kind == "bytes" and raw:
                raw[at] ^= change[2] or 1
            else:
                del raw[at:]
            path.write_bytes(bytes(raw))
            continue
        if kind == "wal":  # a -wal that is not this journal's
            Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\x00" * 60)
            continue
        # Closed whatever happens: a connection left open by a change that failed held its
        # write lock, and the next change waited sqlite3's 5 s for it and was not applied.
        try:
            with contextlib.closing(sqlite3.connect(path)) as db:
                _apply(db, change)
        except (sqlite3.Error, OverflowError):
            continue  # the mutation itself did not apply (a damaged file already)


def _apply(db: sqlite3.Connection, change: Mutation) -> None:
    """A change to the journal's tables, committed."""
    kind = change[0]
    if kind == "index":
        db.execute("DROP INDEX IF EXISTS entries_by_match")
    elif kind == "value":
        _, table, column, row, value = change
        rowids = [r[0] for r in db.execute(f"SELECT rowid FROM {table}")]
        if rowids:
            db.execute(
                f"UPDATE {table} SET {column}=? WHERE rowid=?",
                (value, rowids[row % len(rowids)]),
            )
    elif kind == "delete":
        rowids = [r[0] for r in db.execute(f"SELECT rowid FROM {change[1]}")]
        if rowids:
            db.execute(f"DELETE FROM {change[1]} WHERE rowid=?", (rowids[change[2] % len(rowids)],))
    elif kind == "double":
        db.execute(
            f"INSERT INTO {change[1]} SELECT * FROM {change[1]} WHERE rowid=(SELECT"
            f" min(rowid) FROM {change[1]}) ON CONFLICT DO NOTHING"
        )
    db.commit()


def run(argv: list[str], named: Path) -> int:
    """A command in-process: an exception escaping it fails the test with its traceback; a
    refusal must name the file."""
    out, err = io.StringIO(), io.StringIO()
    with deadline(10), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    assert code in (0, 1), (argv, code, err.getvalue()[:300])
    if code == 1:
        said = out.getvalue() + err.getvalue()
        assert str(named) in said, (argv, said[:400])
        if "cannot be read:" in said:
            assert "entry" in said or "match" in said or "seal" in said, said[:400]
    return code


def start(path: Path) -> None:
    """The kiosk's start on the journal, and the reads resume makes."""
    with deadline(10):
        try:
            journal = Journal(path)
        except JournalError as exc:
            assert str(path) in str(exc), str(exc)[:300]
            return
        try:
            for row in journal.matches():
                journal.confirmed(row.id)
                journal.entries(row.id)
        except JournalError as exc:
            assert str(path) in str(exc), str(exc)[:300]
        finally:
            journal.close()


READERS = ["export", "clock", "bhukhar", "protest", "restore"]

FUZZ = settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory where there is one (/dev/shm): the readers sync what they write, and
    a thousand inputs on a shared disk would take minutes of waiting for it."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="tableside-fuzz-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fuzz_journals(
    seed_journal: Path, folder: Path, examples: int, random_seed: int | None = None
) -> dict[str, int]:
    """`examples` mutated copies of `seed_journal` in `folder`, each through verify, the start
    and two more readers; what was run and refused. A traceback or a hang raises (hypothesis
    prints the mutation). `random_seed`: other inputs than make test's (bench/bench_fuzz.py)."""
    seen = {"inputs": 0, "refused": 0, **{reader: 0 for reader in READERS}}
    counter = iter(range(10**9))

    @settings(FUZZ, max_examples=examples, derandomize=random_seed is None)
    @given(mutations(), st.lists(st.sampled_from(READERS), min_size=2, max_size=2, unique=True))
    def one(changes: list[Mutation], readers: list[str]) -> None:
        case = folder / str(next(counter))
        case.mkdir()
        path = case / "journal.db"
        for suffix in ("", ".seal"):
            shutil.copyfile(f"{seed_journal}{suffix}", f"{path}{suffix}")
        mutate(path, changes)
        seen["refused"] += run(["journal", "verify", str(path)], path)
        for reader in readers:
            seen[reader] += 1
            if reader == "export":
                run(["export", str(path)], path)
            elif reader in ("clock", "bhukhar"):
                run(["export", str(path), f"--{reader}"], path)
            elif reader == "protest":
                run(["protest", str(path), "-o", str(case / "out")], path)
            else:
                run(["journal", "restore", str(path), str(case / "restored.db")], path)
        start(path)
        seen["inputs"] += 1
        shutil.rmtree(case)

    if random_seed is not None:
        one = hypothesis_seed(random_seed)(one)
    one()
    return seen


#: Journal inputs in make test (each through verify, the start and two more readers): the
#: thousands are bench/bench_fuzz.py's (the suite's time).
INPUTS = 400


def test_fuzz_journal_readers_never_raise_or_hang(seed: Path, scratch: Path) -> None:
    seen = fuzz_journals(seed, scratch, INPUTS)
    assert seen["inputs"] >= INPUTS
    assert seen["refused"] > INPUTS * 3 // 10  # most mutations are found


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        ("UPDATE entries SET t='abc' WHERE seq=3", "entry 3: cannot be read: its time t is 'abc'"),
        ('UPDATE entries SET data=\'{"event": {"a": 1}\' WHERE seq=3', "entry 3: cannot be read"),
        ("UPDATE entries SET data='[1]' WHERE seq=3", "entry 3: cannot be read: its data is JSON"),
        ("UPDATE matches SET seq='x' WHERE id=1", "entry 'x' (a match's start): cannot be read"),
    ],
)
def test_fuzz_journal_bad_row_is_named_by_every_reader(
    seed: Path, tmp_path: Path, sql: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    shutil.copyfile(seed, path)
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    assert cli_main(["journal", "verify", str(path)]) == 1
    assert says in capsys.readouterr().out
    with pytest.raises(JournalError, match="entry"):
        Journal(path)
    for argv in (["export", str(path)], ["protest", str(path), "-o", str(tmp_path)]):
        assert cli_main(argv) in (0, 1)  # read: refused by name, or the row is not its match's
        capsys.readouterr()


def test_fuzz_journal_seal_of_1e400_is_refused_by_name(seed: Path, tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    shutil.copyfile(seed, path)
    Path(f"{path}.seal").write_text('{"seq": 1e400, "hash": ""}')
    with pytest.raises(JournalError, match=r"journal\.db\.seal: the journal's seal cannot be read"):
        Journal(path)


# -- the record readers, their values replaced ---------------------------------------------------

RECORDS = {
    "replay": sorted((DATA / "carrom").glob("*.jsonl"))[:8],
    "clock": [p for p in sorted((DATA / "clock").glob("*.jsonl")) if "bad_" not in p.name][:8],
    "bhukhar": [DATA / "bhukhar" / "session.jsonl"],
}
COMMANDS = {"replay": ["replay"], "clock": ["clock", "replay"], "bhukhar": ["bhukhar", "standings"]}
VALUES: list[Any] = [
    {"a": 1},
    [1, [2]],
    1e308,
    -1e308,
    2**70,
    -1,
    0,
    None,
    True,
    "",
    "x" * 1000,
    {"event": "stroke"},
    [None] * 50,
]


@st.composite
def record(draw: st.DrawFn, kind: str) -> bytes:
    lines = draw(st.sampled_from(RECORDS[kind])).read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        number = draw(st.integers(0, len(lines) - 1))
        try:
            obj = json.loads(lines[number])
        except ValueError:
            continue
        if not isinstance(obj, dict) or not obj:
            continue
        key = draw(st.sampled_from([*sorted(obj), "event", "t"]))
        obj[key] = draw(st.sampled_from(VALUES))
        lines[number] = json.dumps(obj)
    return ("\n".join(lines) + "\n").encode("utf-8")


RECORD_FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_fuzz_record_values_replaced_never_raise_and_name_the_line(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    seen = 0

    @RECORD_FUZZ
    @given(record(kind))
    def one(data: bytes) -> None:
        nonlocal seen
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with deadline(10), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main([*COMMANDS[kind], str(path)])
        assert code in (0, 1), code
        if code == 1:
            assert err.getvalue().startswith(f"{path}:"), err.getvalue()[:300]  # FILE:LINE
        seen += 1

    one()
    assert seen >= 300
