"""The one root of every error Tableside raises on purpose.

Each error class subclasses `TablesideError` and the built-in that fits (mostly
`ValueError`: bad input; `RuntimeError` or `OSError` for a part or a file that fails), so a
caller may catch every Tableside error at once, or keep catching the built-in it always did.
Standard library only: the pure cores import it too.
"""

from __future__ import annotations


class TablesideError(Exception):
    """Something Tableside refused or could not do; the message says what and where."""
