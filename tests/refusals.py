"""`raises_code`: a refusal pinned by its Reason's code (and law), not by its English words,
so a test holds however the message is worded or translated."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from kiosk.errors import Reason, reason_of


def reason(exc: BaseException) -> Reason | None:
    """The Reason an error carries: a `Refused`'s `reason`, a meld's `why`."""
    found = reason_of(exc)
    if found is None:
        why = getattr(exc, "why", None)
        found = why if isinstance(why, Reason) else None
    return found


@contextmanager
def raises_code(
    kind: type[BaseException] | tuple[type[BaseException], ...], code: str, law: str | None = None
) -> Iterator[pytest.ExceptionInfo[Any]]:
    with pytest.raises(kind) as caught:
        yield caught
    why = reason(caught.value)
    record = os.environ.get("TABLESIDE_RECORD_CODES")
    if record:  # a tool's run: note the code each refusal gave, for converting a test
        with open(record, "a", encoding="utf-8") as f:
            f.write(json.dumps([code, why.code if why else None, why.law if why else None]) + "\n")
        return
    assert why is not None, f"no Reason on {caught.value!r}"
    assert why.code == code, f"{why.code!r} (law {why.law}): {why.english()}"
    if law is not None:
        assert why.law == law
