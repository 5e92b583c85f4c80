"""Every input has a size, a depth and a rate: the numbers, and the checks that apply them.

One client may cost the server only a bounded share: its messages are small,
and past their rate they are read more slowly (the rest wait in the client's
own socket, not in our memory); what waits to be sent to it is capped (a
reader too slow to keep up is disconnected and resyncs when it comes back);
an address holds a bounded number of connections and creates tables at a
bounded rate.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse, storage, strategies

from riichi.errors import RiichiError


class LimitError(RiichiError):
    """Input refused for its size, shape or rate; nothing has changed."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's bounds; tests and benchmarks may set their own."""

    body_bytes: int = 16 * 1024  # an HTTP request body
    body_seconds: float = 10.0  # to receive it
    message_bytes: int = 4096  # a websocket message from a client
    messages_per_second: float = 50.0  # websocket messages read per connection
    message_burst: int = 100
    outbox_messages: int = 64  # waiting to be sent to one client
    outbox_bytes: int = 2 * 1024 * 1024
    sockets_per_address: int = 32
    sockets: int = 20_000
    tables_per_address: str = "30 per minute"  # see `limits.parse` for the syntax
    reviews_per_address: str = "30 per minute"  # review requests, asked or pasted
    # live tables in all; a signed-in person with no table in play is never refused
    live_tables: int = 5000
    guest_tables: int = 500  # live tables opened by guests, all together
    guest_tables_per_address: int = 3  # ... by the guests of one address
    tables_per_account: int = 10  # live tables one signed-in account opens
    # live tables with no person at them (a league's round of computers), in this
    # process: they load the site and nobody plays them
    computer_tables: int = 16
    idle_seconds: float = 3600.0  # an untimed table nobody moved at or visited closes
    page: int = 50  # lobby and game lists
    max_page: int = 200
    json_depth: int = 16


class RateLimits:
    """Moving-window counters by key (an address, a connection): in memory, or shared
    by every process of a site in Redis (``url``, e.g. ``redis://host:6379``)."""

    def __init__(self, url: str | None = None) -> None:
        self._local = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._limiter = self._local
        if url is not None:
            shared = storage.storage_from_string(url, socket_timeout=2.0)
            self._limiter = strategies.MovingWindowRateLimiter(shared)
        self._items: dict[str, RateLimitItem] = {}

    def _item(self, rate: str) -> RateLimitItem:
        item = self._items.get(rate)
        if item is None:
            item = self._items[rate] = parse(rate)
        return item

    def hit(self, rate: str, key: str) -> bool:
        """Count one hit; False once ``key`` is over ``rate`` (e.g. ``"30 per minute"``).
        While the shared store is out of reach, this process counts alone."""
        try:
            return self._limiter.hit(self._item(rate), key)
        except Exception:  # Redis: better limits per process than none, or no site
            if self._limiter is self._local:
                raise
            return self._local.hit(self._item(rate), key)


class Pace:
    """A token bucket for one connection: ``burst`` messages at once, then ``rate`` a
    second. Cheaper than a shared limiter on the path every message takes."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def wait(self) -> float:
        """Take a token and return 0, or return the seconds until one is there."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


def _refuse_constant(name: str) -> Any:
    raise LimitError(f"{name} is not a JSON number")


def parse_json(data: bytes | str, limit: int, depth: int) -> Any:
    """Strict JSON of at most ``limit`` bytes and ``depth`` levels: no NaN, valid UTF-8."""
    if len(data) > limit:
        raise LimitError(f"the message is {len(data)} bytes; the limit is {limit}")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text, parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise LimitError("the message is not valid UTF-8") from None
    except RecursionError:
        raise LimitError(f"the message nests deeper than {depth} levels") from None
    except json.JSONDecodeError as exc:
        raise LimitError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except LimitError:
        raise
    except ValueError:  # an integer of thousands of digits: Python refuses to convert it
        raise LimitError("a number in the message has too many digits") from None
    if _depth(value, depth) > depth:
        raise LimitError(f"the message nests deeper than {depth} levels")
    return value


def _depth(value: Any, cap: int) -> int:
    """Nesting depth, counting no further than ``cap + 1``."""
    if cap < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, cap - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, cap - 1) for v in value), default=0)
    return 0
