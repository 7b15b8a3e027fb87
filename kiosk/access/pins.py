"""The umpire's and the director's PINs, stored only as salted hashes: PBKDF2-HMAC-SHA256
(`hash_pin`, `check_pin`); the settings hold the hashes (`[umpire] pin_hash`,
`director_pin_hash`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

PIN_HASH_SCHEME = "pbkdf2_sha256"
#: Bounds a settings file's PBKDF2 iteration count: at least MIN, so a hash is not cheap to
#: guess from the SD card; at most MAX, so one check stays under 100 ms on a Pi 4
#: (bench/bench_pins.py, docs/benchmarks.md).
MIN_PIN_ITERATIONS = 10_000
MAX_PIN_ITERATIONS = 20_000
PIN_HASH_ITERATIONS = 20_000

#: The hash of the PIN "1234": the umpire's under --simulate only. A real kiosk has no PIN
#: until its first start asks for both (docs/security.md).
DEFAULT_PIN_HASH = (
    "pbkdf2_sha256$20000$7461626c65736964652d64656661756c74"
    "$284dacf56fdc06ea78ae77398013b13e43f67480b8a937c7f48b3a9365973d17"
)
#: The director's PIN under --simulate ("4321"), hashed like DEFAULT_PIN_HASH.
SIMULATED_DIRECTOR_HASH = (
    "pbkdf2_sha256$20000$7461626c65736964652d6469726563746f72"
    "$9d2730648a19591ee96573fb47dda9ee75abd4f4bd48e544477c659ee0f6d25d"
)


def _split_hash(text: str) -> tuple[int, bytes, bytes] | None:
    parts = text.split("$")
    if len(parts) != 4 or parts[0] != PIN_HASH_SCHEME or not parts[1].isdigit():
        return None
    if len(parts[1]) > 8 or int(parts[1]) > MAX_PIN_ITERATIONS:
        return None  # a PIN check must not take minutes
    try:
        salt, digest = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
    except ValueError:
        return None
    if int(parts[1]) < MIN_PIN_ITERATIONS or len(salt) < 8 or len(digest) != 32:
        return None
    return int(parts[1]), salt, digest


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = PIN_HASH_ITERATIONS) -> str:
    """The stored form of an umpire PIN: PBKDF2-HMAC-SHA256 with a random 16-byte salt."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return f"{PIN_HASH_SCHEME}${iterations}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, pin_hash: str) -> bool:
    """Whether `pin` is the PIN `pin_hash` was made from (constant-time comparison)."""
    parts = _split_hash(pin_hash)
    if parts is None:
        return False
    iterations, salt, digest = parts
    return hmac.compare_digest(
        hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations), digest
    )
