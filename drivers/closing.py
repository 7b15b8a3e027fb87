"""`with` support shared by the parts: leaving the block calls the part's `close()`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class Closing(ABC):
    """A part that holds a pin, a port or a thread until `close()`."""

    @abstractmethod
    def close(self) -> None:
        """Release what the part holds; safe to call twice."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
