"""Events: the facts a match produces, each with who may see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(init=False)
class Event:
    """A fact. ``to`` is the one seat that may see it, or None for everyone.

    ``data`` holds plain JSON-able values only, so records and the wire
    format are the event itself. The fields are ``Final``; the constructor is
    written out so that the compiled core runs it natively.
    """

    type: Final[str]
    data: Final[dict[str, Any]]
    to: Final[int | None]

    def __init__(
        self, type: str, data: dict[str, Any] | None = None, to: int | None = None
    ) -> None:
        self.type = type
        self.data = {} if data is None else data
        self.to = to

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Event, (self.type, self.data, self.to)  # compiled: pickled by its fields

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or self.to == seat

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.to is not None:
            out["to"] = self.to
        return out
