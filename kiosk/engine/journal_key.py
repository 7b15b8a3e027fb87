"""The journal's keyed chain: tamper evidence a technician with the SD card cannot recompute.

The hash chain (journal_chain.py) finds a changed row, but anyone can recompute it. So each row
also carries `mac` = HMAC-SHA256(k_seq, hash): the row's chain hash (which covers every row
before it) under a key that changes with every row, k_{s+1} = SHA-256("tableside-journal-key"
+ k_s). The kiosk keeps only the key of the next row to write (in the seal, `journal.db.seal`,
0600, replaced after every synced write); each key is forgotten once the next is derived.
Whoever reads the card later holds k_n and can compute no earlier key, so no MAC of a row
already written: a row changed with its chain and seal recomputed fails
`tableside journal verify --key`.

The first key is the director's: a random 32 bytes made when the journal is created (or keyed
for the first time), given to the director once (`tableside journal key JOURNAL` prints it and
deletes `journal.db.director-key`, the file that held it), or handed in by the hall. Written
as `tsk2-<chain from>-<key from>-<64 hex>`: where the journal's hash chain begins, the number of
the first row the key keys, and the key. With it `verify --key` checks the chain from where the
key says it begins and every MAC from the key's first row on, whatever the journal's own `meta`
says: the start cannot be moved in the file (the seal records it too). A key of the first form,
`tsk1-<key from>-<64 hex>`, still reads: the chain must then begin at or before its first row.
A journal keyed again after a restore has two keys, each from its own row.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from pathlib import Path

from kiosk.atomic import write_atomic

EVOLVE = b"tableside-journal-key\n"
_FORMAT = re.compile(r"tsk1-(\d{1,15})-([0-9a-f]{64})")
_FORMAT2 = re.compile(r"tsk2-(\d{1,15})-(\d{1,15})-([0-9a-f]{64})")


class JournalKeyError(ValueError):
    """A key text, or the key file, that cannot be used (says why)."""


def evolve(key: bytes, steps: int = 1) -> bytes:
    for _ in range(steps):
        key = hashlib.sha256(EVOLVE + key).digest()
    return key


def mac(key: bytes, row_hash: str) -> str:
    return hmac.new(key, row_hash.encode("ascii", "replace"), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """A short public name of a first key (which key keyed a journal, without giving it)."""
    return hashlib.sha256(b"tableside-key-id\n" + key).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class DirectorKey:
    """The first key of a keyed stretch of the journal: it keys row `start` and derives all
    later keys. `chain_from`: where the journal's hash chain begins (None: a key of the first
    form, which did not record it)."""

    start: int
    key: bytes
    chain_from: int | None = None

    def text(self) -> str:
        if self.chain_from is None:
            return f"tsk1-{self.start}-{self.key.hex()}"
        return f"tsk2-{self.chain_from}-{self.start}-{self.key.hex()}"

    def at(self, seq: int) -> bytes:
        return evolve(self.key, seq - self.start)


def parse_key(text: str) -> DirectorKey:
    plain = text.strip().lower().replace(" ", "")
    second = _FORMAT2.fullmatch(plain)
    if second is not None:
        chain_from, start = int(second.group(1)), int(second.group(2))
        if chain_from > start:
            raise JournalKeyError(
                f"{text[:24]!r}: the chain cannot begin after the key's first entry"
            )
        return DirectorKey(start, bytes.fromhex(second.group(3)), chain_from)
    found = _FORMAT.fullmatch(plain)
    if found is None:
        raise JournalKeyError(
            f"{text[:20]!r} is not a journal key"
            " (tsk2-<chain from>-<first entry>-<64 hex digits>, or tsk1-<first entry>-<64 hex>)"
        )
    return DirectorKey(int(found.group(1)), bytes.fromhex(found.group(2)))


def new_key(start: int, chain_from: int | None = None) -> DirectorKey:
    return DirectorKey(start, os.urandom(32), chain_from)


# -- the director's copy -----------------------------------------------------------------


def director_key_path(journal: Path) -> Path:
    return Path(f"{journal}.director-key")


def give_to_director(journal: Path, key: DirectorKey) -> None:
    """Keep the director's key beside the journal until the director takes it (a key not yet
    taken is kept with it: a journal keyed again after a restore has two)."""
    waiting = untaken(journal)
    if key.text() not in waiting:
        write_atomic(director_key_path(journal), "".join(f"{k}\n" for k in [*waiting, key.text()]))


def untaken(journal: Path) -> list[str]:
    """The director's keys still beside the journal (empty once taken)."""
    try:
        text = director_key_path(journal).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return []
    keys = []
    for line in text.split():
        try:
            keys.append(parse_key(line).text())
        except JournalKeyError:
            continue
    return keys


def take_director_key(journal: Path) -> list[str]:
    """The director's keys not yet taken, and the file that held them deleted."""
    keys = untaken(journal)
    with contextlib.suppress(FileNotFoundError):
        director_key_path(journal).unlink()
    return keys
